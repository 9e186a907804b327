import type { CloudPort } from '../../cloud/ports.js';
import { KARPENTER_OBJECT_NAME, NODECLASS_API, NODECLASS_KIND, NODEPOOL_API, NODEPOOL_KIND, nodeClassGroups, readyCondition } from '../../domain/autoscaling.js';
import { AUTOSCALING_SCOPE, type AutoscalingView } from '../../domain/schemas/autoscaling.js';
import { describeHyperPod, kubeOfHyperPod } from '../../workflows/cluster-access.js';

/**
 * Managed autoscaling as HyperPod (DescribeCluster AutoScaling, ClusterRole) and the cluster's
 * Karpenter objects report it. The Karpenter objects are read only when the cluster has had
 * autoscaling: before that their kinds do not exist in the cluster.
 */
export async function readAutoscaling(cloud: CloudPort, region: string, cluster: string): Promise<AutoscalingView> {
  const hp = await describeHyperPod(cloud, region, cluster);
  const a = hp.AutoScaling;
  const view: AutoscalingView = {
    cluster,
    region,
    mode: a?.Mode === 'Enable' ? 'Enable' : 'Disable',
    ...(a?.Status ? { status: a.Status } : {}),
    ...(a?.FailureMessage ? { failureMessage: a.FailureMessage } : {}),
    ...(a?.AutoScalerType ? { autoScalerType: a.AutoScalerType } : {}),
    ...(hp.ClusterRole ? { clusterRoleArn: hp.ClusterRole } : {}),
    continuous: hp.NodeProvisioningMode === 'Continuous',
    instanceGroups: [],
    scope: AUTOSCALING_SCOPE,
  };
  if (!a) return view;
  const kube = await kubeOfHyperPod(cloud, hp, region);
  if (!kube) return view;
  const nodeClass = await kube.read({ apiVersion: NODECLASS_API, kind: NODECLASS_KIND, name: KARPENTER_OBJECT_NAME }).catch(unknownKind);
  if (!nodeClass) return view;
  const nodePool = await kube.read({ apiVersion: NODEPOOL_API, kind: NODEPOOL_KIND, name: KARPENTER_OBJECT_NAME }).catch(unknownKind);
  const poolNodes = (nodePool as { status?: { nodes?: unknown } } | undefined)?.status?.nodes;
  return {
    ...view,
    instanceGroups: nodeClassGroups(nodeClass),
    nodeClass: readyCondition(nodeClass)!,
    ...(nodePool ? { nodePool: { ...readyCondition(nodePool)!, ...(typeof poolNodes === 'number' ? { nodes: poolNodes } : {}) } } : {}),
  };
}

/** A kind the cluster does not serve (its CRD is gone) reads as no object; other failures stay failures. */
function unknownKind(err: unknown): undefined {
  if (/unrecognized api version and kind|the server could not find the requested resource/i.test((err as Error).message ?? '')) return undefined;
  throw err;
}
