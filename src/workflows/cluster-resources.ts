import type { CloudPort, TaggedResource } from '../cloud/ports.js';
import { clusterRoleNames } from '../domain/cluster-roles.js';
import { mayBeInstantStartRole, type FoundResource } from '../domain/cluster-teardown.js';
import { TAG_CLUSTER, type ClusterResourceNames } from '../domain/naming.js';

export const HYPERPOD_CLUSTER = 'HyperPod cluster';
export const EKS_CLUSTER = 'EKS cluster';
export const MLFLOW_SERVER = 'MLflow tracking server';
export const IAM_ROLE = 'IAM role';

/**
 * Everything of a cluster that exists now: every resource tagged `instantstart.io/cluster=<name>`
 * in every service (S3, SageMaker, IAM, EC2, EKS, FSx), and — found by their fixed names, tagged or
 * not — its HyperPod and EKS clusters and the roles of its fixed names. What the delete plan lists,
 * what the delete removes and what its verify checks, so the three cannot disagree.
 */
export async function clusterResources(
  cloud: CloudPort,
  region: string,
  cluster: string,
  names: ClusterResourceNames,
  services?: ReadonlyArray<TaggedResource['service']>,
): Promise<FoundResource[]> {
  const wants = (s: TaggedResource['service']) => !services || services.includes(s);
  const [tagged, hp, eks, roles] = await Promise.all([
    cloud.tagged.list(region, {
      key: TAG_CLUSTER,
      value: cluster,
      roleName: mayBeInstantStartRole,
      ...(services ? { services } : {}),
    }),
    wants('sagemaker') ? cloud.hyperpod.describe(region, names.hyperpodCluster) : undefined,
    wants('eks') ? cloud.eks.describeCluster(region, names.eksCluster) : undefined,
    wants('iam')
      ? Promise.all(clusterRoleNames(names).map(async (r) => ((await cloud.iam.find(r)) ? r : undefined)))
      : [],
  ]);
  const found = new Map<string, FoundResource>();
  const add = (r: FoundResource) => {
    const k = `${r.kind}\u0000${r.id}`;
    if (!found.has(k)) found.set(k, r);
  };
  // By name first: a HyperPod cluster's describe carries its status, the tag read its tags (merged below).
  if (hp) add({ kind: HYPERPOD_CLUSTER, id: names.hyperpodCluster, status: hp.ClusterStatus ?? 'Unknown', tags: {} });
  if (eks) add({ kind: EKS_CLUSTER, id: names.eksCluster, status: eks.status ?? 'Unknown', tags: {} });
  for (const r of roles) if (r) add({ kind: IAM_ROLE, id: r, tags: {} });
  for (const t of tagged) {
    const k = `${t.kind}\u0000${t.id}`;
    const byName = found.get(k);
    if (byName) found.set(k, { ...byName, tags: t.tags });
    else
      add({
        kind: t.kind,
        id: t.id,
        ...(t.status ? { status: t.status } : {}),
        ...(t.arn ? { arn: t.arn } : {}),
        tags: t.tags,
      });
  }
  return [...found.values()];
}
