import { deploymentContainers, deploymentHealth, type KubeDeployment } from '../kube/deployment.js';
import type { KubeInferenceEndpointConfig } from '../kube/inference-endpoint-config.js';
import { operatorFailure, routingOf } from '../kube/inference-operator.js';
import type { KubeJumpStartModel } from '../kube/jumpstart-model.js';
import { conditionOf, type KubeResource } from '../kube/kind.js';
import type { KubePod } from '../kube/pod.js';
import { scaledObjectStatus, type KubeScaledObject } from '../kube/scaled-object.js';
import { loadBalancerAddress, type KubeService } from '../kube/service.js';
import { SERVING_ENGINES, type ServingEngine } from '../schemas/inference/fields.js';
import type { EndpointView } from '../schemas/inference/views.js';
import {
  ENGINE_LABEL,
  inClusterUrl,
  INSTANCE_TYPE_ANNOTATION,
  MODEL_LABEL,
  POOL_LABEL,
  SERVED_MODEL_ANNOTATION,
  SERVICE_PORT,
} from './names.js';

/**
 * An endpoint as the faces show it, read from live objects: a managed endpoint from its
 * InferenceEndpointConfig / JumpStartModel (the operator's `status.state`) and what the operator made;
 * a container endpoint from our Deployment, Service, router and ScaledObject. State vocabulary:
 * Pending, Deploying, Ready, Degraded, Failed, Deleting (src/domain/schemas/inference/views.ts).
 */

type State = EndpointView['state'];

/** Invocations go to `invocationEndpoint`; the CRD's default is `invocations`. */
const DEFAULT_INVOCATION_PATH = 'invocations';

export function managedEndpointView(
  obj: KubeInferenceEndpointConfig | KubeJumpStartModel,
  made: { deployments: KubeDeployment[]; services: KubeService[]; scaledObjects?: KubeScaledObject[] },
): EndpointView {
  const s = obj.status;
  const desired = obj.spec.replicas ?? 1;
  const servers = made.deployments.filter((d) => isModelServer(obj, d));
  const ready = servers.length ? servers.reduce((n, d) => n + d.status.ready, 0) : (s.deployment?.readyReplicas ?? 0);
  const failure = operatorFailure(s);
  const state = managedState(obj, ready, desired);
  const svc = made.services[0];
  const lb = made.services.map(loadBalancerAddress).find(Boolean);
  const scaling = obj.spec.autoScalingSpec;
  const routing = routingOf(obj.spec);
  const jumpstart = obj.kind === 'JumpStartModel';
  return {
    name: obj.metadata.name,
    namespace: obj.metadata.namespace ?? '',
    kind: jumpstart ? 'jumpstart' : 'managed',
    model: jumpstart ? obj.spec.model.modelId : managedModel(obj),
    state,
    ...(s.state ? { operatorState: s.state } : {}),
    ...((state === 'Failed' || state === 'Degraded') && failure ? { reason: failure } : {}),
    replicas: { ready, desired },
    instanceTypes: jumpstart
      ? [obj.spec.server.instanceType].filter(Boolean)
      : obj.spec.instanceType
        ? [obj.spec.instanceType]
        : (obj.spec.instanceTypes ?? []),
    ...(routing ? { routing } : {}),
    ...(scaling
      ? {
          autoscaling: {
            min: scaling.minReplicaCount ?? 1,
            max: scaling.maxReplicaCount ?? 5,
            // The operator names its ScaledObject; empty until it has made one.
            scaledObject: made.scaledObjects?.[0]?.metadata.name ?? '',
            ...activeOf(made.scaledObjects?.[0]),
          },
        }
      : {}),
    urls: {
      ...(svc
        ? { inCluster: inClusterUrl(svc.metadata.name, svc.metadata.namespace ?? '', svc.spec.ports[0]?.port) }
        : {}),
      ...(lb ? { loadBalancer: lb } : {}),
    },
    invocationPath: jumpstart ? DEFAULT_INVOCATION_PATH : (obj.spec.invocationEndpoint ?? DEFAULT_INVOCATION_PATH),
    // Deleting the one object we made lets the operator remove what it made from it.
    objects: [{ kind: obj.kind, name: obj.metadata.name }],
    ...(obj.metadata.creationTimestamp ? { createdAt: obj.metadata.creationTimestamp } : {}),
  };
}

