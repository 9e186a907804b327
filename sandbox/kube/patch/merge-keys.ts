import type { ResourceType } from '../types.js';

/**
 * How the built-in kinds merge, as the Kubernetes API types declare it: strategic merge patch
 * follows the `patchStrategy` / `patchMergeKey` struct tags, server-side apply and managedFields
 * follow the `+listType` / `+listMapKey` markers. The two mostly agree but not always (Job
 * conditions merge by type in a patch yet are atomic under apply; container and service ports are
 * merged by port in a patch but identified by port + protocol under apply).
 *
 * Every entry below was checked against kubernetes/api (core/v1, apps/v1, batch/v1) and
 * apimachinery's ObjectMeta. Anything not listed: objects merge field by field, lists are atomic.
 */
export interface Shape {
  /** Fields whose merging is special; the others use the defaults. */
  fields?: Record<string, Shape>;
  /** An object replaced as a whole (`+structType=atomic`, e.g. label selectors). */
  atomic?: true;
  /** `patchStrategy` includes retainKeys (clients may send `$retainKeys`; only the OpenAPI extensions use this). */
  retainKeys?: true;
  /** A list of primitives merged as a set (`patchStrategy:"merge"` on []string, `+listType=set`). */
  set?: true;
  /** A list of objects. */
  list?: {
    /** Strategic merge patch: items are matched by this field (`patchMergeKey`). */
    patchKey?: string;
    /** Server-side apply and managedFields: items are identified by these fields (`+listMapKey`); absent = atomic. */
    applyKeys?: string[];
    item?: Shape;
  };
}

export type Mode = 'patch' | 'apply';
export type ListStrategy = { kind: 'keyed'; keys: string[] } | { kind: 'set' } | { kind: 'atomic' };

/** Key fields the API server defaults (ports' protocol), so an item that omits one still matches. */
export const KEY_DEFAULTS: Record<string, unknown> = { protocol: 'TCP' };

export const listStrategy = (shape: Shape | undefined, mode: Mode): ListStrategy => {
  if (shape?.set) return { kind: 'set' };
  const keys = mode === 'patch' ? (shape?.list?.patchKey ? [shape.list.patchKey] : undefined) : shape?.list?.applyKeys;
  return keys ? { kind: 'keyed', keys } : { kind: 'atomic' };
};

export const childShape = (shape: Shape | undefined, field: string): Shape | undefined => shape?.fields?.[field];
export const itemShape = (shape: Shape | undefined): Shape | undefined => shape?.list?.item;

const byName = (item?: Shape): Shape => ({
  list: { patchKey: 'name', applyKeys: ['name'], ...(item ? { item } : {}) },
});
const byKey = (key: string): Shape => ({ list: { patchKey: key, applyKeys: [key] } });
const CONDITIONS: Shape = byKey('type');
const ATOMIC: Shape = { atomic: true };

const OBJECT_META: Shape = { fields: { ownerReferences: byKey('uid'), finalizers: { set: true } } };

const CONTAINER: Shape = {
  fields: {
    ports: { list: { patchKey: 'containerPort', applyKeys: ['containerPort', 'protocol'] } },
    env: byName(),
    volumeMounts: byKey('mountPath'),
    volumeDevices: byKey('devicePath'),
  },
};

const POD_SPEC: Shape = {
  fields: {
    containers: byName(CONTAINER),
    initContainers: byName(CONTAINER),
    ephemeralContainers: byName(CONTAINER),
    volumes: { ...byName(), retainKeys: true },
    imagePullSecrets: byName(),
    hostAliases: byKey('ip'),
    topologySpreadConstraints: { list: { patchKey: 'topologyKey', applyKeys: ['topologyKey', 'whenUnsatisfiable'] } },
    schedulingGates: byName(),
    resourceClaims: { ...byName(), retainKeys: true },
  },
};

const POD_TEMPLATE: Shape = { fields: { metadata: OBJECT_META, spec: POD_SPEC } };
const POD_STATUS: Shape = { fields: { conditions: CONDITIONS, podIPs: byKey('ip') } };
const STATUS_WITH_CONDITIONS: Shape = { fields: { conditions: CONDITIONS } };
const WORKLOAD_SPEC: Shape = { fields: { selector: ATOMIC, template: POD_TEMPLATE } };
const DEPLOYMENT_SPEC: Shape = { fields: { ...WORKLOAD_SPEC.fields, strategy: { retainKeys: true } } };
// Job conditions: patchMergeKey type, but +listType=atomic for apply.
const JOB_STATUS: Shape = { fields: { conditions: { list: { patchKey: 'type' } } } };
const SERVICE_SPEC: Shape = { fields: { ports: { list: { patchKey: 'port', applyKeys: ['port', 'protocol'] } } } };
const NODE_SPEC: Shape = { fields: { podCIDRs: { set: true } } };
const NODE_STATUS: Shape = { fields: { conditions: CONDITIONS, addresses: byKey('type') } };
const SERVICE_ACCOUNT: Shape = { fields: { secrets: byName() } };

