import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  CreateSecurityGroupCommand,
  CreateSubnetCommand,
  CreateVpcCommand,
  DeleteSubnetCommand,
  DescribeSubnetsCommand,
  EC2Client,
} from '@aws-sdk/client-ec2';
import {
  CreateFileSystemCommand,
  DeleteFileSystemCommand,
  DescribeFileSystemsCommand,
  FSxClient,
  ListTagsForResourceCommand,
  TagResourceCommand,
  UntagResourceCommand,
  type CreateFileSystemCommandInput,
} from '@aws-sdk/client-fsx';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const errorName = (name: string) => (e: Error) => {
  assert.equal(e.name, name, e.message);
  return true;
};

describe('FSx for Lustre', () => {
  let sb: TestSandbox;
  let fsx: FSxClient;
  let ec2: EC2Client;
  let vpcId: string;
  let subnetId: string;
  let otherSubnetId: string;
  let groupId: string;

  const freeIps = async (id: string) =>
    (await ec2.send(new DescribeSubnetsCommand({ SubnetIds: [id] }))).Subnets![0]!.AvailableIpAddressCount!;
  const scratch2 = (overrides: Partial<CreateFileSystemCommandInput> = {}): CreateFileSystemCommandInput => ({
    FileSystemType: 'LUSTRE',
    StorageCapacity: 1200,
    SubnetIds: [subnetId],
    SecurityGroupIds: [groupId],
    LustreConfiguration: { DeploymentType: 'SCRATCH_2' },
    ...overrides,
  });

  before(async () => {
    sb = await startTestSandbox();
    fsx = new FSxClient({});
    ec2 = new EC2Client({});
    vpcId = (await ec2.send(new CreateVpcCommand({ CidrBlock: '10.20.0.0/16' }))).Vpc!.VpcId!;
    subnetId = (
      await ec2.send(
        new CreateSubnetCommand({ VpcId: vpcId, CidrBlock: '10.20.1.0/24', AvailabilityZone: 'us-west-2a' }),
      )
    ).Subnet!.SubnetId!;
    otherSubnetId = (
      await ec2.send(
        new CreateSubnetCommand({ VpcId: vpcId, CidrBlock: '10.20.2.0/24', AvailabilityZone: 'us-west-2b' }),
      )
    ).Subnet!.SubnetId!;
    groupId = (
      await ec2.send(
        new CreateSecurityGroupCommand({ VpcId: vpcId, GroupName: 'lustre', Description: 'Lustre clients' }),
      )
    ).GroupId!;
  });
  after(async () => sb.dispose());

  it('creates a SCRATCH_2 file system that becomes AVAILABLE after a few minutes', async () => {
    const ipsBefore = await freeIps(subnetId);
    const { FileSystem: fs } = await fsx.send(
      new CreateFileSystemCommand(scratch2({ Tags: [{ Key: 'Name', Value: 'training-data' }] })),
    );
    assert.ok(fs);
    assert.match(fs.FileSystemId!, /^fs-[0-9a-f]{17}$/);
    assert.equal(fs.Lifecycle, 'CREATING');
    assert.equal(fs.FileSystemType, 'LUSTRE');
    assert.equal(fs.StorageCapacity, 1200);
    assert.equal(fs.StorageType, 'SSD');
    assert.equal(fs.VpcId, vpcId);
    assert.deepEqual(fs.SubnetIds, [subnetId]);
    assert.equal(fs.OwnerId, '000000000000');
    assert.equal(fs.DNSName, `${fs.FileSystemId}.fsx.us-west-2.amazonaws.com`);
    assert.equal(fs.ResourceARN, `arn:aws:fsx:us-west-2:000000000000:file-system/${fs.FileSystemId}`);
    assert.match(fs.LustreConfiguration!.MountName!, /^[a-z0-9]{8}$/);
    assert.equal(fs.LustreConfiguration!.DeploymentType, 'SCRATCH_2');
    assert.equal(fs.LustreConfiguration!.PerUnitStorageThroughput, undefined);
    assert.deepEqual(fs.Tags, [{ Key: 'Name', Value: 'training-data' }]);
    assert.equal(fs.NetworkInterfaceIds?.length, 1);
    assert.match(fs.NetworkInterfaceIds![0]!, /^eni-/);
    assert.ok(fs.CreationTime instanceof Date);
    assert.equal(await freeIps(subnetId), ipsBefore - 1);

    await sb.advance(5 * 60);
    const early = await fsx.send(new DescribeFileSystemsCommand({ FileSystemIds: [fs.FileSystemId!] }));
    assert.equal(early.FileSystems![0]!.Lifecycle, 'CREATING');
    await sb.advance(6 * 60);
    const ready = await fsx.send(new DescribeFileSystemsCommand({ FileSystemIds: [fs.FileSystemId!] }));
    assert.equal(ready.FileSystems![0]!.Lifecycle, 'AVAILABLE');
  });

  it('honours ClientRequestToken: a retry returns the same file system, other parameters are refused', async () => {
    const first = await fsx.send(new CreateFileSystemCommand(scratch2({ ClientRequestToken: 'retry-token-1' })));
    const again = await fsx.send(new CreateFileSystemCommand(scratch2({ ClientRequestToken: 'retry-token-1' })));
    assert.equal(again.FileSystem!.FileSystemId, first.FileSystem!.FileSystemId);
    await assert.rejects(
      fsx.send(new CreateFileSystemCommand(scratch2({ ClientRequestToken: 'retry-token-1', StorageCapacity: 2400 }))),
      errorName('IncompatibleParameterError'),
    );
    const all = await fsx.send(new DescribeFileSystemsCommand({}));
    assert.equal(all.FileSystems!.filter((f) => f.FileSystemId === first.FileSystem!.FileSystemId).length, 1);
  });

  it('refuses bad requests with FSx error codes and changes nothing', async () => {
    const before = await sb.inventory();
    const rejects = (input: CreateFileSystemCommandInput, code: string, message?: RegExp) =>
      assert.rejects(fsx.send(new CreateFileSystemCommand(input)), (e: Error) => {
        assert.equal(e.name, code, e.message);
        if (message) assert.match(e.message, message);
        return true;
      });
    await rejects(scratch2({ FileSystemType: 'WINDOWS' }), 'BadRequest', /FileSystemType/);
    await rejects(scratch2({ StorageCapacity: 1000 }), 'BadRequest', /StorageCapacity/);
    await rejects(scratch2({ StorageCapacity: 3600 }), 'BadRequest', /StorageCapacity/);
    await rejects(
      scratch2({ StorageCapacity: 4800, LustreConfiguration: { DeploymentType: 'SCRATCH_1' } }),
      'BadRequest',
      /StorageCapacity/,
    );
    await rejects(scratch2({ StorageCapacity: undefined }), 'BadRequest', /StorageCapacity/);
    await rejects(
      scratch2({ LustreConfiguration: { DeploymentType: 'PERSISTENT_2', PerUnitStorageThroughput: 200 } }),
      'InvalidPerUnitStorageThroughput',
    );
    await rejects(
      scratch2({ LustreConfiguration: { DeploymentType: 'PERSISTENT_1' } }),
      'BadRequest',
      /PerUnitStorageThroughput/,
    );
    await rejects(
      scratch2({ LustreConfiguration: { DeploymentType: 'SCRATCH_2', PerUnitStorageThroughput: 50 } }),
      'BadRequest',
      /PerUnitStorageThroughput/,
    );
    await rejects(
      scratch2({ LustreConfiguration: { DeploymentType: 'FAST' as never } }),
      'BadRequest',
      /deploymentType/,
    );
    await rejects(
      scratch2({ SubnetIds: ['subnet-0123456789abcdef0'] }),
      'InvalidNetworkSettings',
      /subnet-0123456789abcdef0/,
    );
    await rejects(scratch2({ SubnetIds: [subnetId, otherSubnetId] }), 'InvalidNetworkSettings', /one subnet/);
    await rejects(
      scratch2({ SecurityGroupIds: ['sg-0123456789abcdef0'] }),
      'InvalidNetworkSettings',
      /sg-0123456789abcdef0/,
    );
    await rejects(scratch2({ SubnetIds: ['not-a-subnet'] }), 'BadRequest', /subnetIds/);
    await rejects(
      scratch2({ LustreConfiguration: { DeploymentType: 'SCRATCH_2', ImportPath: 's3://no-such-bucket-fsx' } }),
      'InvalidImportPath',
    );
    assert.deepEqual(await sb.inventory(), before);

    await assert.rejects(
      fsx.send(new DescribeFileSystemsCommand({ FileSystemIds: ['fs-0123456789abcdef0'] })),
      errorName('FileSystemNotFound'),
    );
    await assert.rejects(
      fsx.send(new DeleteFileSystemCommand({ FileSystemId: 'fs-0123456789abcdef0' })),
      errorName('FileSystemNotFound'),
    );
  });

  it('creates PERSISTENT file systems with throughput, backups and an S3 data repository', async () => {
    const s3 = new S3Client({});
    await s3.send(
      new CreateBucketCommand({
        Bucket: 'fsx-import-bucket',
        CreateBucketConfiguration: { LocationConstraint: 'us-west-2' },
      }),
    );
    const { FileSystem: p1 } = await fsx.send(
      new CreateFileSystemCommand({
        FileSystemType: 'LUSTRE',
        StorageCapacity: 2400,
        SubnetIds: [subnetId],
        LustreConfiguration: {
          DeploymentType: 'PERSISTENT_1',
          PerUnitStorageThroughput: 100,
          ImportPath: 's3://fsx-import-bucket/datasets',
          AutomaticBackupRetentionDays: 7,
        },
      }),
    );
    const lustre = p1!.LustreConfiguration!;
    assert.equal(lustre.PerUnitStorageThroughput, 100);
    assert.equal(lustre.AutomaticBackupRetentionDays, 7);
    assert.match(lustre.DailyAutomaticBackupStartTime!, /^\d{2}:\d{2}$/);
    assert.equal(lustre.DataRepositoryConfiguration?.ImportPath, 's3://fsx-import-bucket/datasets');
    assert.match(lustre.DataRepositoryConfiguration!.ExportPath!, /^s3:\/\/fsx-import-bucket\/FSxLustre\d{8}T\d{6}Z$/);
    assert.match(p1!.KmsKeyId!, /^arn:aws:kms:us-west-2:000000000000:key\//);
    assert.equal(p1!.FileSystemTypeVersion, '2.10');

    const { FileSystem: p2 } = await fsx.send(
      new CreateFileSystemCommand({
        FileSystemType: 'LUSTRE',
        StorageCapacity: 4800,
        SubnetIds: [subnetId],
        LustreConfiguration: { DeploymentType: 'PERSISTENT_2', PerUnitStorageThroughput: 250 },
      }),
    );
    assert.equal(p2!.FileSystemTypeVersion, '2.12');
    assert.notEqual(p2!.LustreConfiguration!.MountName, p1!.LustreConfiguration!.MountName);
  });

  it('pages DescribeFileSystems and manages tags by ARN', async () => {
    const all = (await fsx.send(new DescribeFileSystemsCommand({}))).FileSystems!;
    assert.ok(all.length >= 3);
    const seen: string[] = [];
    let NextToken: string | undefined;
    do {
      const page = await fsx.send(new DescribeFileSystemsCommand({ MaxResults: 2, NextToken }));
      assert.ok(page.FileSystems!.length <= 2);
      seen.push(...page.FileSystems!.map((f) => f.FileSystemId!));
      NextToken = page.NextToken;
    } while (NextToken);
    assert.deepEqual(
      seen,
      all.map((f) => f.FileSystemId),
    );
    const cli = await sb.aws(['fsx', 'describe-file-systems']);
    assert.deepEqual(
      cli.json.FileSystems.map((f: { FileSystemId: string }) => f.FileSystemId),
      seen,
    );

    const ResourceARN = all[0]!.ResourceARN!;
    await fsx.send(
      new TagResourceCommand({
        ResourceARN,
        Tags: [
          { Key: 'team', Value: 'ml' },
          { Key: 'Name', Value: 'renamed' },
        ],
      }),
    );
    await fsx.send(new UntagResourceCommand({ ResourceARN, TagKeys: ['team'] }));
    const tags = await fsx.send(new ListTagsForResourceCommand({ ResourceARN }));
    assert.deepEqual(tags.Tags, [{ Key: 'Name', Value: 'renamed' }]);
    await assert.rejects(
      fsx.send(
        new ListTagsForResourceCommand({
          ResourceARN: 'arn:aws:fsx:us-west-2:000000000000:file-system/fs-0123456789abcdef0',
        }),
      ),
      errorName('ResourceNotFound'),
    );
  });

  it('deletes a file system: DELETING, then gone, and its network interface frees the subnet', async () => {
    const { FileSystem: fs } = await fsx.send(
      new CreateFileSystemCommand(scratch2({ SubnetIds: [otherSubnetId], SecurityGroupIds: [] })),
    );
    const id = fs!.FileSystemId!;
    await assert.rejects(fsx.send(new DeleteFileSystemCommand({ FileSystemId: id })), errorName('BadRequest'));
    await assert.rejects(
      ec2.send(new DeleteSubnetCommand({ SubnetId: otherSubnetId })),
      errorName('DependencyViolation'),
    );
    await sb.advance(11 * 60);

    const deleting = await fsx.send(new DeleteFileSystemCommand({ FileSystemId: id }));
    assert.equal(deleting.Lifecycle, 'DELETING');
    const described = await fsx.send(new DescribeFileSystemsCommand({ FileSystemIds: [id] }));
    assert.equal(described.FileSystems![0]!.Lifecycle, 'DELETING');
    await sb.advance(7 * 60);
    await assert.rejects(
      fsx.send(new DescribeFileSystemsCommand({ FileSystemIds: [id] })),
      errorName('FileSystemNotFound'),
    );
    await ec2.send(new DeleteSubnetCommand({ SubnetId: otherSubnetId }));
  });
});
