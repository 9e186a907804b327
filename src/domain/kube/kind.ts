/**
 * What every Kubernetes kind module in this folder shares: the kind descriptor the client is generic
 * over (where the kind is served, whether it is namespaced, which CRD serves it), the object
 * metadata every kind has, and the tolerant readers their parsers use. A parser never throws on a
 * shape it does not expect: a field of the wrong type reads as absent, unknown fields are kept, so
 * a newer API server (or a hand-edited object) degrades a view instead of failing a request.
 */

export type Loose = Record<string, unknown>;

export type OwnerReference = { apiVersion: string; kind: string; name: string; uid?: string; controller?: boolean };

export type ObjectMeta = {
  name: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  /** RFC 3339, as the API sends it. */
  creationTimestamp?: string;
  deletionTimestamp?: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  ownerReferences: OwnerReference[];
  /** What must finish before the API server removes the object (a load balancer controller's cleanup); only when set. */
  finalizers?: string[];
};

/** A Kubernetes object read back from a cluster: typed metadata, the rest as the kind module types it. */
export type KubeResource = { apiVersion: string; kind: string; metadata: ObjectMeta; [key: string]: unknown };

/**
 * A kind, as the client needs it to build paths without discovery, and as a parser of what comes back.
 *
 * @example
 * const NODE = kubeKind({ apiVersion: 'v1', kind: 'Node', plural: 'nodes', namespaced: false }, parseNode);
 * const nodes = await kube.list(NODE); // KubeNode[]
 */
export interface KubeKind<T extends KubeResource = KubeResource> {
  readonly apiVersion: string;
  readonly kind: string;
  /** The resource name in URLs (`nodes`, `hyperpodnodeclasses`). */
  readonly plural: string;
  readonly namespaced: boolean;
  /** The CustomResourceDefinition serving the kind (`<plural>.<group>`); absent for built-in kinds. */
  readonly crd?: string;
  /** What installs the kind's CRD, for the remedy of a cluster that does not serve it. */
  readonly installedBy?: string;
  parse(raw: unknown): T;
  /** The object's health view (kinds without one are healthy once they exist). */
  health?(obj: T): KubeHealth;
}

export function kubeKind<T extends KubeResource>(
  descriptor: Omit<KubeKind<T>, 'parse'>,
  parse: (raw: unknown) => T,
): KubeKind<T> {
  return { ...descriptor, parse };
}

/** The API group of an apiVersion ('' for the core group). */
export const groupOf = (apiVersion: string): string =>
  apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';

/** `nodepools.karpenter.sh`: the name of the CRD that serves a custom kind. */
export const crdNameOf = (plural: string, apiVersion: string): string => `${plural}.${groupOf(apiVersion)}`;

/** `Node`, `NodePool.karpenter.sh`: how errors and logs name a kind. */
export const qualifiedKind = (k: { apiVersion: string; kind: string }): string =>
  groupOf(k.apiVersion) ? `${k.kind}.${groupOf(k.apiVersion)}` : k.kind;

// ── tolerant readers ─────────────────────────────────────────────────────────────────────────────
export const rec = (v: unknown): Loose =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Loose) : {};
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
export const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
export const bool = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : undefined);
export const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
/** A timestamp as RFC 3339 text (client libraries may hand over Date objects). */
export const time = (v: unknown): string | undefined =>
  v instanceof Date ? v.toISOString() : typeof v === 'string' && v ? v : undefined;

/** A string map, dropping entries whose value is not a string (labels, annotations, selectors). */
export function strings(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, value] of Object.entries(rec(v))) if (typeof value === 'string') out[k] = value;
  return out;
}

