import type { KubeObject } from '../kube-object.js';
import { bool, kubeKind, parseBase, rec, str, type KubeResource } from './kind.js';
import {
  INFERENCE_OPERATOR_API,
  INFERENCE_OPERATOR_INSTALLED_BY,
  operatorHealth,
  parseCommonSpec,
  parseOperatorStatus,
  type OperatorCommonSpec,
  type OperatorStatus,
} from './inference-operator.js';

/**
 * JumpStartModel (`inference.sagemaker.aws.amazon.com/v1`, plural `jumpstartmodels`): a SageMaker
 * JumpStart model the HyperPod inference operator deploys with the server JumpStart pins for it. Typed
 * from the CRD at aws/sagemaker-hyperpod-cli 011ca92 (`inference.sagemaker.aws.amazon.com_jumpstartmodels.yaml`):
 * required `model.{modelId, acceptEula}` and `server.instanceType` (`^ml\..*`); `sageMakerEndpoint` is
 * optional (absent: no SageMaker endpoint is registered); `server.executionRole` must be an IAM role ARN.
 */

export type JumpStartModelSpec = OperatorCommonSpec & {
  model: {
    modelId: string;
    acceptEula: boolean;
    /** Default SageMakerPublicHub. */
    modelHubName?: string;
    /** x.y.z */
    modelVersion?: string;
    gatedModelDownloadRole?: string;
    additionalConfigs?: Array<{ name: string; value: string }>;
  };
  server: {
    instanceType: string;
    executionRole?: string;
    acceleratorPartitionType?: string;
    validations?: { acceleratorPartitionValidation?: boolean };
  };
  sageMakerEndpoint?: { name?: string };
  /** ≤ 100 literal name/value pairs (JumpStart containers take no valueFrom). */
  environmentVariables?: Array<{ name: string; value: string }>;
};

export type JumpStartModelManifest = KubeObject & {
  apiVersion: typeof INFERENCE_OPERATOR_API;
  kind: 'JumpStartModel';
  metadata: { name: string; namespace: string; labels: Record<string, string>; annotations?: Record<string, string> };
  spec: JumpStartModelSpec;
};

export type KubeJumpStartModel = KubeResource & {
  kind: 'JumpStartModel';
  spec: JumpStartModelSpec;
  status: OperatorStatus;
};

export function parseJumpStartModel(raw: unknown): KubeJumpStartModel {
  const base = parseBase(raw, { apiVersion: INFERENCE_OPERATOR_API, kind: 'JumpStartModel' });
  const spec = rec(base.spec);
  const model = rec(spec.model);
  const server = rec(spec.server);
  return {
    ...base,
    kind: 'JumpStartModel',
    spec: {
      ...spec,
      ...parseCommonSpec(spec),
      model: { ...model, modelId: str(model.modelId) ?? '', acceptEula: bool(model.acceptEula) ?? false },
      server: { ...server, instanceType: str(server.instanceType) ?? '' },
    },
    status: parseOperatorStatus(base.status),
  };
}

export const JUMPSTART_MODEL = kubeKind<KubeJumpStartModel>(
  {
    apiVersion: INFERENCE_OPERATOR_API,
    kind: 'JumpStartModel',
    plural: 'jumpstartmodels',
    namespaced: true,
    crd: 'jumpstartmodels.inference.sagemaker.aws.amazon.com',
    installedBy: INFERENCE_OPERATOR_INSTALLED_BY,
    health: (o) => operatorHealth(`JumpStartModel ${o.metadata.name}`, o.status),
  },
  parseJumpStartModel,
);
