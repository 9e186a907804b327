import type { KubePort } from '../../cloud/ports.js';
import { NotFoundError } from '../../domain/errors.js';
import {
  COMPONENT_LABEL,
  ENDPOINT_LABEL,
  MANAGED_BY_LABEL,
  MANAGED_BY_VALUE,
  POOL_LABEL,
  poolDeploymentName,
  ROUTER,
} from '../../domain/inference/names.js';
import { DEPLOYMENT, type KubeDeployment } from '../../domain/kube/deployment.js';
import { KubeKindNotServed } from '../../domain/kube/errors.js';
import { EVENT } from '../../domain/kube/event.js';
import {
  INFERENCE_ENDPOINT_CONFIG,
  type KubeInferenceEndpointConfig,
} from '../../domain/kube/inference-endpoint-config.js';
import { JUMPSTART_MODEL, type KubeJumpStartModel } from '../../domain/kube/jumpstart-model.js';
import type { KubeResource } from '../../domain/kube/kind.js';
import { POD, type KubePod } from '../../domain/kube/pod.js';
import { SCALED_OBJECT, type KubeScaledObject } from '../../domain/kube/scaled-object.js';
import { SERVICE, type KubeService } from '../../domain/kube/service.js';
import type { EndpointDetail, EndpointView } from '../../domain/schemas/inference.js';
import {
  containerEndpointView,
  managedEndpointView,
  type ContainerEndpointLive,
} from '../../domain/inference/endpoint-view.js';
import { ROLE } from '../../domain/kube/role.js';
import { ROLE_BINDING } from '../../domain/kube/role-binding.js';
import { SERVICE_ACCOUNT } from '../../domain/kube/service-account.js';

/**
 * The endpoints of a cluster read live from Kubernetes, never copied into our store: a managed endpoint is its
 * InferenceEndpointConfig or JumpStartModel (with what the operator made from it, found by owner reference); a
 * container endpoint is the objects labelled for it (`instantstart.io/endpoint: E`, managed by instantstart):
 * its Deployment and Service, the router's, its ScaledObject. A pool endpoint is its Service alone.
 */

/** The objects of one container endpoint, by what they are (the domain's view reads them). */
export type ContainerParts = ContainerEndpointLive;

/** Everything labelled for container endpoints, as read at once. */
interface LabelledObjects {
  deployments: KubeDeployment[];
  services: KubeService[];
  scaled: KubeScaledObject[];
  /** The router's ServiceAccount, Role and RoleBinding. */
  rbac: KubeResource[];
  /** Pool workers (for pool endpoints' replicas). */
  poolPods: KubePod[];
  /** Pool Deployments (what a pool endpoint serves: engine, model, instance type). */
  pools: KubeDeployment[];
}

/** What the operator made from a managed endpoint: the objects whose owner reference is the endpoint's object. */
export interface OperatorMade {
  deployments: KubeDeployment[];
  services: KubeService[];
  scaledObjects: KubeScaledObject[];
}

export type FoundEndpoint =
  | { kind: 'managed'; object: KubeInferenceEndpointConfig; made: OperatorMade }
  | { kind: 'jumpstart'; object: KubeJumpStartModel; made: OperatorMade }
  | { kind: 'container'; name: string; namespace: string; parts: ContainerParts };

/** Events shown with one endpoint: the recent story, never the namespace's whole history. */
const MAX_EVENTS = 50;

/** The selector of every object a deploy labelled for endpoints (or one endpoint). */
export const ourSelector = (endpoint?: string): string =>
  `${MANAGED_BY_LABEL}=${MANAGED_BY_VALUE},${ENDPOINT_LABEL}${endpoint ? `=${endpoint}` : ''}`;

/** A kind's objects, or [] when the cluster does not serve it (the operator or KEDA is not installed). */
async function served<T, N = T>(read: () => Promise<T>, none: N): Promise<T | N> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof KubeKindNotServed) return none;
    throw err;
  }
}