/**
 * Whether a Deployment the operator made is the endpoint's model server, whose replicas are the endpoint's: the one
 * named after the endpoint (upstream: the HyperPod CLI walkthrough's HPA scales `Deployment/<name>`, its pods carry
 * `app: <name>`). The router it adds for intelligent routing (`<name>-router` in the sandbox, assumed) is not a
 * replica of the model.
 */
const isModelServer = (obj: KubeResource, d: KubeDeployment) => d.metadata.name === obj.metadata.name;

function managedState(obj: KubeInferenceEndpointConfig | KubeJumpStartModel, ready: number, desired: number): State {
  if (obj.metadata.deletionTimestamp) return 'Deleting';
  switch (obj.status.state) {
    case 'DeploymentComplete':
      return ready >= desired ? 'Ready' : ready > 0 ? 'Degraded' : 'Deploying';
    case 'DeploymentFailed':
    case 'DeletionFailed':
      return 'Failed';
    case 'DeploymentInProgress':
      return 'Deploying';
    case 'DeletionPending':
    case 'DeletionInProgress':
    case 'DeletionComplete':
      return 'Deleting';
    default:
      return 'Pending';
  }
}

function managedModel(obj: KubeInferenceEndpointConfig): string {
  const src = obj.spec.modelSourceConfig;
  if (src.huggingFaceModel?.modelId) return src.huggingFaceModel.modelId;
  const where = src.s3Storage
    ? `s3://${src.s3Storage.bucketName}`
    : src.fsxStorage
      ? `fsx://${src.fsxStorage.fileSystemId}`
      : src.modelSourceType;
  return src.modelLocation ? `${where}/${src.modelLocation.replace(/^\/+/, '')}` : where;
}

const activeOf = (so: KubeScaledObject | undefined): { active?: boolean } => {
  const active = so ? scaledObjectStatus(so).active : undefined;
  return active === undefined ? {} : { active };
};

export type ContainerEndpointLive = {
  deployment?: KubeDeployment;
  service?: KubeService;
  router?: {
    deployment?: KubeDeployment;
    service?: KubeService;
    serviceAccount?: KubeResource;
    role?: KubeResource;
    roleBinding?: KubeResource;
  };
  scaledObject?: KubeScaledObject;
  /** Pool endpoints: the pool's worker pods (the view counts those labelled for this endpoint). */
  poolPods?: KubePod[];
  /** Pool endpoints: the pool's Deployment (`pool-P`), which says what its workers serve (engine, model, type). */
  poolDeployment?: KubeDeployment;
};

