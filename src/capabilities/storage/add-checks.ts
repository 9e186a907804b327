import type { CloudPort, HyperPodCluster } from '../../cloud/ports.js';
import { ConflictError, PreconditionError } from '../../domain/errors.js';
import { storageBucketName } from '../../domain/naming.js';
import type { AddStorageInput, AddStorageRequest, StorageView } from '../../domain/schemas/storage.js';
import { STORAGE_DRIVERS } from '../../domain/storage.js';

/**
 * What add-storage must know before it starts, read from AWS and the cluster: each check refuses
 * with a 4xx naming the field at fault, before any change. The answer is the operation's input:
 * the request with the bucket's name and Region, or the subnet a new file system goes in.
 */

const refuse = (path: string, message: string, remedy?: string) =>
  new PreconditionError({ message: `${path}: ${message}`, problems: [{ path, message }], remedy });

/** The same storage as asked: a repeat of an add that already happened (the operation then changes nothing). */
function sameStorage(existing: StorageView, r: AddStorageRequest, bucket: string | undefined): boolean {
  if (existing.kind !== r.kind) return false;
  if (r.kind === 's3')
    return (
      existing.bucket === bucket &&
      (existing.prefix ?? '') === (r.prefix ?? '') &&
      existing.access === (r.readOnly ? 'read-only' : 'read-write')
    );
  return r.createFileSystem ? true : existing.fileSystemId === r.fileSystemId;
}

export interface AddContext {
  cloud: CloudPort;
  region: string;
  cluster: string;
  hp: HyperPodCluster;
  eksClusterName: string;
  accountId: string;
  storages: StorageView[];
  drivers: Record<'s3-csi-driver' | 'fsx-csi-driver', boolean>;
}

export async function checkAdd(c: AddContext, r: AddStorageRequest): Promise<AddStorageInput> {
  const driver = STORAGE_DRIVERS[r.kind];
  if (!c.drivers[driver.feature]) {
    throw refuse(
      'kind',
      `${r.kind} storage needs the ${driver.feature} feature (the ${driver.csiDriver} CSI driver), which is off in cluster ${c.cluster}`,
      `Turn on ${driver.feature} first: set_features {"${driver.feature}": true} or PATCH /api/v1/clusters/${c.cluster}/features.`,
    );
  }
  const bucket =
    r.kind === 's3'
      ? (r.bucket ?? storageBucketName(c.cluster, r.namespace, r.name, c.accountId, c.region))
      : undefined;
  const existing = c.storages.find((s) => s.name === r.name && s.namespace === r.namespace);
  const repeat = existing !== undefined && sameStorage(existing, r, bucket);
  if (existing && !repeat) {
    throw new ConflictError({
      message: `name: cluster ${c.cluster} already has a storage ${r.namespace}/${r.name} (${existing.dataName}); remove it first or choose another name.`,
      field: 'name',
    });
  }
  const input: AddStorageInput = { ...r, cluster: c.cluster, region: c.region };
  if (r.kind === 's3') return { ...input, bucket, ...(await checkBucket(c, r, bucket!, repeat)) };
  if (r.createFileSystem) return { ...input, ...placeNewFileSystem(c) };
  if (!repeat) await checkFileSystem(c, r.fileSystemId!);
  return input;
}

/** An existing bucket must be there and reachable; a new one's name must be free. Its Region goes into Mountpoint's options. */
async function checkBucket(
  c: AddContext,
  r: AddStorageRequest,
  bucket: string,
  repeat: boolean,
): Promise<{ bucketRegion?: string }> {
  const probe = await c.cloud.storage.probeBucket(c.region, bucket);
  if (r.createBucket) {
    if (probe.state === 'forbidden')
      throw refuse('bucket', `'${bucket}' is taken (bucket names are global across AWS accounts): choose another name`);
    if (probe.state === 'reachable' && !repeat)
      throw refuse(
        'bucket',
        `'${bucket}' already exists: mount it as an existing bucket (createBucket: false) or choose another name`,
      );
    return {};
  }
  if (probe.state === 'missing')
    throw refuse('bucket', `'${bucket}' does not exist: check the name, or set createBucket: true to make it`);
  if (probe.state === 'forbidden')
    throw refuse(
      'bucket',
      `'${bucket}' exists but this server cannot reach it (another account's bucket, or no s3:ListBucket on it)`,
    );
  return probe.region && probe.region !== c.region ? { bucketRegion: probe.region } : {};
}

/** An existing file system must be Lustre, AVAILABLE and in the cluster's VPC, in one of its subnets. */
async function checkFileSystem(c: AddContext, id: string): Promise<void> {
  const fs = await c.cloud.storage.describeFileSystem(c.region, id);
  if (!fs) throw refuse('fileSystemId', `${id} does not exist in ${c.region}`);
  if (fs.FileSystemType !== 'LUSTRE')
    throw refuse(
      'fileSystemId',
      `${id} is an FSx for ${fs.FileSystemType ?? 'other'} file system; only FSx for Lustre is supported`,
    );
  if (fs.Lifecycle !== 'AVAILABLE')
    throw refuse('fileSystemId', `${id} is ${fs.Lifecycle ?? 'not available'}; it must be AVAILABLE to be mounted`);
  const eks = await c.cloud.eks.describeCluster(c.region, c.eksClusterName);
  const vpcId = eks?.resourcesVpcConfig?.vpcId;
  if (vpcId && fs.VpcId !== vpcId)
    throw refuse('fileSystemId', `${id} is in VPC ${fs.VpcId}, the cluster in ${vpcId}: its nodes cannot reach it`);
  const subnets = new Set([...(c.hp.VpcConfig?.Subnets ?? []), ...(eks?.resourcesVpcConfig?.subnetIds ?? [])]);
  const fsSubnet = fs.SubnetIds?.[0];
  if (fsSubnet && subnets.size && !subnets.has(fsSubnet)) {
    throw refuse(
      'fileSystemId',
      `${id} is in subnet ${fsSubnet}, which is not one of the cluster's subnets (${[...subnets].join(', ')})`,
    );
  }
}

/** A new file system goes where the cluster's nodes are: its first subnet and security group (DescribeCluster VpcConfig). */
function placeNewFileSystem(c: AddContext): { subnetId: string; securityGroupId: string } {
  const subnetId = c.hp.VpcConfig?.Subnets?.[0];
  const securityGroupId = c.hp.VpcConfig?.SecurityGroupIds?.[0];
  if (!subnetId || !securityGroupId)
    throw refuse(
      'createFileSystem',
      `cluster ${c.cluster} reports no subnet and security group (VpcConfig) to put a file system in`,
    );
  return { subnetId, securityGroupId };
}
