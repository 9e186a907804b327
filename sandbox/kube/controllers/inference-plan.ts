import type { KubeObject } from '../types.js';
import { jumpStartModel } from './jumpstart-catalog.js';
import type { Any } from './util.js';

/**
 * What the HyperPod inference operator deploys for one InferenceEndpointConfig or JumpStartModel
 * (inference.sagemaker.aws.amazon.com/v1, aws/sagemaker-hyperpod-cli 011ca92), in one shape both kinds
 * reduce to: the model server's container, where its weights come from, where it may run, and the
 * optional parts (autoscaling, intelligent routing, KV cache, load balancer). A JumpStartModel's
 * container comes from the sandbox's small hub table (jumpstart-catalog.ts); an id it does not list,
 * or a gated model whose EULA was not accepted, is a failure with the reason the status reports.
 */
export interface EndpointPlan {
  name: string;
  namespace: string;
  replicas: number;
  container: {
    image: string;
    command?: string[];
    args?: string[];
    env: Any[];
    resources: Any;
    port: number;
    portName: string;
    workingDir?: string;
    probes: Any;
  };
  /** The model's volume as the pod mounts it, and how it is provided. */
  model: {
    volumeName: string;
    mountPath: string;
    source: 's3' | 'fsx' | 'huggingface' | 'kubernetesVolume' | 'jumpstart';
    s3?: { bucket: string; region: string; prefix?: string };
    fsx?: { fileSystemId: string; dnsName?: string; mountName?: string };
    /** `endpoint`: the Hub the download reaches (the sandbox's simulation, set by the operator's reconcile). */
    huggingFace?: { modelId: string; revision?: string; tokenSecretRef?: Any; endpoint?: string };
    location?: string;
  };
  initContainers: Any[];
  extraVolumes: Any[];
  serviceAccountName?: string;
  instanceType?: string;
  instanceTypes?: string[];
  nodeAffinity?: Any;
  autoscaling?: Any;
  routing?: { strategy: string; autoscaling?: Any };
  kvCache?: Any;
  loadBalancer?: Any;
  tls?: Any;
  endpointName?: string;
  maxDeployTimeInSeconds: number;
}

export type PlanResult = { plan: EndpointPlan } | { failure: { reason: string; message: string } };

const list = (v: unknown): Any[] => (Array.isArray(v) ? (v as Any[]) : []);

function common(o: KubeObject, spec: Any): Omit<EndpointPlan, 'container' | 'model'> {
  const routing = spec.intelligentRoutingSpec as Any | undefined;
  return {
    name: o.metadata.name!,
    namespace: o.metadata.namespace ?? 'default',
    replicas: Number.isInteger(spec.replicas) ? spec.replicas : 1,
    initContainers: [],
    extraVolumes: [],
    ...(spec.autoScalingSpec ? { autoscaling: spec.autoScalingSpec } : {}),
    ...(routing?.enabled
      ? {
          routing: {
            strategy: String(routing.routingStrategy ?? 'prefixaware'),
            ...(routing.autoScalingSpec ? { autoscaling: routing.autoScalingSpec } : {}),
          },
        }
      : {}),
    ...(spec.kvCacheSpec ? { kvCache: spec.kvCacheSpec } : {}),
    ...(spec.loadBalancer ? { loadBalancer: spec.loadBalancer } : {}),
    ...(spec.tlsConfig ? { tls: spec.tlsConfig } : {}),
    maxDeployTimeInSeconds: Number(spec.maxDeployTimeInSeconds ?? 3600),
  };
}

