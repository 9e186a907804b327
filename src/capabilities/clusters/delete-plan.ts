import type { CloudPort } from '../../cloud/ports.js';
import { teardownPlan, type StorageOfCluster } from '../../domain/cluster-teardown.js';
import { NotFoundError } from '../../domain/errors.js';
import { holderPlanItem, type LoadBalancerHolder } from '../../domain/kube-load-balancers.js';
import { clusterTarget, resourceNames } from '../../domain/naming.js';
import type { DeletePlan } from '../../domain/schemas/clusters.js';
import { dataOfStorage } from '../../domain/storage.js';
import { kubeOfHyperPod } from '../../workflows/cluster-access.js';
import { clusterResources } from '../../workflows/cluster-resources.js';
import { readLoadBalancerHolders } from '../../workflows/load-balancer-holders.js';
import { readStorages } from '../../workflows/storage-volumes.js';
import type { KeptStoragesOfClusterPort } from './ports.js';

/**
 * What deleting a cluster removes and keeps, by name (src/domain/cluster-teardown.ts has the rules):
 * read from every service by tag, the server's kept storages, and from its Kubernetes API the
 * storages the cluster mounts now and the load balancers its Services and Ingresses hold (none when
 * that cannot be read — a half-made or half-deleted cluster).
 *
 * A cluster "does not exist" when nothing of it is left to delete — no HyperPod cluster, no EKS
 * cluster, no role of its names, nothing tagged with it but what the delete would keep — and no
 * operation works on it: that is a 404, not a delete that does nothing. A create that failed half-way
 * left tagged resources, so it still has a plan (and can be deleted).
 */
export async function deletePlan(
  deps: {
    cloud: CloudPort;
    keptStorages: KeptStoragesOfClusterPort;
    operations: { activeFor(target: string): unknown };
  },
  where: { region: string; name: string; keepStorage: boolean },
): Promise<DeletePlan> {
  const { region, name, keepStorage } = where;
  const names = resourceNames(name, await deps.cloud.accountId(), region);
  const [found, mounted, loadBalancers] = await Promise.all([
    clusterResources(deps.cloud, region, name, names),
    mountedStorages(deps.cloud, region, name),
    loadBalancersOf(deps.cloud, region, names.eksCluster),
  ]);
  const kept: StorageOfCluster[] = deps.keptStorages
    .list(region, name)
    .map((k) => ({ namespace: k.namespace, name: k.name, data: k.data }));
  const torn = teardownPlan({ keepStorage, found, kept, mounted });
  // The load balancers go first (the delete's first phase), through the Kubernetes objects that made them.
  const plan = { ...torn, deletes: [...loadBalancers.map(holderPlanItem), ...torn.deletes] };
  if (plan.deletes.length === 0 && !deps.operations.activeFor(clusterTarget(region, name))) {
    const keeps = plan.keeps.length
      ? ` What remains is kept: ${plan.keeps.map((k) => `${k.kind} ${k.name} (${k.reason})`).join('; ')}.`
      : '';
    throw new NotFoundError({
      resource: 'Cluster',
      id: name,
      message: `Cluster ${name} does not exist in ${region}: nothing of it is left to delete.${keeps}`,
    });
  }
  return { cluster: name, region, keepStorage, ...plan };
}

/** The load balancers the cluster's Kubernetes objects hold; none when its API cannot be read. */
async function loadBalancersOf(cloud: CloudPort, region: string, eksCluster: string): Promise<LoadBalancerHolder[]> {
  try {
    if ((await cloud.eks.describeCluster(region, eksCluster))?.status !== 'ACTIVE') return [];
    return await readLoadBalancerHolders(await cloud.kube(region, eksCluster));
  } catch {
    // As for the storages it mounts: a cluster half made or half deleted shows what can be read.
    return [];
  }
}

/** The storages the cluster mounts now; none when its Kubernetes API cannot be read. */
async function mountedStorages(cloud: CloudPort, region: string, name: string): Promise<StorageOfCluster[]> {
  try {
    const hp = await cloud.hyperpod.describe(region, name);
    const kube = hp && (await kubeOfHyperPod(cloud, hp, region));
    if (!kube) return [];
    return (await readStorages(kube, { mounts: false })).map((s) => ({
      namespace: s.namespace,
      name: s.name,
      data: dataOfStorage(s),
    }));
  } catch {
    // A cluster being torn down: what it mounts cannot be read, and its own storage is found by tag.
    return [];
  }
}
