import { DescribeClusterCommand } from '@aws-sdk/client-eks';
import { AwsClients } from './clients.js';
import { awsCall } from './errors.js';

/** What a kubeconfig needs from EKS: the ARN, the API endpoint and its certificate authority. */
export async function describeClusterAccess(
  clusterName: string,
  region: string,
): Promise<{ arn: string; endpoint: string; certificateAuthorityData: string; status: string }> {
  const eks = new AwsClients({ defaultRegion: region }).eks();
  const { cluster } = await awsCall('eks', 'DescribeCluster', () =>
    eks.send(new DescribeClusterCommand({ name: clusterName })),
  );
  if (!cluster?.endpoint || !cluster.certificateAuthority?.data) {
    throw new Error(
      `EKS cluster '${clusterName}' has no API endpoint yet (status ${cluster?.status ?? 'unknown'}); wait until it is ACTIVE`,
    );
  }
  return {
    arn: cluster.arn!,
    endpoint: cluster.endpoint,
    certificateAuthorityData: cluster.certificateAuthority.data,
    status: cluster.status ?? 'UNKNOWN',
  };
}
