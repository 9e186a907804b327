import { InputError, PreconditionError } from '../errors.js';
import type {
  InferenceEndpointConfigManifest,
  InferenceWorker,
  ModelSourceConfig,
} from '../kube/inference-endpoint-config.js';
import {
  INFERENCE_OPERATOR_API,
  type KvCacheSpec,
  type OperatorAutoScalingSpec,
  type OperatorCommonSpec,
} from '../kube/inference-operator.js';
import type { JumpStartModelManifest } from '../kube/jumpstart-model.js';
import type { DeployManagedEndpointRequest } from '../schemas/inference/requests.js';
import { GPU_RESOURCE } from '../training/placement.js';
import { MANAGED_BY_LABEL, MANAGED_BY_VALUE } from './names.js';

/**
 * The object a managed endpoint is: an InferenceEndpointConfig (storage or Hugging Face models) or a
 * JumpStartModel, named for the endpoint, which the HyperPod inference operator turns into a
 * Deployment, a Service, an ALB and a KEDA ScaledObject. Every field set here exists in the CRDs at
 * aws/sagemaker-hyperpod-cli 011ca92 with this type (src/domain/kube/inference-operator.ts).
 *
 * No tolerations: unlike our own serving pods (serving-pod.ts, which tolerate their group's taints),
 * a managed endpoint cannot carry any. The InferenceEndpointConfig CRD (`inference.sagemaker.aws.amazon.com/v1`
 * at 011ca92) has no tolerations field — not under `worker`, not in `nodeAffinity` (a NodeAffinity only),
 * and `kubernetes` holds only initContainers, schedulerName, serviceAccountName and volumes (its
 * description names tolerations as a possible future field); the JumpStartModel CRD has none either.
 * Its pods are placed by instance type, so on a type whose groups carry NoSchedule/NoExecute taints
 * they stay Pending unless the operator adds matching tolerations itself (its source is not public).
 */

/** What the caller resolved before building: the namespace, the storage the request names, the execution role. */
export type ManagedEndpointFacts = {
  namespace: string;
  storage?:
    | { kind: 's3'; bucket: string; region: string; prefix: string }
    | { kind: 'fsx'; fileSystemId: string; dnsName?: string; mountName?: string };
  executionRoleArn?: string;
};

/** Where the operator mounts the model in the worker (the CRD's default `modelVolumeMount.mountPath`). */
export const MODEL_MOUNT_PATH = '/opt/ml/model';
const MODEL_VOLUME = 'model-weights';

/**
 * The only roles the operator's managed policy (AmazonSageMakerHyperPodInferenceAccess) may pass:
 * `iam:PassRole` on `arn:aws:iam::*:role/SageMakerHyperPodInference*` (real-account-facts.md, fact 4).
 */
export const PASSABLE_EXECUTION_ROLE =
  /^arn:aws[a-z-]*:iam::\d{12}:role\/(?:[\w+=,.@-]+\/)*SageMakerHyperPodInference[\w+=,.@-]*$/;

export function managedEndpointManifest(
  req: DeployManagedEndpointRequest,
  facts: ManagedEndpointFacts,
): InferenceEndpointConfigManifest | JumpStartModelManifest {
  if (facts.executionRoleArn && !PASSABLE_EXECUTION_ROLE.test(facts.executionRoleArn))
    throw new PreconditionError({
      message: `The inference execution role ${facts.executionRoleArn} cannot be passed by the inference operator: its managed policy passes only roles named SageMakerHyperPodInference*.`,
      remedy: 'Turn the inference-operator feature off and on again so it creates its execution role under that name.',
    });
  const metadata = {
    name: req.name,
    namespace: facts.namespace,
    labels: { [MANAGED_BY_LABEL]: MANAGED_BY_VALUE },
  };
  const common = commonSpec(req);
  if (req.model.source === 'jumpstart') {
    const m = req.model;
    return {
      apiVersion: INFERENCE_OPERATOR_API,
      kind: 'JumpStartModel',
      metadata,
      spec: {
        ...common,
        model: {
          modelId: m.modelId,
          acceptEula: m.acceptEula,
          ...(m.modelVersion ? { modelVersion: m.modelVersion } : {}),
        },
        server: {
          instanceType: req.instanceTypes[0] as string,
          ...(facts.executionRoleArn ? { executionRole: facts.executionRoleArn } : {}),
        },
      },
    };
  }
  if (!req.worker) throw InputError.field('worker', 'is required unless the model comes from JumpStart');
  const [only, ...more] = req.instanceTypes;
  return {
    apiVersion: INFERENCE_OPERATOR_API,
    kind: 'InferenceEndpointConfig',
    metadata,
    spec: {
      ...common,
      modelName: req.name,
      ...(more.length ? { instanceTypes: [...req.instanceTypes] } : { instanceType: only as string }),
      invocationEndpoint: req.invocationPath,
      modelSourceConfig: modelSource(req, facts),
      worker: worker(req.worker),
    },
  };
}

