import type { CloudPort } from '../../cloud/ports.js';
import { KARPENTER_OBJECT_NAME, readyCondition } from '../../domain/autoscaling.js';
import { KubeKindNotServed } from '../../domain/kube/errors.js';
import { HYPERPOD_NODE_CLASS } from '../../domain/kube/hyperpod-node-class.js';
import { NODE_POOL } from '../../domain/kube/node-pool.js';
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
  const nodeClass = await kube.find(HYPERPOD_NODE_CLASS, KARPENTER_OBJECT_NAME).catch(unservedKind);
  if (!nodeClass) return view;
  const nodePool = await kube.find(NODE_POOL, KARPENTER_OBJECT_NAME).catch(unservedKind);
  return {
    ...view,
    instanceGroups: nodeClass.spec.instanceGroups,
    nodeClass: readyCondition(nodeClass)!,
    ...(nodePool
      ? {
          nodePool: {
            ...readyCondition(nodePool)!,
            ...(nodePool.status.nodes !== undefined ? { nodes: nodePool.status.nodes } : {}),
          },
        }
      : {}),
  };
}

/** A kind the cluster does not serve (autoscaling never ran, or its CRD is gone) reads as no object; other failures stay failures. */
function unservedKind(err: unknown): undefined {
  if (err instanceof KubeKindNotServed) return undefined;
  throw err;
}
