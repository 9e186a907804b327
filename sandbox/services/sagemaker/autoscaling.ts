import { AwsError } from '../../core/errors.js';
import type { FaultRegistry } from '../../core/faults.js';
import type { SandboxState } from '../../core/store.js';
import { getSubnet } from '../ec2/public.js';
import { findRole, roleTrustsService } from '../iam/public.js';
import { recordEvent } from './events.js';
import { startShutdown } from './node-lifecycle.js';
import { checkQuotas } from './quotas.js';
import { reconcileGroup, setTarget } from './scaling.js';
import { clustersIn, findCluster, findGroup, type StoredCluster } from './state.js';
import type { World } from './world.js';

/**
 * HyperPod-managed Karpenter, the AWS half. The Karpenter controller itself (in the Kubernetes
 * side, sandbox/kube/controllers/karpenter*.ts) decides; HyperPod acts for it the way the real
 * service does: it assumes the cluster's ClusterRole and calls BatchAddClusterNodes /
 * BatchDeleteClusterNodes on the instance groups a HyperpodNodeClass names. These functions are
 * those two calls, one node at a time, with the same rules (Continuous mode, groups that exist and
 * are not failed, quotas) and a cluster event saying Karpenter asked. Only HyperPod instance groups
 * are ever scaled.
 */

const HYPERPOD_PRINCIPAL = 'hyperpod.sagemaker.amazonaws.com';

export interface AutoscalingGroupView {
  name: string;
  /** The group's ml.* type (the sandbox has no flexible InstanceRequirements groups). */
  instanceType: string;
  /** Zones of the group's subnets (HyperPod asks for one zone per Karpenter group). */
  zones: string[];
  subnets: string[];
  capacityType: 'spot' | 'on-demand';
  /** KubernetesConfig labels and taints HyperPod puts on the group's nodes. */
  labels: Record<string, string>;
  taints: { key: string; value?: string; effect: string }[];
  targetCount: number;
  /** Why Karpenter cannot use the group (failed, being deleted, training plan, deep health checks). */
  unusable?: string;
}

export interface AutoscalingView {
  clusterName: string;
  clusterArn: string;
  /** AutoScaling Mode Enable and InService: HyperPod runs Karpenter for this cluster. */
  enabled: boolean;
  /** The instance groups by name. */
  groups: Map<string, AutoscalingGroupView>;
}

function unusableReason(cluster: StoredCluster, name: string): string | undefined {
  const g = findGroup(cluster, name)!;
  if (g.deleting) return `instance group '${name}' is being deleted`;
  if (g.failureMessage) return `instance group '${name}' is Failed`;
  if (g.spec.TrainingPlanArn)
    return `instance group '${name}' uses a training plan; Karpenter supports only on-demand capacity`;
  if (g.spec.OnStartDeepHealthChecks?.length)
    return `instance group '${name}' runs deep health checks on start, which Karpenter does not support`;
  return undefined;
}

/** The HyperPod cluster this EKS cluster orchestrates, as its Karpenter sees it (undefined: none). */
export function hyperPodAutoscaling(
  state: SandboxState,
  region: string,
  eksClusterArn: string,
): AutoscalingView | undefined {
  const cluster = clustersIn(state, region).find((c) => c.eksClusterArn === eksClusterArn && c.status !== 'Deleting');
  if (!cluster) return undefined;
  const groups = new Map<string, AutoscalingGroupView>();
  for (const g of cluster.groups) {
    const s = g.spec;
    const zones = [
      ...new Set(
        g.subnets
          .map((id) => getSubnet(state, region, id)?.availabilityZone)
          .filter((z): z is string => z !== undefined),
      ),
    ];
    const unusable = unusableReason(cluster, s.InstanceGroupName);
    groups.set(s.InstanceGroupName, {
      name: s.InstanceGroupName,
      instanceType: s.InstanceType ?? '',
      zones,
      subnets: [...g.subnets],
      capacityType: s.CapacityRequirements?.Spot ? 'spot' : 'on-demand',
      labels: { ...(s.KubernetesConfig?.Labels ?? {}) },
      taints: (s.KubernetesConfig?.Taints ?? []).map((t) => ({
        key: t.Key,
        ...(t.Value !== undefined ? { value: t.Value } : {}),
        effect: t.Effect,
      })),
      targetCount: g.targetCount,
      ...(unusable ? { unusable } : {}),
    });
  }
  const enabled =
    cluster.autoScaling?.Mode === 'Enable' &&
    cluster.autoScaling.Status === 'InService' &&
    cluster.nodeProvisioningMode === 'Continuous';
  return { clusterName: cluster.name, clusterArn: cluster.arn, enabled, groups };
}

/** Where a node Karpenter asked for stands on the HyperPod side. */
export interface AutoscaledNodeView {
  status: string;
  statusMessage?: string;
  instanceId?: string;
  availabilityZone?: string;
  terminating: boolean;
}

