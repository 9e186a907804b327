import {
  DescribeClusterCommand,
  paginateListClusters,
  type ClusterInstanceGroupDetails,
  type ClusterSummary,
} from '@aws-sdk/client-sagemaker';
import type { HyperPodUsage } from '../../../domain/preflight-facts.js';
import type { AwsClients } from '../clients.js';
import { awsCall, hasCode } from '../errors.js';
import { collectPages, mapLimited } from './paginate.js';

/** DescribeCluster calls in flight at once: quick for a handful of clusters, gentle on the API budget. */
const DESCRIBE_CONCURRENCY = 4;

/** Every HyperPod cluster of the Region (any status: a Failed cluster still holds its name). */
export function listHyperPodClusters(clients: AwsClients, region: string): Promise<ClusterSummary[]> {
  const client = clients.sagemaker(region);
  return collectPages(
    'sagemaker',
    'ListClusters',
    () => paginateListClusters({ client, pageSize: 100 }, {}),
    (p) => p.ClusterSummaries,
  );
}

/**
 * How many instances existing HyperPod clusters of the Region hold against the account's quotas, per
 * `ml.*` type and in all. Counted the way HyperPod counts them: each group's target count (what it
 * holds or is working towards), leaving out Failed clusters and Failed or Deleting groups, which give
 * their instances back.
 */
export async function loadHyperPodUsage(clients: AwsClients, region: string): Promise<HyperPodUsage> {
  const clusters = (await listHyperPodClusters(clients, region)).filter(
    (c) => c.ClusterStatus !== 'Failed' && c.ClusterName,
  );
  const groups = await mapLimited(clusters, DESCRIBE_CONCURRENCY, (c) =>
    instanceGroups(clients, region, c.ClusterName!),
  );
  const byType: Record<string, number> = {};
  for (const g of groups.flat()) {
    for (const [type, count] of groupUsage(g)) byType[type] = (byType[type] ?? 0) + count;
  }
  return { byType, total: Object.values(byType).reduce((a, b) => a + b, 0) };
}

async function instanceGroups(
  clients: AwsClients,
  region: string,
  name: string,
): Promise<ClusterInstanceGroupDetails[]> {
  try {
    const d = await awsCall('sagemaker', 'DescribeCluster', () =>
      clients.sagemaker(region).send(new DescribeClusterCommand({ ClusterName: name })),
    );
    return d.ClusterStatus === 'Failed' ? [] : (d.InstanceGroups ?? []);
  } catch (err) {
    // Deleted between ListClusters and DescribeCluster: it holds nothing any more.
    if (hasCode(err, 'ResourceNotFound', 'ResourceNotFoundException')) return [];
    throw err;
  }
}

function groupUsage(g: ClusterInstanceGroupDetails): Array<[string, number]> {
  if (g.Status === 'Failed' || g.Status === 'Deleting') return [];
  if (g.InstanceType) return [[g.InstanceType, g.TargetCount ?? g.CurrentCount ?? 0]];
  // Flexible groups (several types) report their running instances per type.
  return (g.InstanceTypeDetails ?? []).flatMap((d) =>
    d.InstanceType ? [[d.InstanceType, d.CurrentCount ?? 0] as [string, number]] : [],
  );
}
