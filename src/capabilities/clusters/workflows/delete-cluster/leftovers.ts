import type { CloudPort } from '../../../../cloud/ports.js';
import type { ClusterResourceNames } from '../../../../domain/naming.js';
import { clusterOwnedRoles } from '../../../../workflows/cluster-owned-roles.js';

/**
 * Everything of a managed cluster that still exists, found by deterministic name or by our tags —
 * the delete saga's last word: it ends with this list instead of claiming success while things remain.
 */
export async function findLeftovers(cloud: CloudPort, region: string, cluster: string, names: ClusterResourceNames, keepStorage: boolean): Promise<string[]> {
  const left: string[] = [];
  const hp = await cloud.hyperpod.describe(region, names.hyperpodCluster);
  if (hp) left.push(`HyperPod cluster ${names.hyperpodCluster} (${hp.ClusterStatus})`);
  const eks = await cloud.eks.describeCluster(region, names.eksCluster);
  if (eks) left.push(`EKS cluster ${names.eksCluster} (${eks.status})`);
  const net = await cloud.network.find(region, cluster);
  if (net.vpcId) left.push(`VPC ${net.vpcId}`);
  for (const s of net.subnets) left.push(`subnet ${s.subnetId}`);
  if (net.natGatewayId) left.push(`NAT gateway ${net.natGatewayId} (${net.natGatewayState})`);
  if (net.allocationId) left.push(`Elastic IP ${net.allocationId}`);
  if (net.internetGatewayId) left.push(`internet gateway ${net.internetGatewayId}`);
  for (const role of await clusterOwnedRoles(cloud.iam, cluster, names)) {
    if (await cloud.iam.find(role)) left.push(`IAM role ${role}`);
  }
  if (!keepStorage) {
    if (await cloud.storage.bucketExists(region, names.bucket)) left.push(`S3 bucket ${names.bucket}`);
    const fs = await cloud.storage.findFileSystem(region, cluster);
    if (fs) left.push(`FSx file system ${fs.FileSystemId} (${fs.Lifecycle})`);
  }
  return left;
}