const keyOf = (o: KubeResource) => `${o.metadata.namespace ?? 'default'}/${o.metadata.labels[ENDPOINT_LABEL] ?? ''}`;

/** Container endpoints grouped from their labelled objects. */
function groupContainers(o: LabelledObjects): Map<string, { name: string; namespace: string; parts: ContainerParts }> {
  const out = new Map<string, { name: string; namespace: string; parts: ContainerParts }>();
  const entry = (obj: KubeResource) => {
    const key = keyOf(obj);
    let e = out.get(key);
    if (!e) {
      e = {
        name: obj.metadata.labels[ENDPOINT_LABEL] ?? '',
        namespace: obj.metadata.namespace ?? 'default',
        parts: {},
      };
      out.set(key, e);
    }
    return e.parts;
  };
  for (const d of o.deployments) {
    const parts = entry(d);
    if (d.metadata.labels[COMPONENT_LABEL] === ROUTER) parts.router = { ...parts.router, deployment: d };
    else parts.deployment = d;
  }
  for (const svc of o.services) {
    const parts = entry(svc);
    if (svc.metadata.labels[COMPONENT_LABEL] === ROUTER) parts.router = { ...parts.router, service: svc };
    else parts.service = svc;
  }
  for (const so of o.scaled) entry(so).scaledObject = so;
  for (const r of o.rbac) {
    const parts = entry(r);
    const role = r.kind === 'ServiceAccount' ? 'serviceAccount' : r.kind === 'Role' ? 'role' : 'roleBinding';
    parts.router = { ...parts.router, [role]: r };
  }
  for (const e of out.values()) {
    const pool = e.parts.service?.metadata.labels[POOL_LABEL];
    if (!pool) continue;
    const inPool = (x: KubeResource) =>
      x.metadata.labels[POOL_LABEL] === pool && (x.metadata.namespace ?? 'default') === e.namespace;
    e.parts.poolPods = o.poolPods.filter(inPool);
    const poolDeployment = o.pools.find((d) => inPool(d) && d.metadata.name === poolDeploymentName(pool));
    if (poolDeployment) e.parts.poolDeployment = poolDeployment;
  }
  // An entry of RBAC or a ScaledObject alone (its Deployment and Service gone) is no endpoint to show.
  for (const [key, e] of out) if (!e.parts.deployment && !e.parts.service) out.delete(key);
  return out;
}

/** Every object labelled for container endpoints (or for one), with the pool workers. */
async function readLabelled(
  kube: KubePort,
  namespace: string | undefined,
  endpoint?: string,
): Promise<LabelledObjects> {
  const ns = namespace ? { namespace } : {};
  const ours = { ...ns, labelSelector: ourSelector(endpoint) };
  const [deployments, services, scaled, accounts, roles, bindings, poolPods, pools] = await Promise.all([
    kube.list(DEPLOYMENT, ours),
    kube.list(SERVICE, ours),
    served(() => kube.list(SCALED_OBJECT, ours), []),
    kube.list(SERVICE_ACCOUNT, ours),
    kube.list(ROLE, ours),
    kube.list(ROLE_BINDING, ours),
    kube.list(POD, { ...ns, labelSelector: POOL_LABEL }),
    kube.list(DEPLOYMENT, { ...ns, labelSelector: `${MANAGED_BY_LABEL}=${MANAGED_BY_VALUE},${POOL_LABEL}` }),
  ]);
  return { deployments, services, scaled, rbac: [...accounts, ...roles, ...bindings], poolPods, pools };
}

/** The operator's objects in these namespaces (all when undefined), for {@link madeBy}. */
async function readOperatorObjects(kube: KubePort, namespace?: string): Promise<OperatorMade> {
  const ns = namespace ? { namespace } : {};
  const [deployments, services, scaledObjects] = await Promise.all([
    kube.list(DEPLOYMENT, ns),
    kube.list(SERVICE, ns),
    served(() => kube.list(SCALED_OBJECT, ns), []),
  ]);
  return { deployments, services, scaledObjects };
}