function modelSource(req: DeployManagedEndpointRequest, facts: ManagedEndpointFacts): ModelSourceConfig {
  const m = req.model;
  if (m.source === 'huggingface')
    return {
      modelSourceType: 'huggingface',
      huggingFaceModel: {
        modelId: m.modelId,
        ...(m.revision ? { commitSHA: m.revision } : {}),
        // The token stays in its Secret: the operator reads it by reference.
        ...(m.tokenSecret ? { tokenSecretRef: { name: m.tokenSecret.name, key: m.tokenSecret.key } } : {}),
      },
    };
  if (m.source !== 'storage') throw InputError.field('model.source', 'must be storage, huggingface or jumpstart');
  const storage = facts.storage;
  if (!storage) throw InputError.field('model.storage', `names no S3 or FSx storage in namespace ${facts.namespace}`);
  const path = (m.path ?? '').replace(/^\/+/, '');
  if (storage.kind === 's3') {
    const location = [storage.prefix.replace(/^\/+|\/+$/g, ''), path].filter(Boolean).join('/');
    return {
      modelSourceType: 's3',
      s3Storage: { bucketName: storage.bucket, region: storage.region },
      ...(location ? { modelLocation: location } : {}),
    };
  }
  return {
    modelSourceType: 'fsx',
    fsxStorage: {
      fileSystemId: storage.fileSystemId,
      ...(storage.dnsName ? { dnsName: storage.dnsName } : {}),
      ...(storage.mountName ? { mountName: storage.mountName } : {}),
    },
    ...(path ? { modelLocation: path } : {}),
  };
}

function worker(w: NonNullable<DeployManagedEndpointRequest['worker']>): InferenceWorker {
  const requests: Record<string, string> = {
    ...(w.cpu ? { cpu: w.cpu } : {}),
    ...(w.memory ? { memory: w.memory } : {}),
  };
  // GPUs are an extended resource: requests must equal limits, so both say it.
  const gpus: Record<string, string> = w.gpus > 0 ? { [GPU_RESOURCE]: String(w.gpus) } : {};
  return {
    image: w.image,
    resources: {
      ...(Object.keys({ ...requests, ...gpus }).length ? { requests: { ...requests, ...gpus } } : {}),
      ...(w.gpus > 0 ? { limits: { ...gpus } } : {}),
    },
    modelInvocationPort: { containerPort: w.port, name: 'http' },
    modelVolumeMount: { name: MODEL_VOLUME, mountPath: MODEL_MOUNT_PATH },
    ...(w.args.length ? { args: [...w.args] } : {}),
    ...(w.env?.length ? { environmentVariables: w.env.map((e) => ({ name: e.name, value: e.value })) } : {}),
  };
}

/** The blocks both kinds share: replicas, KV cache, routing, autoscaling, load balancer, metrics. */
function commonSpec(req: DeployManagedEndpointRequest): OperatorCommonSpec {
  return {
    replicas: req.replicas,
    ...(req.kvCache ? { kvCacheSpec: kvCache(req.kvCache) } : {}),
    ...(req.routing ? { intelligentRoutingSpec: { enabled: true, routingStrategy: req.routing.strategy } } : {}),
    ...(req.autoscaling ? { autoScalingSpec: autoscaling(req.name, req.autoscaling) } : {}),
    ...(req.loadBalancer
      ? {
          loadBalancer: {
            healthCheckPath: req.loadBalancer.healthCheckPath.startsWith('/')
              ? req.loadBalancer.healthCheckPath
              : `/${req.loadBalancer.healthCheckPath}`,
            routingAlgorithm: req.loadBalancer.algorithm,
          },
        }
      : {}),
    metrics: {
      enabled: req.metrics,
      // The model server's own /metrics is on its invocation port (the CRD takes 1024–65535; below, its default 8080 stays).
      ...(req.metrics && req.worker && req.worker.port >= 1024
        ? { modelMetrics: { path: '/metrics', port: req.worker.port } }
        : {}),
    },
  };
}

function kvCache(k: NonNullable<DeployManagedEndpointRequest['kvCache']>): KvCacheSpec {
  return {
    enableL1Cache: k.l1,
    enableL2Cache: !!k.l2,
    ...(k.l2
      ? { l2CacheSpec: { l2CacheBackend: k.l2.backend, ...(k.l2.url ? { l2CacheLocalUrl: k.l2.url } : {}) } }
      : {}),
  };
}

function autoscaling(
  name: string,
  a: NonNullable<DeployManagedEndpointRequest['autoscaling']>,
): OperatorAutoScalingSpec {
  const t = a.trigger;
  const bounds = { minReplicaCount: a.min, maxReplicaCount: a.max };
  if (t.type === 'cloudwatch')
    return {
      ...bounds,
      cloudWatchTrigger: {
        name: `${name}-cloudwatch`,
        namespace: t.namespace,
        metricName: t.metricName,
        dimensions: t.dimensions.map((d) => ({ name: d.name, value: d.value })),
        metricStat: t.statistic,
        targetValue: t.targetValue,
      },
    };
  return {
    ...bounds,
    prometheusTrigger: {
      name: `${name}-prometheus`,
      // The CRD's pattern ends at the workspace id: no trailing slash.
      serverAddress: t.serverAddress.replace(/\/+$/, ''),
      query: t.query,
      targetValue: t.targetValue,
    },
  };
}
