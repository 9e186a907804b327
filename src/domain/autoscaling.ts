import type { FieldProblem } from './errors.js';
import { HYPERPOD_NODE_CLASS, hyperpodNodeClassManifest } from './kube/hyperpod-node-class.js';
import { conditionOf, type Condition } from './kube/kind.js';
import { nodePoolManifest } from './kube/node-pool.js';
import type { KubeObject } from './kube-object.js';

/**
 * Managed node autoscaling (HyperPod-managed Karpenter): which groups it may scale, and the two
 * Kubernetes objects InstantStart keeps for it — one HyperpodNodeClass listing the groups and one
 * NodePool pointing at it. Karpenter itself runs in AWS; these objects are its configuration.
 */

export const KARPENTER_OBJECT_NAME = 'instantstart';
/** How long a node may sit empty before Karpenter gives it back (HyperPod then removes the instance). */
export const CONSOLIDATE_AFTER = '5m';

/** What the refusal check needs to know of each existing group. */
export interface AutoscalingCandidate {
  name: string;
  trainingPlan: boolean;
  deepHealthChecks: boolean;
}

/**
 * Why the requested groups cannot be autoscaled, each naming `instanceGroups` (empty when they can):
 * unknown groups, groups on training plans (their capacity is reserved, not launched on demand) and
 * groups that run deep health checks (a node would wait hours before taking the pending pod).
 */
export function autoscalingRefusals(
  cluster: string,
  continuous: boolean,
  groups: AutoscalingCandidate[],
  requested: string[],
): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (!continuous)
    problems.push({
      path: 'enabled',
      message: `cluster ${cluster} does not provision nodes continuously (NodeProvisioningMode Continuous), which managed autoscaling requires`,
    });
  const byName = new Map(groups.map((g) => [g.name, g]));
  for (const name of requested) {
    const g = byName.get(name);
    if (!g)
      problems.push({
        path: 'instanceGroups',
        message: `cluster ${cluster} has no instance group '${name}' (it has ${groups.map((x) => x.name).join(', ') || 'none'})`,
      });
    else if (g.trainingPlan)
      problems.push({
        path: 'instanceGroups',
        message: `'${name}' runs on a training plan, whose reserved capacity autoscaling cannot launch on demand`,
      });
    else if (g.deepHealthChecks)
      problems.push({
        path: 'instanceGroups',
        message: `'${name}' runs deep health checks on new nodes; turn them off for the group (PATCH deepHealthChecks: false) before autoscaling it`,
      });
  }
  return problems;
}

/** The HyperpodNodeClass and NodePool that let Karpenter scale `groups`, applied in this order. */
export function karpenterManifests(groups: string[]): KubeObject[] {
  return [
    hyperpodNodeClassManifest(KARPENTER_OBJECT_NAME, groups),
    nodePoolManifest({
      name: KARPENTER_OBJECT_NAME,
      nodeClass: {
        apiVersion: HYPERPOD_NODE_CLASS.apiVersion,
        kind: HYPERPOD_NODE_CLASS.kind,
        name: KARPENTER_OBJECT_NAME,
      },
      consolidateAfter: CONSOLIDATE_AFTER,
    }),
  ];
}

/** The Ready condition of a Karpenter object read back from the cluster, as the autoscaling view shows it. */
export function readyCondition(
  obj: { status: { conditions: readonly Condition[] } } | undefined,
): { ready: boolean; reason?: string; message?: string } | undefined {
  if (!obj) return undefined;
  const c = conditionOf(obj.status.conditions, 'Ready');
  if (!c) return { ready: false, reason: 'Pending', message: 'Karpenter has not reported on it yet' };
  return {
    ready: c.status === 'True',
    ...(c.reason ? { reason: c.reason } : {}),
    ...(c.message ? { message: c.message } : {}),
  };
}

export const sameGroups = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');