/** What the operator made from `obj`: found by owner reference (uid), never by guessing a name. */
function madeBy(obj: KubeResource, all: OperatorMade): OperatorMade {
  const owned = <T extends KubeResource>(list: T[]) =>
    list.filter((o) =>
      o.metadata.ownerReferences.some((r) =>
        obj.metadata.uid && r.uid ? r.uid === obj.metadata.uid : r.kind === obj.kind && r.name === obj.metadata.name,
      ),
    );
  return {
    deployments: owned(all.deployments),
    services: owned(all.services),
    scaledObjects: owned(all.scaledObjects),
  };
}

/** Every endpoint (both kinds) of the cluster, or of one namespace, and whether the operator's kinds are served. */
export async function listEndpoints(
  kube: KubePort,
  namespace?: string,
): Promise<{ endpoints: EndpointView[]; inferenceOperator: boolean }> {
  const ns = namespace ? { namespace } : {};
  const [iecs, jsms, labelled] = await Promise.all([
    served(() => kube.list(INFERENCE_ENDPOINT_CONFIG, ns), 'notServed' as const),
    served(() => kube.list(JUMPSTART_MODEL, ns), []),
    readLabelled(kube, namespace),
  ]);
  const managed = [...(iecs === 'notServed' ? [] : iecs), ...jsms];
  // The operator's objects are read only when there is a managed endpoint to read them for.
  const operator = managed.length ? await readOperatorObjects(kube, namespace) : undefined;
  const endpoints: EndpointView[] = [
    ...managed.map((o) => managedEndpointView(o, operator ? madeBy(o, operator) : emptyMade())),
    ...[...groupContainers(labelled).values()].map((e) => containerEndpointView(e.parts)),
  ];
  endpoints.sort((a, b) => a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name));
  return { endpoints, inferenceOperator: iecs !== 'notServed' };
}

/** The endpoint of that name in the namespace, of any kind; undefined when there is none. */
export async function findEndpoint(
  kube: KubePort,
  namespace: string,
  name: string,
): Promise<FoundEndpoint | undefined> {
  const [iec, jsm, labelled] = await Promise.all([
    served(() => kube.find(INFERENCE_ENDPOINT_CONFIG, name, namespace), undefined),
    served(() => kube.find(JUMPSTART_MODEL, name, namespace), undefined),
    readLabelled(kube, namespace, name),
  ]);
  if (iec) return { kind: 'managed', object: iec, made: madeBy(iec, await readOperatorObjects(kube, namespace)) };
  if (jsm) return { kind: 'jumpstart', object: jsm, made: madeBy(jsm, await readOperatorObjects(kube, namespace)) };
  const container = groupContainers(labelled).get(`${namespace}/${name}`);
  return container ? { kind: 'container', ...container } : undefined;
}

export const endpointNotFound = (cluster: string, namespace: string, name: string): NotFoundError =>
  new NotFoundError({
    resource: 'Endpoint',
    id: `${namespace}/${name}`,
    message: `Cluster ${cluster} has no inference endpoint ${namespace}/${name} (list_endpoints shows its endpoints).`,
  });

export async function requireEndpoint(
  kube: KubePort,
  cluster: string,
  namespace: string,
  name: string,
): Promise<FoundEndpoint> {
  const found = await findEndpoint(kube, namespace, name);
  if (!found) throw endpointNotFound(cluster, namespace, name);
  return found;
}

const emptyMade = (): OperatorMade => ({ deployments: [], services: [], scaledObjects: [] });

export const viewOf = (found: FoundEndpoint): EndpointView =>
  found.kind === 'container' ? containerEndpointView(found.parts) : managedEndpointView(found.object, found.made);

/** `k=v,k=v` of a label map. */
const selectorText = (labels: Record<string, string>) =>
  Object.entries(labels)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');

