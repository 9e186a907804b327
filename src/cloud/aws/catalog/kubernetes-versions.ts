import { paginateDescribeClusterVersions, type ClusterVersionInformation } from '@aws-sdk/client-eks';
import type { EksKubernetesVersion } from '../../../domain/kubernetes-versions.js';
import type { AwsClients } from '../clients.js';
import { collectPages } from './paginate.js';

/**
 * The Kubernetes versions EKS offers for new clusters in `region` (DescribeClusterVersions, every
 * page): those in standard or extended support, with the one EKS marks default. `clusterType` eks
 * leaves out the versions of EKS local clusters on Outposts, which HyperPod cannot orchestrate.
 */
export async function loadEksKubernetesVersions(clients: AwsClients, region: string): Promise<EksKubernetesVersion[]> {
  const client = clients.eks(region);
  const versions = await collectPages(
    'eks',
    'DescribeClusterVersions',
    () => paginateDescribeClusterVersions({ client, pageSize: 100 }, { clusterType: 'eks' }),
    (p) => p.clusterVersions,
  );
  return versions
    .filter((v): v is ClusterVersionInformation & { clusterVersion: string } => Boolean(v.clusterVersion))
    .map(toView);
}

function toView(v: ClusterVersionInformation & { clusterVersion: string }): EksKubernetesVersion {
  return {
    version: v.clusterVersion,
    isDefault: v.defaultVersion === true,
    // `status` is the deprecated spelling of `versionStatus` (lower-case values); read it only when the new one is
    // absent.
    status: v.versionStatus ?? (v.status ? v.status.toUpperCase().replace(/-/g, '_') : 'UNKNOWN'),
    ...(v.endOfStandardSupportDate
      ? { endOfStandardSupport: v.endOfStandardSupportDate.toISOString().slice(0, 10) }
      : {}),
  };
}