export function parseMeta(v: unknown): ObjectMeta {
  const m = rec(v);
  return {
    name: str(m.name) ?? '',
    ...(str(m.namespace) !== undefined ? { namespace: str(m.namespace) } : {}),
    ...(str(m.uid) !== undefined ? { uid: str(m.uid) } : {}),
    ...(str(m.resourceVersion) !== undefined ? { resourceVersion: str(m.resourceVersion) } : {}),
    ...(num(m.generation) !== undefined ? { generation: num(m.generation) } : {}),
    ...(time(m.creationTimestamp) !== undefined ? { creationTimestamp: time(m.creationTimestamp) } : {}),
    ...(time(m.deletionTimestamp) !== undefined ? { deletionTimestamp: time(m.deletionTimestamp) } : {}),
    labels: strings(m.labels),
    annotations: strings(m.annotations),
    ownerReferences: list(m.ownerReferences)
      .map(rec)
      .filter((o) => typeof o.kind === 'string' && typeof o.name === 'string')
      .map((o) => ({
        apiVersion: str(o.apiVersion) ?? '',
        kind: o.kind as string,
        name: o.name as string,
        ...(str(o.uid) ? { uid: str(o.uid) } : {}),
        ...(bool(o.controller) ? { controller: true } : {}),
      })),
    ...(finalizersOf(m.finalizers).length ? { finalizers: finalizersOf(m.finalizers) } : {}),
  };
}

const finalizersOf = (v: unknown): string[] => list(v).filter((f): f is string => typeof f === 'string');

/** The common part of every parser: apiVersion/kind (defaulted from the descriptor: lists leave them out) and metadata, unknown fields kept. */
export function parseBase(raw: unknown, kind: { apiVersion: string; kind: string }): KubeResource {
  const r = rec(raw);
  return {
    ...r,
    apiVersion: str(r.apiVersion) ?? kind.apiVersion,
    kind: str(r.kind) ?? kind.kind,
    metadata: parseMeta(r.metadata),
  };
}

// ── conditions ───────────────────────────────────────────────────────────────────────────────────
export type Condition = {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
  observedGeneration?: number;
};

export function parseConditions(v: unknown): Condition[] {
  return list(v)
    .map(rec)
    .filter((c) => typeof c.type === 'string')
    .map((c) => ({
      type: c.type as string,
      status: c.status === 'True' || c.status === 'False' ? c.status : 'Unknown',
      ...(str(c.reason) ? { reason: str(c.reason) } : {}),
      ...(str(c.message) ? { message: str(c.message) } : {}),
      ...(time(c.lastTransitionTime) ? { lastTransitionTime: time(c.lastTransitionTime) } : {}),
      ...(num(c.observedGeneration) !== undefined ? { observedGeneration: num(c.observedGeneration) } : {}),
    }));
}

export const conditionOf = (conditions: readonly Condition[], type: string): Condition | undefined =>
  conditions.find((c) => c.type === type);

/** The label every object InstantStart creates carries, so people (and kubectl) can tell ours from theirs. */
export const MANAGED_BY = { 'app.kubernetes.io/managed-by': 'instantstart' } as const;

/**
 * The annotation that keeps the request an object was made from (JSON, no secrets): what a resubmit, a re-deploy
 * or a pool's view reads back. One key for every kind InstantStart makes.
 */
export const REQUEST_ANNOTATION = 'instantstart.dev/request';

// ── health ───────────────────────────────────────────────────────────────────────────────────────
/**
 * Every kind's `health()` answers in the vocabulary of node-health.ts: healthy (doing its job),
 * transitional (getting there on its own), degraded (works, needs a look), failed (will not get
 * there without someone acting). `code` is stable for code to branch on; `reason` is for people.
 */
export type KubeHealthState = 'healthy' | 'transitional' | 'degraded' | 'failed';
export type KubeHealth = { state: KubeHealthState; code: string; reason: string };

export const health = (state: KubeHealthState, code: string, reason: string): KubeHealth => ({ state, code, reason });

/** The health of an object whose `Ready` condition is its verdict (Karpenter's objects, most operators' CRs). */
export function readyConditionHealth(
  what: string,
  conditions: readonly Condition[],
  failing: readonly string[] = [],
): KubeHealth {
  const ready = conditionOf(conditions, 'Ready');
  if (!ready) return health('transitional', 'pending', `${what} has not been reported on yet.`);
  if (ready.status === 'True') return health('healthy', 'ready', `${what} is Ready.`);
  const why = ready.message || ready.reason || 'no reason given';
  if (ready.reason && failing.includes(ready.reason))
    return health('failed', ready.reason, `${what} is not Ready: ${why}`);
  return health('transitional', ready.reason ?? 'not-ready', `${what} is not Ready yet: ${why}`);
}