const matchLabels = (d: KubeDeployment): Record<string, string> => {
  const sel = (d.spec.selector as { matchLabels?: Record<string, string> } | undefined)?.matchLabels;
  return sel && typeof sel === 'object' ? sel : {};
};

/**
 * The Deployments that serve the endpoint: ours (the model server and the router), or for a managed endpoint the
 * operator's, found by their owner reference to the InferenceEndpointConfig / JumpStartModel.
 */
export function servingDeployments(found: FoundEndpoint): KubeDeployment[] {
  if (found.kind !== 'container') return found.made.deployments;
  return [found.parts.deployment, found.parts.router?.deployment].filter((d): d is KubeDeployment => Boolean(d));
}

export const endpointNamespace = (found: FoundEndpoint): string =>
  found.kind === 'container' ? found.namespace : (found.object.metadata.namespace ?? 'default');

/** The label selectors of the endpoint's pods: its Deployments', or a pool endpoint's Service's (its workers). */
export function endpointPodSelectors(found: FoundEndpoint): string[] {
  const selectors = servingDeployments(found).map(matchLabels);
  if (found.kind === 'container' && !found.parts.deployment && found.parts.service) {
    const sel = (found.parts.service.spec.selector ?? {}) as Record<string, string>;
    selectors.push(sel);
  }
  return selectors.filter((s) => Object.keys(s).length > 0).map(selectorText);
}

/** The pods of the endpoint: its Deployments' pods, or a pool endpoint's workers (its Service's selector). */
export async function endpointPods(kube: KubePort, found: FoundEndpoint): Promise<KubePod[]> {
  const namespace = endpointNamespace(found);
  const lists = await Promise.all(
    endpointPodSelectors(found).map((labelSelector) => kube.list(POD, { namespace, labelSelector })),
  );
  const byName = new Map(lists.flat().map((p) => [p.metadata.name, p]));
  return [...byName.values()].sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
}

const podView = (p: KubePod) => {
  const waiting = p.status.containerStatuses.find((c) => c.current.state !== 'running' && c.current.reason);
  const unscheduled = p.status.conditions.find((c) => c.type === 'PodScheduled' && c.status === 'False');
  const reason = waiting?.current.reason ?? unscheduled?.reason ?? p.status.reason;
  return {
    name: p.metadata.name,
    ...(p.spec.nodeName ? { node: p.spec.nodeName } : {}),
    phase: p.status.phase,
    ready: p.status.conditions.some((c) => c.type === 'Ready' && c.status === 'True'),
    restarts: p.status.containerStatuses.reduce((n, c) => n + c.restartCount, 0),
    ...(reason ? { reason } : {}),
  };
};

/** The endpoint with its pods and the recent events of its objects and pods, newest first. */
export async function endpointDetail(kube: KubePort, found: FoundEndpoint): Promise<EndpointDetail> {
  const view = viewOf(found);
  const deployments = servingDeployments(found);
  const [pods, events] = await Promise.all([
    endpointPods(kube, found),
    kube.list(EVENT, { namespace: view.namespace }),
  ]);
  const names = new Set([
    view.name,
    ...view.objects.map((o) => o.name),
    ...deployments.map((d) => d.metadata.name),
    ...pods.map((p) => p.metadata.name),
  ]);
  const mine = events
    .filter((e) => e.involvedObject.name !== undefined && names.has(e.involvedObject.name))
    .sort((a, b) => (b.lastSeen ?? '').localeCompare(a.lastSeen ?? ''))
    .slice(0, MAX_EVENTS)
    .map((e) => ({
      type: e.type,
      reason: e.reason ?? '',
      message: e.message ?? '',
      object: `${e.involvedObject.kind ?? 'Object'}/${e.involvedObject.name ?? ''}`,
      ...(e.lastSeen ? { lastSeen: e.lastSeen } : {}),
      ...(e.count !== undefined ? { count: e.count } : {}),
    }));
  // `objects` stays what delete removes; the operator's Deployments show through their pods and events.
  return { ...view, pods: pods.map(podView), events: mine };
}
