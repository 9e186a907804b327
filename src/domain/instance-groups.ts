import { type FieldProblem, InputError, PreconditionError } from './errors.js';

/**
 * Instance groups: which fields live as long as the group, and the diff contract (SPEC "Diff
 * contract"): a change request carries only what the user changed, the backend compares it with
 * the group as HyperPod describes it, refuses fixed fields by name and does nothing when nothing
 * really differs. The node-action batch limits of the Batch* APIs live here too.
 */

export type CapacityType = 'on-demand' | 'spot' | 'training-plan';
export type NetworkInterfaceMode = 'efa' | 'efa-only';
export type TaintEffect = 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';

export interface Taint {
  key: string;
  value?: string;
  effect: TaintEffect;
}

/** HyperPod's LifeCycleConfig: the S3 folder of the scripts and the one run on creation. */
export interface LifecycleConfig {
  sourceS3Uri: string;
  onCreate: string;
  onInitComplete?: string;
}

/** ScheduledUpdateConfig: when HyperPod may roll AMI updates over the group. */
export interface ScheduledUpdateSettings {
  scheduleExpression: string;
  waitIntervalSeconds?: number;
  maxBatch?: { type: 'INSTANCE_COUNT' | 'CAPACITY_PERCENTAGE'; value: number };
}

/** AutoPatchConfig: patch when a node (or the whole group) is idle. */
export interface AutoPatchSettings {
  patchingStrategy: 'WhenIdle' | 'WhenAllIdle';
  nextPatchDate?: string;
}

/** A group in our terms, as observed from HyperPod (DescribeCluster) or as a user asks for it. */
export interface InstanceGroupSpec {
  name: string;
  instanceType: string;
  capacityType: CapacityType;
  trainingPlanArn?: string;
  networkInterface?: NetworkInterfaceMode;
  availabilityZone?: string;
  threadsPerCore?: 1 | 2;
  executionRole?: string;
  overrideVpcConfig?: { subnetIds: string[]; securityGroupIds: string[] };
  instanceCount: number;
  minInstanceCount?: number;
  labels?: Record<string, string>;
  taints?: Taint[];
  /** true = both on-start checks (InstanceStress and InstanceConnectivity). */
  deepHealthChecks?: boolean;
  lifecycleConfig?: LifecycleConfig;
  /** null removes the schedule. */
  scheduledUpdate?: ScheduledUpdateSettings | null;
  /** null turns automatic patching off. */
  autoPatch?: AutoPatchSettings | null;
}

/**
 * Fields fixed for a group's lifetime, and why — the message a refused change carries. HyperPod's
 * own list (CFN createOnlyProperties: name, instance type, execution role, threads per core, VPC
 * override; CapacityRequirements per the docs, hyperpod-apis.md §1.1), plus what we derive from
 * them: the training plan (capacity), EFA mode (chosen with placement) and the zone (the override's subnet).
 */
export const IMMUTABLE_GROUP_FIELDS = {
  name: 'the group name identifies it for its lifetime; add a new group instead',
  instanceType: "HyperPod cannot change a group's instance type; add a group with the new type and scale this one down",
  capacityType: 'the capacity type (on-demand, spot, training plan) is fixed when the group is created',
  trainingPlanArn: 'the training plan is part of the capacity type, fixed when the group is created',
  networkInterface: 'the EFA / EFA-only network interface mode is fixed when the group is created',
  availabilityZone: "the group's subnet placement (its zone) is fixed when the group is created",
  threadsPerCore: 'threads per core are fixed when the group is created',
  executionRole: 'the execution role is fixed when the group is created',
  overrideVpcConfig: 'the VPC override is fixed when the group is created',
} as const satisfies Record<string, string>;
export type ImmutableGroupField = keyof typeof IMMUTABLE_GROUP_FIELDS;

/** What UpdateCluster may change on a live group. */
export const MUTABLE_GROUP_FIELDS = [
  'instanceCount',
  'minInstanceCount',
  'labels',
  'taints',
  'deepHealthChecks',
  'lifecycleConfig',
  'scheduledUpdate',
  'autoPatch',
] as const;
export type MutableGroupField = (typeof MUTABLE_GROUP_FIELDS)[number];

export type InstanceGroupChanges = Partial<Pick<InstanceGroupSpec, MutableGroupField>>;

export interface InstanceGroupDiff {
  /** Only the mutable fields whose requested value really differs, as requested. */
  changes: InstanceGroupChanges;
  /** Fixed (or unknown) fields the request would change, each with why. */
  refused: FieldProblem[];
  /** Nothing to do: no change and nothing refused. */
  noop: boolean;
}

export const isImmutableGroupField = (field: string): field is ImmutableGroupField =>
  Object.hasOwn(IMMUTABLE_GROUP_FIELDS, field);
const isMutable = (field: string): field is MutableGroupField =>
  (MUTABLE_GROUP_FIELDS as readonly string[]).includes(field);

/**
 * A value in a form where equal meaning gives equal text: absent labels are no labels, taint and
 * subnet order does not matter, an empty taint value is no value, null is absent.
 */
function canonical(field: string, value: unknown): string {
  let v = value ?? undefined;
  if (field === 'labels') v = value ?? {};
  if (field === 'taints') {
    v = ((value ?? []) as Taint[])
      .map((t) => ({ key: t.key, effect: t.effect, ...(t.value ? { value: t.value } : {}) }))
      .map((t) => stable(t))
      .sort();
  }
  if (field === 'deepHealthChecks') v = value ?? false;
  if (field === 'overrideVpcConfig' && value) {
    const c = value as { subnetIds: string[]; securityGroupIds: string[] };
    v = { subnetIds: [...c.subnetIds].sort(), securityGroupIds: [...c.securityGroupIds].sort() };
  }
  return stable(v);
}

