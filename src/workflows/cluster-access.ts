import type { CloudPort, HyperPodCluster, KubePort } from '../cloud/ports.js';
import { NotFoundError } from '../domain/errors.js';

/** DescribeCluster of a HyperPod cluster that must exist (404 naming it and the Region otherwise). */
export async function describeHyperPod(cloud: CloudPort, region: string, cluster: string): Promise<HyperPodCluster> {
  const hp = await cloud.hyperpod.describe(region, cluster);
  if (!hp) throw new NotFoundError('HyperPod cluster', cluster, `HyperPod cluster '${cluster}' does not exist in ${region}.`);
  return hp;
}


/**
 * The Kubernetes API of a HyperPod cluster, through the EKS cluster that orchestrates it; undefined
 * while that EKS cluster has no endpoint (or the cluster is not EKS-orchestrated).
 */
export async function kubeOfHyperPod(cloud: CloudPort, hp: HyperPodCluster, region: string): Promise<KubePort | undefined> {
  const eksName = hp.Orchestrator?.Eks?.ClusterArn?.split('/').pop();
  if (!eksName) return undefined;
  const eks = await cloud.eks.describeCluster(region, eksName);
  if (!eks?.endpoint) return undefined;
  return cloud.kube(region, eksName);
}
