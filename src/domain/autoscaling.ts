import type { FieldProblem } from './errors.js';
import type { KubeObject } from './kube-object.js';

/**
 * Managed node autoscaling (HyperPod-managed Karpenter): which groups it may scale, and the two
 * Kubernetes objects InstantStart keeps for it — one HyperpodNodeClass listing the groups and one
 * NodePool pointing at it. Karpenter itself runs in AWS; these objects are its configuration.
 */

export const KARPENTER_OBJECT_NAME = 'instantstart';
export const NODECLASS_API = 'karpenter.sagemaker.amazonaws.com/v1';
export const NODECLASS_KIND = 'HyperpodNodeClass';
export const NODEPOOL_API = 'karpenter.sh/v1';
export const NODEPOOL_KIND = 'NodePool';
/** The CRD that appears once HyperPod runs Karpenter for the cluster. */
export const NODECLASS_CRD = 'hyperpodnodeclasses.karpenter.sagemaker.amazonaws.com';
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
export function autoscalingRefusals(cluster: string, continuous: boolean, groups: AutoscalingCandidate[], requested: string[]): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (!continuous) problems.push({ path: 'enabled', message: `cluster ${cluster} does not provision nodes continuously (NodeProvisioningMode Continuous), which managed autoscaling requires` });
  const byName = new Map(groups.map((g) => [g.name, g]));
  for (const name of requested) {
    const g = byName.get(name);
    if (!g) problems.push({ path: 'instanceGroups', message: `cluster ${cluster} has no instance group '${name}' (it has ${groups.map((x) => x.name).join(', ') || 'none'})` });
    else if (g.trainingPlan) problems.push({ path: 'instanceGroups', message: `'${name}' runs on a training plan, whose reserved capacity autoscaling cannot launch on demand` });
    else if (g.deepHealthChecks) problems.push({ path: 'instanceGroups', message: `'${name}' runs deep health checks on new nodes; turn them off for the group (PATCH deepHealthChecks: false) before autoscaling it` });
  }
  return problems;
}

/** The HyperpodNodeClass and NodePool that let Karpenter scale `groups`, applied in this order. */
export function karpenterManifests(groups: string[]): KubeObject[] {
  const labels = { 'app.kubernetes.io/managed-by': 'instantstart' };
  return [
    { apiVersion: NODECLASS_API, kind: NODECLASS_KIND, metadata: { name: KARPENTER_OBJECT_NAME, labels }, spec: { instanceGroups: groups } },
    {
      apiVersion: NODEPOOL_API,
      kind: NODEPOOL_KIND,
      metadata: { name: KARPENTER_OBJECT_NAME, labels },
      spec: {
        template: {
          spec: {
            nodeClassRef: { group: NODECLASS_API.split('/')[0], kind: NODECLASS_KIND, name: KARPENTER_OBJECT_NAME },
            // Any type of the listed groups: the groups themselves are the choice of capacity.
            requirements: [{ key: 'node.kubernetes.io/instance-type', operator: 'Exists' }],
            expireAfter: 'Never',
          },
        },
        disruption: { consolidationPolicy: 'WhenEmpty', consolidateAfter: CONSOLIDATE_AFTER },
      },
    },
  ];
}

/** The groups a HyperpodNodeClass read back from the cluster lists (empty for anything else). */
export function nodeClassGroups(obj: unknown): string[] {
  const groups = (obj as { spec?: { instanceGroups?: unknown } } | undefined)?.spec?.instanceGroups;
  return Array.isArray(groups) ? groups.filter((g): g is string => typeof g === 'string') : [];
}

/** The Ready condition of a Karpenter object read back from the cluster. */
export function readyCondition(obj: unknown): { ready: boolean; reason?: string; message?: string } | undefined {
  if (!obj) return undefined;
  const conditions = (obj as { status?: { conditions?: Array<{ type?: string; status?: string; reason?: string; message?: string }> } }).status?.conditions ?? [];
  const c = conditions.find((x) => x.type === 'Ready');
  if (!c) return { ready: false, reason: 'Pending', message: 'Karpenter has not reported on it yet' };
  return { ready: c.status === 'True', ...(c.reason ? { reason: c.reason } : {}), ...(c.message ? { message: c.message } : {}) };
}

export const sameGroups = (a: string[], b: string[]): boolean => a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');