/** JSON with object keys sorted and undefined members dropped. */
function stable(v: unknown): string {
  if (v === undefined) return 'undefined';
  if (Array.isArray(v)) return `[${v.map(stable).join(',')}]`;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v)
      .filter(([, x]) => x !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${stable(x)}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

const shown = (v: unknown) =>
  v === undefined || v === null ? 'none' : typeof v === 'string' ? `"${v}"` : JSON.stringify(v);

/**
 * What a change request would really change on `current`. A field that is absent (or undefined)
 * is not asked for; a fixed field sent with its current value is fine (forms resend it).
 *
 * @example
 * diffInstanceGroup(current, { instanceCount: 4, capacityType: 'on-demand' });
 * // current is spot with 2 nodes →
 * // { changes: { instanceCount: 4 }, refused: [{ path: 'capacityType', message: 'cannot change from "spot" to
 * "on-demand": …' }], noop: false }
 */
export function diffInstanceGroup(
  current: InstanceGroupSpec,
  requested: Partial<InstanceGroupSpec>,
): InstanceGroupDiff {
  const changes: Record<string, unknown> = {};
  const refused: FieldProblem[] = [];
  for (const [field, value] of Object.entries(requested)) {
    if (value === undefined) continue;
    const now = (current as unknown as Record<string, unknown>)[field];
    if (isImmutableGroupField(field)) {
      if (canonical(field, value) !== canonical(field, now)) {
        refused.push({
          path: field,
          message: `cannot change from ${shown(now)} to ${shown(value)}: ${IMMUTABLE_GROUP_FIELDS[field]}`,
        });
      }
    } else if (isMutable(field)) {
      if (canonical(field, value) !== canonical(field, now)) changes[field] = value;
    } else {
      refused.push({ path: field, message: 'is not a field of an instance group' });
    }
  }
  return {
    changes: changes as InstanceGroupChanges,
    refused,
    noop: refused.length === 0 && Object.keys(changes).length === 0,
  };
}

/**
 * Throws when the diff refused anything: a precondition of the group's life (422), naming each field.
 *
 * @example
 * throwIfRefused(diffInstanceGroup(current, body)); // PreconditionError: These fields are fixed …
 */
export function throwIfRefused(diff: InstanceGroupDiff): void {
  if (diff.refused.length === 0) return;
  throw new PreconditionError({
    message: `These fields are fixed for the group's lifetime: ${diff.refused.map((p) => `${p.path} (${p.message})`).join('; ')}.`,
    problems: diff.refused,
  });
}

// ---- Batch* node API limits ---------------------------------------------------------------------

/** BatchRebootClusterNodes: NodeIds [1..25] (hyperpod-apis.md §1.4, [SM] model; also the manual-recovery docs, §4). */
export const BATCH_REBOOT_LIMIT = 25;
/** BatchReplaceClusterNodes: same shape as reboot, ≤ 25 (hyperpod-apis.md §1.4). */
export const BATCH_REPLACE_LIMIT = 25;
/**
 * BatchDeleteClusterNodes: the model allows NodeIds [1..3000], but the docs cap a call at 50
 * identifiers combined (hyperpod-apis.md §1.4); we keep to the stricter.
 */
export const BATCH_DELETE_LIMIT = 50;
/** BatchAddClusterNodes: IncrementTargetCountBy 1–50 and ≤ 50 nodes in total per call (hyperpod-apis.md §1.4). */
export const BATCH_ADD_NODES_LIMIT = 50;
/** BatchAddClusterNodes: NodesToAdd [1..5] groups per call (hyperpod-apis.md §1.4). */
export const BATCH_ADD_GROUPS_LIMIT = 5;
/** StartClusterHealthCheck: InstanceIds [1..500] per group configuration (hyperpod-apis.md §1.4). */
export const DEEP_HEALTH_CHECK_INSTANCE_LIMIT = 500;
/** ListClusterNodes: MaxResults 1–100 (hyperpod-apis.md §1.4); our own pages (≤ 500) take several calls. */
export const LIST_CLUSTER_NODES_PAGE_LIMIT = 100;

export type NodeAction = 'reboot' | 'replace' | 'delete';
/** How many nodes one AWS call may name, per user-facing node action. */
export const NODE_ACTION_BATCH_LIMITS: Readonly<Record<NodeAction, number>> = {
  reboot: BATCH_REBOOT_LIMIT,
  replace: BATCH_REPLACE_LIMIT,
  delete: BATCH_DELETE_LIMIT,
};

/**
 * Splits `ids` into consecutive chunks of at most `limit`, in order — one AWS call each.
 *
 * @example
 * batches(['i-1', 'i-2', 'i-3'], 2); // [['i-1', 'i-2'], ['i-3']]
 */
export function batches<T>(ids: readonly T[], limit: number): T[][] {
  if (!Number.isInteger(limit) || limit < 1)
    throw InputError.field('limit', `must be a whole number ≥ 1, got ${limit}`);
  const out: T[][] = [];
  for (let i = 0; i < ids.length; i += limit) out.push(ids.slice(i, i + limit));
  return out;
}
