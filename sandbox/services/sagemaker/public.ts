import type { SandboxState } from '../../core/store.js';
import { markFault } from './node-lifecycle.js';
export {
  autoscalerAddNode,
  autoscalerRemoveNode,
  findAutoscaledNode,
  hyperPodAutoscaling,
  type AutoscaledNodeView,
  type AutoscalingGroupView,
  type AutoscalingView,
} from './autoscaling.js';
import {
  clustersIn,
  findCluster,
  type DeepHealthCheckStatus,
  type HealthStatus,
  type NodeStatus,
  type StoredCluster,
  type StoredNode,
} from './state.js';

/**
 * What the rest of the sandbox may know about HyperPod: the Kubernetes API (next issue) shows
 * HyperPod instances as nodes of their EKS cluster, with HyperPod's labels, and turns a
 * `node-health-status` label change into a reboot or replacement.
 */
export interface HyperPodNodeView {
  instanceId: string;
  nodeLogicalId: string;
  clusterName: string;
  clusterArn: string;
  instanceGroupName: string;
  /** `ml.*`, as `node.kubernetes.io/instance-type` shows it. */
  instanceType: string;
  availabilityZone: string;
  availabilityZoneId: string;
  privateIp: string;
  privateDnsName: string;
  /** Pending (booting, rebooting, replacement), DeepHealthCheckInProgress, Running, ShuttingDown… */
  status: NodeStatus;
  /** `sagemaker.amazonaws.com/node-health-status` */
  healthStatus: HealthStatus;
  /** `sagemaker.amazonaws.com/deep-health-check-status`, once a deep health check ran. */
  deepHealthCheckStatus?: DeepHealthCheckStatus;
  /** `sagemaker.amazonaws.com/fault-type` / `fault-reason`, while a fault is open. */
  faultType?: string;
  faultReason?: string;
  capacityType: 'Spot' | 'OnDemand';
  /** KubernetesConfig of the instance group: labels and taints HyperPod keeps applied. */
  labels: Record<string, string>;
  taints: { key: string; value?: string; effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute' }[];
  /** Epoch ms. */
  launchTime: number;
}

function view(cluster: StoredCluster, node: StoredNode): HyperPodNodeView | undefined {
  if (!node.instanceId || !node.privateIp || !node.availabilityZone) return undefined;
  const k8s = cluster.groups.find((g) => g.spec.InstanceGroupName === node.groupName)?.spec.KubernetesConfig;
  return {
    instanceId: node.instanceId,
    nodeLogicalId: node.nodeLogicalId,
    clusterName: cluster.name,
    clusterArn: cluster.arn,
    instanceGroupName: node.groupName,
    instanceType: node.instanceType,
    availabilityZone: node.availabilityZone,
    availabilityZoneId: node.availabilityZoneId ?? '',
    privateIp: node.privateIp,
    privateDnsName: node.privateDnsName ?? '',
    status: node.status,
    healthStatus: node.healthStatus,
    ...(node.deepHealthCheckStatus ? { deepHealthCheckStatus: node.deepHealthCheckStatus } : {}),
    ...(node.faultType ? { faultType: node.faultType } : {}),
    ...(node.faultReason ? { faultReason: node.faultReason } : {}),
    capacityType: node.capacityType,
    labels: { ...(k8s?.Labels ?? {}) },
    taints: (k8s?.Taints ?? []).map((t) => ({
      key: t.Key,
      ...(t.Value !== undefined ? { value: t.Value } : {}),
      effect: t.Effect,
    })),
    launchTime: node.launchTime ?? node.createdAt,
  };
}

/** Every HyperPod instance (with an instance id) of the HyperPod cluster orchestrated by this EKS cluster. */
export function listHyperPodNodes(state: SandboxState, region: string, eksClusterArn: string): HyperPodNodeView[] {
  const out: HyperPodNodeView[] = [];
  for (const cluster of clustersIn(state, region)) {
    if (cluster.eksClusterArn !== eksClusterArn) continue;
    for (const node of cluster.nodes) {
      const v = view(cluster, node);
      if (v) out.push(v);
    }
  }
  return out;
}

/**
 * A `kubectl label node … sagemaker.amazonaws.com/node-health-status=UnschedulablePendingReboot|Replacement`:
 * HyperPod reboots or replaces the node shortly after (a manual request, so whatever NodeRecovery says).
 * Nothing happens when the instance is no longer in the cluster.
 */
export function requestNodeRecovery(
  state: SandboxState,
  region: string,
  clusterName: string,
  instanceId: string,
  health: 'UnschedulablePendingReboot' | 'UnschedulablePendingReplacement',
  now: number,
): void {
  const cluster = findCluster(state, region, clusterName);
  const node = cluster?.nodes.find((n) => n.instanceId === instanceId && !n.terminating);
  if (!cluster || !node || node.phase) return;
  markFault(cluster, node, health, undefined, now, true);
}

/**
 * The HyperPod cluster orchestrated by an EKS cluster, with its tags (what an IAM condition on
 * `aws:ResourceTag/<key>` reads); undefined when there is none (or it is being deleted).
 */
export function hyperPodClusterOf(
  state: SandboxState,
  region: string,
  eksClusterArn: string,
): { name: string; arn: string; tags: Record<string, string> } | undefined {
  const cluster = clustersIn(state, region).find((c) => c.eksClusterArn === eksClusterArn && c.status !== 'Deleting');
  return cluster
    ? { name: cluster.name, arn: cluster.arn, tags: Object.fromEntries(cluster.tags.map((t) => [t.Key, t.Value])) }
    : undefined;
}