const BY_KIND: Record<string, Record<string, Shape>> = {
  Pod: { spec: POD_SPEC, status: POD_STATUS },
  PodTemplate: { template: POD_TEMPLATE },
  ReplicationController: { spec: { fields: { template: POD_TEMPLATE } }, status: STATUS_WITH_CONDITIONS },
  Deployment: { spec: DEPLOYMENT_SPEC, status: STATUS_WITH_CONDITIONS },
  ReplicaSet: { spec: WORKLOAD_SPEC, status: STATUS_WITH_CONDITIONS },
  StatefulSet: { spec: WORKLOAD_SPEC, status: STATUS_WITH_CONDITIONS },
  DaemonSet: { spec: WORKLOAD_SPEC, status: STATUS_WITH_CONDITIONS },
  Job: { spec: WORKLOAD_SPEC, status: JOB_STATUS },
  Service: { spec: SERVICE_SPEC, status: STATUS_WITH_CONDITIONS },
  ServiceAccount: SERVICE_ACCOUNT.fields!,
  Node: { spec: NODE_SPEC, status: NODE_STATUS },
  Namespace: { status: STATUS_WITH_CONDITIONS },
  PersistentVolumeClaim: { status: STATUS_WITH_CONDITIONS },
};

/** The same structure by OpenAPI definition name, for the patch extensions the OpenAPI documents carry (see openapi-extensions.ts). */
export const SHAPES_BY_DEFINITION: Record<string, Shape> = {
  'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta': OBJECT_META,
  'io.k8s.api.core.v1.Container': CONTAINER,
  'io.k8s.api.core.v1.EphemeralContainer': CONTAINER,
  'io.k8s.api.core.v1.PodSpec': POD_SPEC,
  'io.k8s.api.core.v1.PodStatus': POD_STATUS,
  'io.k8s.api.core.v1.ReplicationControllerStatus': STATUS_WITH_CONDITIONS,
  'io.k8s.api.apps.v1.DeploymentSpec': DEPLOYMENT_SPEC,
  'io.k8s.api.apps.v1.DeploymentStatus': STATUS_WITH_CONDITIONS,
  'io.k8s.api.apps.v1.ReplicaSetStatus': STATUS_WITH_CONDITIONS,
  'io.k8s.api.apps.v1.StatefulSetStatus': STATUS_WITH_CONDITIONS,
  'io.k8s.api.apps.v1.DaemonSetStatus': STATUS_WITH_CONDITIONS,
  'io.k8s.api.batch.v1.JobStatus': JOB_STATUS,
  'io.k8s.api.core.v1.ServiceSpec': SERVICE_SPEC,
  'io.k8s.api.core.v1.ServiceStatus': STATUS_WITH_CONDITIONS,
  'io.k8s.api.core.v1.ServiceAccount': SERVICE_ACCOUNT,
  'io.k8s.api.core.v1.NodeSpec': NODE_SPEC,
  'io.k8s.api.core.v1.NodeStatus': NODE_STATUS,
  'io.k8s.api.core.v1.NamespaceStatus': STATUS_WITH_CONDITIONS,
  'io.k8s.api.core.v1.PersistentVolumeClaimStatus': STATUS_WITH_CONDITIONS,
};

/**
 * The merge structure of a resource. Custom resources get only the standard metadata: the sandbox
 * does not read `x-kubernetes-list-type` from CRD schemas, so their lists are atomic.
 */
export function shapeOf(type: Pick<ResourceType, 'kind' | 'crd'>): Shape {
  const kindFields = type.crd ? {} : (BY_KIND[type.kind] ?? {});
  return { fields: { ...kindFields, metadata: OBJECT_META } };
}

export type KeyedStrategy = Extract<ListStrategy, { kind: 'keyed' }>;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The identity of a keyed list's item (key fields sorted by name, defaults filled in); undefined when a key field is missing. */
export function itemKey(item: unknown, strategy: KeyedStrategy): Record<string, unknown> | undefined {
  if (!isObject(item)) return undefined;
  const key: Record<string, unknown> = {};
  for (const k of [...strategy.keys].sort()) {
    const v = item[k] ?? KEY_DEFAULTS[k];
    if (v === undefined || v === null) return undefined;
    key[k] = v;
  }
  return key;
}

/** A comparable string for an item's identity (or a primitive set member's value). */
export function identity(item: unknown, strategy: ListStrategy): string | undefined {
  if (strategy.kind !== 'keyed') return JSON.stringify(item);
  const key = itemKey(item, strategy);
  return key && JSON.stringify(key);
}