export function planOfEndpointConfig(o: KubeObject): PlanResult {
  const spec = (o.spec ?? {}) as Any;
  const worker = (spec.worker ?? {}) as Any;
  const source = (spec.modelSourceConfig ?? {}) as Any;
  const mount = (worker.modelVolumeMount ?? {}) as Any;
  const kube = (spec.kubernetes ?? {}) as Any;
  const plan: EndpointPlan = {
    ...common(o, spec),
    container: {
      image: String(worker.image ?? ''),
      ...(Array.isArray(worker.command) ? { command: worker.command } : {}),
      ...(Array.isArray(worker.args) ? { args: worker.args } : {}),
      env: list(worker.environmentVariables),
      resources: worker.resources ?? {},
      port: Number(worker.modelInvocationPort?.containerPort ?? 8080),
      portName: String(worker.modelInvocationPort?.name ?? 'http'),
      ...(worker.workingDir ? { workingDir: worker.workingDir } : {}),
      probes: worker.probes ?? {},
    },
    model: {
      volumeName: String(mount.name ?? 'model-weights'),
      mountPath: String(mount.mountPath ?? '/opt/ml/model'),
      source: source.modelSourceType,
      ...(source.s3Storage
        ? {
            s3: {
              bucket: String(source.s3Storage.bucketName),
              region: String(source.s3Storage.region),
              ...(source.modelLocation ? { prefix: String(source.modelLocation) } : {}),
            },
          }
        : {}),
      ...(source.fsxStorage ? { fsx: source.fsxStorage } : {}),
      ...(source.huggingFaceModel
        ? {
            huggingFace: {
              modelId: String(source.huggingFaceModel.modelId),
              ...(source.huggingFaceModel.commitSHA ? { revision: source.huggingFaceModel.commitSHA } : {}),
              ...(source.huggingFaceModel.tokenSecretRef
                ? { tokenSecretRef: source.huggingFaceModel.tokenSecretRef }
                : {}),
            },
          }
        : {}),
      ...(source.modelLocation ? { location: String(source.modelLocation) } : {}),
    },
    initContainers: list(kube.initContainers),
    extraVolumes: list(kube.volumes),
    ...(kube.serviceAccountName ? { serviceAccountName: kube.serviceAccountName } : {}),
    ...(spec.instanceType ? { instanceType: spec.instanceType } : {}),
    ...(Array.isArray(spec.instanceTypes) && spec.instanceTypes.length ? { instanceTypes: spec.instanceTypes } : {}),
    ...(spec.nodeAffinity ? { nodeAffinity: spec.nodeAffinity } : {}),
    ...(spec.endpointName ? { endpointName: spec.endpointName } : {}),
  };
  const missing =
    (plan.model.source === 's3' && !plan.model.s3 && 'modelSourceConfig.s3Storage') ||
    (plan.model.source === 'fsx' && !plan.model.fsx && 'modelSourceConfig.fsxStorage') ||
    (plan.model.source === 'huggingface' && !plan.model.huggingFace && 'modelSourceConfig.huggingFaceModel');
  if (missing)
    return {
      failure: {
        reason: 'InvalidModelSource',
        message: `modelSourceType ${plan.model.source} needs ${missing}`,
      },
    };
  return { plan };
}

export function planOfJumpStartModel(o: KubeObject, region: string): PlanResult {
  const spec = (o.spec ?? {}) as Any;
  const model = (spec.model ?? {}) as Any;
  const server = (spec.server ?? {}) as Any;
  const modelId = String(model.modelId ?? '');
  const hub = jumpStartModel(modelId, region);
  if (!hub)
    return {
      failure: {
        reason: 'ModelNotFound',
        message: `JumpStart model ${modelId} was not found in hub ${model.modelHubName ?? 'SageMakerPublicHub'} (the sandbox's hub lists a few models; see docs/SANDBOX.md)`,
      },
    };
  if (hub.gated && model.acceptEula !== true)
    return {
      failure: {
        reason: 'EulaNotAccepted',
        message: `JumpStart model ${modelId} is gated: its end-user license agreement (EULA) must be accepted (spec.model.acceptEula: true) before it is deployed`,
      },
    };
  const gpus = hub.env.SM_NUM_GPUS ?? '1';
  return {
    plan: {
      ...common(o, spec),
      container: {
        image: hub.image,
        env: [
          ...Object.entries(hub.env).map(([name, value]) => ({ name, value })),
          ...(hub.gated ? [{ name: 'ACCEPT_EULA', value: 'true' }] : []),
          ...list(spec.environmentVariables),
        ],
        resources: { limits: { 'nvidia.com/gpu': gpus }, requests: { 'nvidia.com/gpu': gpus } },
        port: hub.port,
        portName: 'http',
        probes: {},
      },
      model: { volumeName: 'model-weights', mountPath: '/opt/ml/model', source: 'jumpstart' },
      instanceType: String(server.instanceType ?? ''),
      ...(spec.sageMakerEndpoint?.name ? { endpointName: spec.sageMakerEndpoint.name } : {}),
    },
  };
}