export function containerEndpointView(objs: ContainerEndpointLive): EndpointView {
  const { deployment: d, service: svc, router, scaledObject: so } = objs;
  const any = d ?? svc;
  const name = any?.metadata.name ?? '';
  const namespace = any?.metadata.namespace ?? '';
  const pool = svc?.metadata.labels[POOL_LABEL];
  // What serves: the endpoint's own Deployment, or for a pool endpoint the pool's (its Service carries neither).
  const server = d ?? (pool ? objs.poolDeployment : undefined);
  const engineLabel = (server ?? svc)?.metadata.labels[ENGINE_LABEL];
  const engine = (SERVING_ENGINES as readonly string[]).includes(engineLabel ?? '')
    ? (engineLabel as ServingEngine)
    : undefined;
  const workers = pool ? (objs.poolPods ?? []).filter((p) => p.metadata.labels[MODEL_LABEL] === name) : [];
  const replicas = pool
    ? { ready: workers.filter(podReady).length, desired: workers.length }
    : { ready: d?.status.ready ?? 0, desired: d?.spec.replicas ?? 0 };
  const { state, reason } = containerState(objs, replicas, !!pool);
  const lb = svc ? loadBalancerAddress(svc) : undefined;
  const objects = [
    ...(d ? [{ kind: 'Deployment', name: d.metadata.name }] : []),
    ...(svc ? [{ kind: 'Service', name: svc.metadata.name }] : []),
    ...[router?.deployment, router?.service, router?.serviceAccount, router?.role, router?.roleBinding]
      .filter((o): o is KubeResource => !!o)
      .map((o) => ({ kind: o.kind, name: o.metadata.name })),
    ...(so ? [{ kind: 'ScaledObject', name: so.metadata.name }] : []),
  ];
  const instanceType = server?.metadata.annotations[INSTANCE_TYPE_ANNOTATION];
  return {
    name,
    namespace,
    kind: 'container',
    ...(engine ? { engine } : {}),
    model: server?.metadata.annotations[SERVED_MODEL_ANNOTATION] ?? '',
    state,
    ...(reason ? { reason } : {}),
    replicas,
    instanceTypes: instanceType ? [instanceType] : [],
    variant: pool ? 'pool' : svc?.spec.type === 'LoadBalancer' ? 'external' : 'internal',
    ...(pool ? { pool } : {}),
    ...(router?.deployment
      ? {
          router: {
            policy: argAfter(router.deployment, '--policy') ?? 'cache_aware',
            ready: router.deployment.status.ready > 0,
            service: router.service?.metadata.name ?? router.deployment.metadata.name,
          },
        }
      : {}),
    ...(so
      ? {
          autoscaling: {
            min: so.spec.minReplicaCount ?? 1,
            max: so.spec.maxReplicaCount ?? 100,
            scaledObject: so.metadata.name,
            ...activeOf(so),
          },
        }
      : {}),
    urls: {
      ...(svc
        ? { inCluster: inClusterUrl(svc.metadata.name, namespace, svc.spec.ports[0]?.port ?? SERVICE_PORT) }
        : {}),
      ...(lb ? { loadBalancer: lb } : {}),
    },
    invocationPath: 'v1/chat/completions',
    objects,
    ...(any?.metadata.creationTimestamp ? { createdAt: any.metadata.creationTimestamp } : {}),
  };
}

function containerState(
  objs: ContainerEndpointLive,
  replicas: { ready: number; desired: number },
  pool: boolean,
): { state: State; reason?: string } {
  const d = objs.deployment;
  if (d?.metadata.deletionTimestamp || objs.service?.metadata.deletionTimestamp) return { state: 'Deleting' };
  if (!pool && d) {
    const h = deploymentHealth(d);
    if (h.state === 'failed') return { state: 'Failed', reason: h.reason };
  }
  const so = objs.scaledObject ? scaledObjectStatus(objs.scaledObject) : undefined;
  const router = objs.router?.deployment;
  if (replicas.desired === 0)
    return { state: 'Pending', reason: pool ? 'no worker of the pool is assigned to it' : 'no replicas wanted' };
  if (replicas.ready === 0) return { state: d?.status.replicas || pool ? 'Deploying' : 'Pending' };
  if (replicas.ready < replicas.desired)
    return { state: 'Degraded', reason: `${replicas.ready} of ${replicas.desired} replicas ready` };
  if (router && router.status.ready === 0) return { state: 'Degraded', reason: 'the SGLang router is not ready' };
  if (so?.ready === false)
    return { state: 'Degraded', reason: `autoscaling cannot scale: ${so.reason ?? 'KEDA refused it'}` };
  return { state: 'Ready' };
}

const podReady = (p: KubePod): boolean => conditionOf(p.status.conditions, 'Ready')?.status === 'True';

function argAfter(d: KubeDeployment, flag: string): string | undefined {
  const args = deploymentContainers(d)[0]?.args;
  if (!Array.isArray(args)) return undefined;
  const i = args.indexOf(flag);
  return i >= 0 && typeof args[i + 1] === 'string' ? (args[i + 1] as string) : undefined;
}
