import type { CloudPort, HyperPodCluster, KubePort } from '../cloud/ports.js';

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