export function findAutoscaledNode(
  state: SandboxState,
  region: string,
  clusterName: string,
  nodeLogicalId: string,
): AutoscaledNodeView | undefined {
  const node = findCluster(state, region, clusterName)?.nodes.find((n) => n.nodeLogicalId === nodeLogicalId);
  if (!node) return undefined;
  return {
    status: node.status,
    ...(node.statusMessage ? { statusMessage: node.statusMessage } : {}),
    ...(node.instanceId ? { instanceId: node.instanceId } : {}),
    ...(node.availabilityZone ? { availabilityZone: node.availabilityZone } : {}),
    terminating: node.terminating === true,
  };
}

/** HyperPod may act for Karpenter only while it can assume the ClusterRole (a deleted or untrusting role stops it). */
function roleProblem(state: SandboxState, cluster: StoredCluster): string | undefined {
  const role = cluster.clusterRole ? findRole(state, cluster.clusterRole) : undefined;
  if (!role || role.arn !== cluster.clusterRole)
    return `HyperPod could not assume ClusterRole '${cluster.clusterRole ?? ''}': the role does not exist.`;
  if (!roleTrustsService(role, HYPERPOD_PRINCIPAL))
    return `HyperPod could not assume ClusterRole '${cluster.clusterRole}': its trust policy does not allow ${HYPERPOD_PRINCIPAL}.`;
  return undefined;
}

/**
 * BatchAddClusterNodes for one node of `groupName`, on Karpenter's behalf (NodeClaim `claim`).
 * Returns the new node's logical id, or why HyperPod refused (the refusal is a Warn event too).
 */
export function autoscalerAddNode(
  state: SandboxState,
  region: string,
  faults: FaultRegistry,
  clusterName: string,
  groupName: string,
  claim: string,
  now: number,
): { nodeLogicalId: string } | { error: string } {
  const cluster = findCluster(state, region, clusterName);
  if (!cluster) return { error: `HyperPod cluster '${clusterName}' does not exist.` };
  const group = findGroup(cluster, groupName);
  const refuse = (error: string) => {
    recordEvent(
      cluster,
      now,
      'Warn',
      'InstanceGroup',
      `Autoscaling (Karpenter) could not add a node to instance group '${groupName}' for NodeClaim '${claim}': ${error}`,
      { instanceGroupName: groupName },
    );
    return { error };
  };
  if (cluster.autoScaling?.Mode !== 'Enable' || cluster.nodeProvisioningMode !== 'Continuous')
    return refuse('autoscaling is not enabled on the cluster.');
  const role = roleProblem(state, cluster);
  if (role) return refuse(role);
  if (!group)
    return refuse(`InstanceGroupNotFound: instance group '${groupName}' does not exist in cluster '${cluster.name}'.`);
  const unusable = unusableReason(cluster, groupName);
  if (unusable) return refuse(`InvalidInstanceGroupStatus: ${unusable}.`);
  try {
    checkQuotas(state, region, new Map([[group.spec.InstanceType!, 1]]), cluster);
  } catch (e) {
    if (e instanceof AwsError) return refuse(`${e.code}: ${e.message}`);
    throw e;
  }
  const world: World = { state, region, faults };
  const from = group.targetCount;
  setTarget(world, group, from + 1);
  const [node] = reconcileGroup(cluster, group, now);
  if (!node) return refuse('no node slot was created.');
  recordEvent(
    cluster,
    now,
    'Info',
    'InstanceGroup',
    `Autoscaling (Karpenter) added a node to instance group '${groupName}' for NodeClaim '${claim}' (BatchAddClusterNodes as ${cluster.clusterRole}); target count ${from} → ${group.targetCount}.`,
    {
      instanceGroupName: groupName,
    },
  );
  return { nodeLogicalId: node.nodeLogicalId };
}

/**
 * BatchDeleteClusterNodes for one node Karpenter no longer wants (consolidation, a deleted
 * NodeClaim). False when the node is already gone or on its way out; a node HyperPod is rebooting
 * or replacing is refused (NodeIdInUse) and Karpenter retries later.
 */
export function autoscalerRemoveNode(
  state: SandboxState,
  region: string,
  faults: FaultRegistry,
  clusterName: string,
  nodeLogicalId: string,
  reason: string,
  now: number,
): 'removed' | 'gone' | 'busy' {
  const cluster = findCluster(state, region, clusterName);
  const node = cluster?.nodes.find((n) => n.nodeLogicalId === nodeLogicalId);
  if (!cluster || !node || node.terminating) return 'gone';
  if (node.phase === 'reboot' || node.replacing) return 'busy';
  const group = findGroup(cluster, node.groupName);
  const from = group?.targetCount ?? 0;
  if (group) setTarget({ state, region, faults }, group, Math.max(0, group.targetCount - 1));
  recordEvent(
    cluster,
    now,
    'Info',
    'InstanceGroup',
    `Autoscaling (Karpenter) removed node ${node.instanceId ?? nodeLogicalId} from instance group '${node.groupName}' (${reason}; BatchDeleteClusterNodes as ${cluster.clusterRole}); target count ${from} → ${group?.targetCount ?? 0}.`,
    {
      instanceGroupName: node.groupName,
      ...(node.instanceId ? { instanceId: node.instanceId } : {}),
    },
  );
  startShutdown(cluster, node, now);
  return 'removed';
}
