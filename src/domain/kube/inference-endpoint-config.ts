import type { KubeObject } from '../kube-object.js';
import { kubeKind, parseBase, rec, str, num, type KubeResource, type Loose } from './kind.js';
import {
  INFERENCE_OPERATOR_API,
  INFERENCE_OPERATOR_INSTALLED_BY,
  operatorHealth,
  parseCommonSpec,
  parseOperatorStatus,
  strings,
  type OperatorCommonSpec,
  type OperatorStatus,
} from './inference-operator.js';

/**
 * InferenceEndpointConfig (`inference.sagemaker.aws.amazon.com/v1`): a model the HyperPod inference
 * operator deploys from S3, FSx or Hugging Face onto the cluster's instances. Typed from the CRD at
 * aws/sagemaker-hyperpod-cli 011ca92 (`inference.sagemaker.aws.amazon.com_inferenceendpointconfigs.yaml`):
 * required `modelName` (≤ 63, `^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}`), `modelSourceConfig.modelSourceType`,
 * `worker.{image, resources, modelInvocationPort.containerPort, modelVolumeMount.name}`; placement by
 * `instanceType` (`^ml\..*`) or `instanceTypes` (in order of preference). Blocks we do not set
 * (pdSpec, tlsConfig, dnsConfig, dataCapture, kubernetes, nodeAffinity, probes) are read as they come.
 */

export type ModelSourceType = 'fsx' | 's3' | 'huggingface' | 'kubernetesVolume';

/** A secret key reference as the CRD embeds it (corev1.SecretKeySelector: key required). */
export type SecretKeySelector = { name?: string; key: string; optional?: boolean };

export type ModelSourceConfig = {
  modelSourceType: ModelSourceType;
  s3Storage?: { bucketName: string; region: string };
  fsxStorage?: { fileSystemId: string; dnsName?: string; mountName?: string };
  huggingFaceModel?: { modelId: string; commitSHA?: string; tokenSecretRef?: SecretKeySelector };
  modelLocation?: string;
  prefetchEnabled?: boolean;
};

/** `worker.environmentVariables[]`: corev1.EnvVar (value or valueFrom). Cannot be updated after creation. */
export type WorkerEnvVar = { name: string; value?: string; valueFrom?: Loose };

export type InferenceWorker = {
  image: string;
  /** corev1.ResourceRequirements: quantities as strings (int-or-string in the CRD). */
  resources: { requests?: Record<string, string>; limits?: Record<string, string> };
  modelInvocationPort: { containerPort: number; name?: 'http' | 'grpc' };
  modelVolumeMount: { name: string; mountPath?: string };
  args?: string[];
  command?: string[];
  environmentVariables?: WorkerEnvVar[];
  workingDir?: string;
  requestLimits?: { maxConcurrentRequests?: number; maxQueueSize?: number; overflowStatusCode?: number };
};

export type InferenceEndpointConfigSpec = OperatorCommonSpec & {
  modelName: string;
  modelVersion?: string;
  /** Empty or absent: no SageMaker endpoint is registered. */
  endpointName?: string;
  instanceType?: string;
  instanceTypes?: string[];
  /** The path after http://host:port/ (CRD default `invocations`). */
  invocationEndpoint?: string;
  modelSourceConfig: ModelSourceConfig;
  worker: InferenceWorker;
  tags?: Array<{ name: string; value: string }>;
};

/** What we send: a manifest (no status). */
export type InferenceEndpointConfigManifest = KubeObject & {
  apiVersion: typeof INFERENCE_OPERATOR_API;
  kind: 'InferenceEndpointConfig';
  metadata: { name: string; namespace: string; labels: Record<string, string>; annotations?: Record<string, string> };
  spec: InferenceEndpointConfigSpec;
};

/** What a cluster answers: the spec read tolerantly (a missing required field reads as empty), and the status. */
export type KubeInferenceEndpointConfig = KubeResource & {
  kind: 'InferenceEndpointConfig';
  spec: InferenceEndpointConfigSpec;
  status: OperatorStatus;
};

const SOURCE_TYPES: readonly string[] = ['fsx', 's3', 'huggingface', 'kubernetesVolume'];

export function parseInferenceEndpointConfig(raw: unknown): KubeInferenceEndpointConfig {
  const base = parseBase(raw, { apiVersion: INFERENCE_OPERATOR_API, kind: 'InferenceEndpointConfig' });
  const spec = rec(base.spec);
  const source = rec(spec.modelSourceConfig);
  const worker = rec(spec.worker);
  const port = rec(worker.modelInvocationPort);
  const mount = rec(worker.modelVolumeMount);
  const type = str(source.modelSourceType);
  return {
    ...base,
    kind: 'InferenceEndpointConfig',
    spec: {
      ...spec,
      ...parseCommonSpec(spec),
      modelName: str(spec.modelName) ?? '',
      ...(str(spec.instanceType) ? { instanceType: str(spec.instanceType) } : {}),
      ...(Array.isArray(spec.instanceTypes) ? { instanceTypes: strings(spec.instanceTypes) } : {}),
      ...(str(spec.invocationEndpoint) !== undefined ? { invocationEndpoint: str(spec.invocationEndpoint) } : {}),
      modelSourceConfig: {
        ...source,
        modelSourceType: (type && SOURCE_TYPES.includes(type) ? type : 's3') as ModelSourceType,
      } as ModelSourceConfig,
      worker: {
        ...worker,
        image: str(worker.image) ?? '',
        resources: rec(worker.resources) as InferenceWorker['resources'],
        modelInvocationPort: { ...port, containerPort: num(port.containerPort) ?? 0 },
        modelVolumeMount: { ...mount, name: str(mount.name) ?? '' },
        ...(Array.isArray(worker.args) ? { args: strings(worker.args) } : {}),
        ...(Array.isArray(worker.command) ? { command: strings(worker.command) } : {}),
      },
    },
    status: parseOperatorStatus(base.status),
  };
}

export const INFERENCE_ENDPOINT_CONFIG = kubeKind<KubeInferenceEndpointConfig>(
  {
    apiVersion: INFERENCE_OPERATOR_API,
    kind: 'InferenceEndpointConfig',
    plural: 'inferenceendpointconfigs',
    namespaced: true,
    crd: 'inferenceendpointconfigs.inference.sagemaker.aws.amazon.com',
    installedBy: INFERENCE_OPERATOR_INSTALLED_BY,
    health: (o) => operatorHealth(`InferenceEndpointConfig ${o.metadata.name}`, o.status),
  },
  parseInferenceEndpointConfig,
);
