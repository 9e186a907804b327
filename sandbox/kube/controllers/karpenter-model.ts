import type { FaultRegistry } from '../../core/faults.js';
import type { SandboxState } from '../../core/store.js';
import type { AutoscalingGroupView, AutoscalingView } from '../../services/sagemaker/public.js';
import type { KubeCluster } from '../cluster.js';
import type { KubeObject, ResourceType } from '../types.js';
import { nodeResources } from './node-shape.js';
import { parseQuantity } from './quantity.js';
import { matchesRequirement, type Any } from './util.js';

/**
 * What the sandbox's Karpenter (karpenter.ts, karpenter-provision.ts, karpenter-claims.ts) shares:
 * one pass's view of the world, the labels Karpenter and HyperPod put on nodes, and how a NodePool
 * plus one HyperPod instance group becomes the node Karpenter would get — the "candidate" it tests
 * pods against before it asks HyperPod for the real one.
 */

export const LOGICAL_ID = 'sandbox.instantstart.dev/hyperpod-node-logical-id';
export const TERMINATION_FINALIZER = 'karpenter.sh/termination';
export const NODEPOOL_LABEL = 'karpenter.sh/nodepool';
export const CAPACITY_TYPE_LABEL = 'karpenter.sh/capacity-type';
export const GROUP_LABEL = 'sagemaker.amazonaws.com/instance-group-name';
export const INSTANCE_TYPE_LABEL = 'node.kubernetes.io/instance-type';
export const ZONE_LABEL = 'topology.kubernetes.io/zone';
export const DISRUPTED_TAINT = { key: 'karpenter.sh/disrupted', effect: 'NoSchedule' };
/** NodePools without disruption.consolidateAfter: Karpenter's CRD says 0s; the sandbox waits 30 s so demos see the node go idle first. */
export const DEFAULT_CONSOLIDATE_AFTER_MS = 30_000;

export interface KarpenterRun {
  cluster: KubeCluster;
  state: SandboxState;
  faults: FaultRegistry | undefined;
  view: AutoscalingView;
  now: number;
  types: { nodeClasses: ResourceType; nodePools: ResourceType; nodeClaims: ResourceType };
  /** Ready HyperpodNodeClasses by name, with their (usable) instance groups. */
  classes: Map<string, AutoscalingGroupView[]>;
  /** NodePools whose NodeClass is Ready, highest weight first. */
  pools: KubeObject[];
}

export const templateSpecOf = (pool: KubeObject): Any => ((pool.spec as Any)?.template?.spec ?? {}) as Any;
export const templateLabelsOf = (pool: KubeObject): Record<string, string> =>
  ((pool.spec as Any)?.template?.metadata?.labels ?? {}) as Record<string, string>;

/** `30s`, `5m`, `1h30m` → ms; `Never` → undefined. */
export function durationMs(text: string): number | undefined {
  if (text === 'Never') return undefined;
  let total = 0;
  for (const m of text.matchAll(/(\d+)(h|m|s)/g))
    total += Number(m[1]) * (m[2] === 'h' ? 3_600_000 : m[2] === 'm' ? 60_000 : 1000);
  return total;
}

export function consolidateAfterMs(pool: KubeObject): number | undefined {
  const value = (pool.spec as Any)?.disruption?.consolidateAfter as string | undefined;
  return value === undefined ? DEFAULT_CONSOLIDATE_AFTER_MS : durationMs(value);
}

/** The labels every node of this pool and group carries (HyperPod's, Karpenter's, the pool template's). */
function baseLabels(pool: KubeObject, group: AutoscalingGroupView, region: string): Record<string, string> {
  return {
    ...group.labels,
    ...templateLabelsOf(pool),
    'kubernetes.io/arch': 'amd64',
    'kubernetes.io/os': 'linux',
    'topology.kubernetes.io/region': region,
    [INSTANCE_TYPE_LABEL]: group.instanceType,
    [NODEPOOL_LABEL]: pool.metadata.name!,
    [CAPACITY_TYPE_LABEL]: group.capacityType,
    [GROUP_LABEL]: group.name,
    'sagemaker.amazonaws.com/compute-type': 'hyperpod',
    'sagemaker.amazonaws.com/node-health-status': 'Schedulable',
    ...(group.zones.length === 1 ? { [ZONE_LABEL]: group.zones[0]! } : {}),
  };
}

/**
 * The NodePool's requirements against a group: well-known keys must match what the group's nodes
 * would be (a zone may match any of the group's zones); other keys with `In` become labels, as
 * Karpenter labels its nodes. Returns the node's labels, or undefined when the pool excludes the group.
 */
export function poolLabelsFor(
  pool: KubeObject,
  group: AutoscalingGroupView,
  region: string,
): Record<string, string> | undefined {
  const labels = baseLabels(pool, group, region);
  for (const r of (templateSpecOf(pool).requirements ?? []) as Any[]) {
    if (r.key === ZONE_LABEL && group.zones.length > 1) {
      if (!group.zones.some((z) => matchesRequirement(true, z, r.operator, r.values))) return undefined;
    } else if (Object.hasOwn(labels, r.key)) {
      if (!matchesRequirement(true, labels[r.key], r.operator, r.values)) return undefined;
    } else if (r.operator === 'In' && Array.isArray(r.values) && r.values.length > 0) {
      labels[r.key] = String(r.values[0]);
    }
  }
  return labels;
}

/** Taints a node of this pool and group gets: the group's KubernetesConfig taints and the pool template's. */
export function poolTaintsFor(pool: KubeObject, group: AutoscalingGroupView): Any[] {
  const fromPool = ((templateSpecOf(pool).taints ?? []) as Any[]).map((t) => ({
    key: t.key,
    ...(t.value !== undefined ? { value: t.value } : {}),
    effect: t.effect,
  }));
  return [...group.taints, ...fromPool];
}

/** The node Karpenter expects to get (Ready, with the instance type's allocatable), to test pods against. */
export function candidateNode(
  name: string,
  labels: Record<string, string>,
  taints: Any[],
  instanceType: string,
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels },
    spec: taints.length ? { taints } : {},
    status: {
      allocatable: nodeResources(instanceType, 'all').allocatable,
      conditions: [{ type: 'Ready', status: 'True' }],
    },
  };
}

/** Sums quantity maps (capacity of nodes) into numbers; `nodes` counts them. */
export function addResources(total: Map<string, number>, resources: Record<string, string>): void {
  for (const [k, v] of Object.entries(resources)) total.set(k, (total.get(k) ?? 0) + parseQuantity(v));
  total.set('nodes', (total.get('nodes') ?? 0) + 1);
}

/** Numbers back to quantities as Karpenter reports them (memory in Ki, cpu in cores or millicores). */
export function formatResources(total: Map<string, number>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of [...total].sort(([a], [b]) => a.localeCompare(b))) {
    if (k === 'memory' || k === 'ephemeral-storage' || k.startsWith('hugepages-'))
      out[k] = v === 0 ? '0' : `${Math.round(v / 1024)}Ki`;
    else if (Number.isInteger(v)) out[k] = String(v);
    else out[k] = `${Math.round(v * 1000)}m`;
  }
  return out;
}
