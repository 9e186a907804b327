import type { CloudPort, HyperPodCluster, KubePort } from '../cloud/ports.js';
import { NotFoundError } from '../domain/errors.js';
import { KubeApiUnavailable } from '../domain/kube/errors.js';

/** DescribeCluster of a HyperPod cluster that must exist (404 naming it and the Region otherwise). */
export async function describeHyperPod(cloud: CloudPort, region: string, cluster: string): Promise<HyperPodCluster> {
  const hp = await cloud.hyperpod.describe(region, cluster);
  if (!hp)
    throw new NotFoundError({
      resource: 'HyperPod cluster',
      id: cluster,
      message: `HyperPod cluster '${cluster}' does not exist in ${region}.`,
    });
  return hp;
}

/** The EKS cluster that orchestrates a HyperPod cluster (undefined for one that is not EKS-orchestrated). */
export const eksClusterOf = (hp: HyperPodCluster): string | undefined =>
  hp.Orchestrator?.Eks?.ClusterArn?.split('/').pop() || undefined;

/**
 * The one way to the Kubernetes API of a HyperPod cluster: through the EKS cluster that
 * orchestrates it, from the cloud's per-cluster client cache. With `required`, a cluster without an
 * API (yet) is a retryable KubeApiUnavailable error (for phases, which wait it out); without it,
 * undefined (for read models, which show what they can).
 */
export async function kubeOfHyperPod(
  cloud: CloudPort,
  hp: HyperPodCluster,
  region: string,
  options: { required: true },
): Promise<KubePort>;
export async function kubeOfHyperPod(
  cloud: CloudPort,
  hp: HyperPodCluster,
  region: string,
  options?: { required?: false },
): Promise<KubePort | undefined>;
export async function kubeOfHyperPod(
  cloud: CloudPort,
  hp: HyperPodCluster,
  region: string,
  options: { required?: boolean } = {},
): Promise<KubePort | undefined> {
  const eksName = eksClusterOf(hp);
  if (!eksName) {
    if (options.required)
      throw new KubeApiUnavailable({ cluster: hp.ClusterName ?? 'unknown', status: 'not EKS-orchestrated' });
    return undefined;
  }
  try {
    return await cloud.kube(region, eksName);
  } catch (err) {
    if (err instanceof KubeApiUnavailable && !options.required) return undefined;
    throw err;
  }
}
