/**
 * The few SageMaker JumpStart models the sandbox's inference operator knows, by model id: the serving
 * container the public hub's model specification names for HyperPod and its port, and whether the
 * model is gated behind an EULA. Sandbox data, assumed: the ids are real public-hub ids
 * (`aws sagemaker list-hub-contents --hub-name SageMakerPublicHub`; `deepseek-llm-r1-distill-qwen-1-5b`
 * 2.0.4 is the one AWS's kubectl guide deploys), the images are the LMI (DJL) and TGI deep learning
 * containers those models ship with, and the port is SageMaker's serving port 8080. The real operator
 * reads each model's specification from the hub (DescribeHubContent); the sandbox has no hub, so an
 * id not listed here fails the deployment saying so.
 */
export interface JumpStartModelSpec {
  image: string;
  port: number;
  /** Where the container serves OpenAI-compatible chat (`invocationEndpoint` of the operator). */
  invocationPath: string;
  /** The model's licence must be accepted (`spec.model.acceptEula: true`) before it is deployed. */
  gated: boolean;
  env: Record<string, string>;
  /** A version the model has on the hub (the spec's `modelVersion` defaults to the newest). */
  version: string;
}

const LMI = (region: string) => `763104351884.dkr.ecr.${region}.amazonaws.com/djl-inference:0.33.0-lmi15.0.0-cu128`;
const TGI = (region: string) =>
  `763104351884.dkr.ecr.${region}.amazonaws.com/huggingface-pytorch-tgi-inference:2.4.0-tgi2.3.1-gpu-py311-cu124-ubuntu22.04-v2.0`;

const MODELS: ReadonlyMap<string, (region: string) => JumpStartModelSpec> = new Map<
  string,
  (region: string) => JumpStartModelSpec
>([
  [
    'deepseek-llm-r1-distill-qwen-1-5b',
    (region: string) => ({
      image: LMI(region),
      port: 8080,
      invocationPath: 'invocations',
      gated: false,
      version: '2.0.4',
      env: { HF_MODEL_ID: '/opt/ml/model', OPTION_ROLLING_BATCH: 'vllm', SM_NUM_GPUS: '1' },
    }),
  ],
  [
    'huggingface-llm-qwen2-5-7b-instruct',
    (region: string) => ({
      image: TGI(region),
      port: 8080,
      invocationPath: 'invocations',
      gated: false,
      version: '1.2.0',
      env: { HF_MODEL_ID: '/opt/ml/model', SM_NUM_GPUS: '1', MAX_INPUT_LENGTH: '4095', MAX_TOTAL_TOKENS: '4096' },
    }),
  ],
  [
    'meta-textgeneration-llama-3-1-8b-instruct',
    (region: string) => ({
      image: LMI(region),
      port: 8080,
      invocationPath: 'invocations',
      gated: true,
      version: '2.6.0',
      env: { HF_MODEL_ID: '/opt/ml/model', OPTION_ROLLING_BATCH: 'vllm', SM_NUM_GPUS: '1' },
    }),
  ],
  [
    'huggingface-llm-mistral-7b-instruct-v3',
    (region: string) => ({
      image: TGI(region),
      port: 8080,
      invocationPath: 'invocations',
      gated: false,
      version: '1.4.0',
      env: { HF_MODEL_ID: '/opt/ml/model', SM_NUM_GPUS: '1' },
    }),
  ],
]);

/** The model's serving container in a Region, or undefined for an id the sandbox's hub does not list. */
export function jumpStartModel(modelId: string, region: string): JumpStartModelSpec | undefined {
  return MODELS.get(modelId)?.(region);
}

export const JUMPSTART_MODEL_IDS = [...MODELS.keys()];
