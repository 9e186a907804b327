import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  CreateTagsCommand,
  CreateVpcCommand,
  DescribeTagsCommand,
  DescribeVpcsCommand,
  EC2Client,
} from '@aws-sdk/client-ec2';
import {
  CreateClusterCommand as CreateEksClusterCommand,
  DeleteClusterCommand as DeleteEksClusterCommand,
  DescribeClusterCommand as DescribeEksClusterCommand,
  EKSClient,
  ListClustersCommand as ListEksClustersCommand,
} from '@aws-sdk/client-eks';
import { DescribeFileSystemsCommand, FSxClient } from '@aws-sdk/client-fsx';
import {
  CreateRoleCommand,
  DeleteRoleCommand,
  DeleteRolePolicyCommand,
  GetRoleCommand,
  GetRolePolicyCommand,
  IAMClient,
  ListRolesCommand,
  PutRolePolicyCommand,
} from '@aws-sdk/client-iam';
import {
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectCommand,
  GetBucketTaggingCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  PutBucketTaggingCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import {
  CreateClusterCommand,
  DeleteClusterCommand,
  DescribeClusterCommand,
  ListClusterNodesCommand,
  ListClustersCommand,
  SageMakerClient,
} from '@aws-sdk/client-sagemaker';
import { eventually, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { buildEksWorld, clusterInput } from './eks-fixtures.js';
import { buildPrereqs, ensureQuota, group, waitForCluster } from './sagemaker-fixtures.js';

/**
 * Names that are also members of every JavaScript object. AWS accepts most of them as resource
 * names, so the sandbox must treat them as names: not found when absent, stored and found when
 * created, never a 500 and never a corrupted state (`__proto__` set as a prototype).
 */
const PROTOTYPE_NAMES = ['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__proto__'];
const noRetry = { maxAttempts: 1 };

/** The call fails with AWS's 4xx answer (not the sandbox's 500), whatever the code. */
async function refusedAsClientError(call: Promise<unknown>, what: string, code?: RegExp): Promise<void> {
  await assert.rejects(
    call.then((answer) => assert.fail(`${what}: answered ${JSON.stringify(answer).slice(0, 300)}`)),
    (err: { name?: string; $metadata?: { httpStatusCode?: number } }) => {
      const status = err.$metadata?.httpStatusCode ?? 0;
      assert.ok(status >= 400 && status < 500, `${what}: expected a 4xx answer, got ${status} ${err.name}`);
      if (code) assert.match(err.name ?? '', code, what);
      return true;
    },
  );
}

describe('sandbox: names that are JavaScript object keys are ordinary names', () => {
  let sb: TestSandbox;
  before(async () => {
    sb = await startTestSandbox({ speed: 1 });
  });
  after(() => sb.dispose());

  it('reads of absent resources with such names answer not-found in each service', async () => {
    const eks = new EKSClient(noRetry);
    const sm = new SageMakerClient(noRetry);
    const iam = new IAMClient(noRetry);
    const s3 = new S3Client(noRetry);
    const ec2 = new EC2Client(noRetry);
    const fsx = new FSxClient(noRetry);
    for (const name of PROTOTYPE_NAMES) {
      await refusedAsClientError(eks.send(new DescribeEksClusterCommand({ name })), `eks describe-cluster ${name}`);
      await refusedAsClientError(
        sm.send(new DescribeClusterCommand({ ClusterName: name })),
        `sagemaker describe-cluster ${name}`,
      );
      await refusedAsClientError(
        sm.send(new ListClusterNodesCommand({ ClusterName: name })),
        `sagemaker list-cluster-nodes ${name}`,
      );
      await refusedAsClientError(
        iam.send(new GetRoleCommand({ RoleName: name })),
        `iam get-role ${name}`,
        /NoSuchEntity/,
      );
      await refusedAsClientError(
        s3.send(new HeadBucketCommand({ Bucket: name.toLowerCase() })),
        `s3 head-bucket ${name}`,
      );
      await refusedAsClientError(ec2.send(new DescribeVpcsCommand({ VpcIds: [name] })), `ec2 describe-vpcs ${name}`);
      await refusedAsClientError(
        fsx.send(new DescribeFileSystemsCommand({ FileSystemIds: [name] })),
        `fsx describe-file-systems ${name}`,
      );
    }
    const eksDescribe = await sb.aws(['eks', 'describe-cluster', '--name', 'constructor'], { allowFailure: true });
    assert.match(eksDescribe.stderr, /ResourceNotFoundException/, "the aws CLI gets EKS's own not-found error");
  });

  it('IAM stores roles and inline policies under such names, lists and deletes them', async () => {
    const iam = new IAMClient({});
    const trust = JSON.stringify({
      Version: '2012-10-17',
      Statement: [{ Effect: 'Allow', Principal: { Service: 'eks.amazonaws.com' }, Action: 'sts:AssumeRole' }],
    });
    const names = ['constructor', 'toString', '__proto__'];
    for (const name of names)
      await iam.send(new CreateRoleCommand({ RoleName: name, AssumeRolePolicyDocument: trust }));
    for (const name of names)
      assert.equal((await iam.send(new GetRoleCommand({ RoleName: name }))).Role?.RoleName, name);
    const listed = (await iam.send(new ListRolesCommand({}))).Roles!.map((r) => r.RoleName);
    for (const name of names) assert.ok(listed.includes(name), `${name} is listed`);
    const policy = JSON.stringify({
      Version: '2012-10-17',
      Statement: [{ Effect: 'Allow', Action: 's3:GetObject', Resource: '*' }],
    });
    await iam.send(
      new PutRolePolicyCommand({ RoleName: 'constructor', PolicyName: '__proto__', PolicyDocument: policy }),
    );
    const got = await iam.send(new GetRolePolicyCommand({ RoleName: 'constructor', PolicyName: '__proto__' }));
    assert.equal(got.PolicyName, '__proto__');
    await iam.send(new DeleteRolePolicyCommand({ RoleName: 'constructor', PolicyName: '__proto__' }));
    for (const name of names) await iam.send(new DeleteRoleCommand({ RoleName: name }));
    for (const name of names)
      await refusedAsClientError(
        iam.send(new GetRoleCommand({ RoleName: name })),
        `deleted role ${name}`,
        /NoSuchEntity/,
      );
  });

  it('S3 keeps a bucket named constructor with objects and a tag keyed __proto__', async () => {
    const s3 = new S3Client({});
    await s3.send(
      new CreateBucketCommand({
        Bucket: 'constructor',
        CreateBucketConfiguration: { LocationConstraint: 'us-west-2' },
      }),
    );
    for (const key of ['__proto__', 'constructor'])
      await s3.send(new PutObjectCommand({ Bucket: 'constructor', Key: key, Body: `body of ${key}` }));
    const keys = (await s3.send(new ListObjectsV2Command({ Bucket: 'constructor' }))).Contents!.map((o) => o.Key);
    assert.deepEqual(keys.sort(), ['__proto__', 'constructor']);
    const body = await (
      await s3.send(new GetObjectCommand({ Bucket: 'constructor', Key: '__proto__' }))
    ).Body!.transformToString();
    assert.equal(body, 'body of __proto__');
    await s3.send(
      new PutBucketTaggingCommand({
        Bucket: 'constructor',
        Tagging: { TagSet: [{ Key: '__proto__', Value: 'kept' }] },
      }),
    );
    assert.deepEqual((await s3.send(new GetBucketTaggingCommand({ Bucket: 'constructor' }))).TagSet, [
      { Key: '__proto__', Value: 'kept' },
    ]);
    for (const key of ['__proto__', 'constructor'])
      await s3.send(new DeleteObjectCommand({ Bucket: 'constructor', Key: key }));
    await s3.send(new DeleteBucketCommand({ Bucket: 'constructor' }));
  });

  it('EC2 tags keyed __proto__ are stored, described and filtered on', async () => {
    const ec2 = new EC2Client({});
    const vpcId = (await ec2.send(new CreateVpcCommand({ CidrBlock: '10.9.0.0/16' }))).Vpc!.VpcId!;
    await ec2.send(
      new CreateTagsCommand({
        Resources: [vpcId],
        Tags: [
          { Key: '__proto__', Value: 'kept' },
          { Key: 'constructor', Value: 'too' },
        ],
      }),
    );
    const tags = (
      await ec2.send(new DescribeTagsCommand({ Filters: [{ Name: 'resource-id', Values: [vpcId] }] }))
    ).Tags!.map((t) => `${t.Key}=${t.Value}`);
    assert.deepEqual(tags.sort(), ['__proto__=kept', 'constructor=too']);
    const byTag = await ec2.send(new DescribeVpcsCommand({ Filters: [{ Name: 'tag:__proto__', Values: ['kept'] }] }));
    assert.deepEqual(
      byTag.Vpcs!.map((v) => v.VpcId),
      [vpcId],
    );
    const other = await ec2.send(new DescribeVpcsCommand({ Filters: [{ Name: 'tag:toString', Values: ['*'] }] }));
    assert.deepEqual(other.Vpcs, [], 'no VPC has a tag named toString');
    for (const name of PROTOTYPE_NAMES) {
      await refusedAsClientError(
        new EC2Client(noRetry).send(new DescribeVpcsCommand({ Filters: [{ Name: name, Values: ['x'] }] })),
        `ec2 filter ${name}`,
        /InvalidParameterValue/,
      );
    }
  });

  it('EKS creates, tags, lists and deletes a cluster named constructor', async () => {
    const world = await buildEksWorld('proto');
    const eks = new EKSClient({});
    await eks.send(new CreateEksClusterCommand(clusterInput(world, 'constructor')));
    const described = await eks.send(new DescribeEksClusterCommand({ name: 'constructor' }));
    assert.equal(described.cluster?.status, 'CREATING');
    assert.ok((await eks.send(new ListEksClustersCommand({}))).clusters!.includes('constructor'));
    await sb.aws([
      'eks',
      'tag-resource',
      '--resource-arn',
      described.cluster!.arn!,
      '--tags',
      'constructor=kept,toString=too',
    ]);
    const listed = await sb.aws(['eks', 'list-tags-for-resource', '--resource-arn', described.cluster!.arn!]);
    assert.deepEqual(listed.json.tags, { constructor: 'kept', toString: 'too' });
    await refusedAsClientError(
      eks.send(new DescribeEksClusterCommand({ name: 'toString' })),
      'eks describe-cluster toString next to constructor',
    );
    await eventually(
      async () => (await eks.send(new DescribeEksClusterCommand({ name: 'constructor' }))).cluster?.status === 'ACTIVE',
      { sandbox: sb, stepSeconds: 120, what: 'constructor ACTIVE' },
    );
    await eks.send(new DeleteEksClusterCommand({ name: 'constructor' }));
    await eventually(async () => !(await eks.send(new ListEksClustersCommand({}))).clusters!.includes('constructor'), {
      sandbox: sb,
      stepSeconds: 120,
      what: 'constructor deleted',
    });
  });

  it('HyperPod creates, describes, lists and deletes a cluster named constructor', async () => {
    const p = await buildPrereqs(sb, 'protohp');
    await ensureQuota(sb, 'ml.g5.8xlarge for cluster usage', 1);
    const sm = new SageMakerClient({});
    await sm.send(
      new CreateClusterCommand({
        ClusterName: 'constructor',
        InstanceGroups: [group(p, 'workers', 'ml.g5.8xlarge', 1)],
        VpcConfig: { SecurityGroupIds: [p.securityGroupId], Subnets: [p.privateSubnets[0]!] },
        Orchestrator: { Eks: { ClusterArn: p.eksClusterArn } },
      }),
    );
    await waitForCluster(sb, 'constructor', 'InService');
    assert.ok(
      (await sm.send(new ListClustersCommand({}))).ClusterSummaries!.some((c) => c.ClusterName === 'constructor'),
    );
    await refusedAsClientError(
      new SageMakerClient(noRetry).send(new DescribeClusterCommand({ ClusterName: 'valueOf' })),
      'valueOf next to constructor',
    );
    await sm.send(new DeleteClusterCommand({ ClusterName: 'constructor' }));
    await eventually(
      async () =>
        !(await sm.send(new ListClustersCommand({}))).ClusterSummaries!.some((c) => c.ClusterName === 'constructor'),
      { sandbox: sb, stepSeconds: 60, what: 'constructor deleted' },
    );
  });

  it('the state file keeps such names across a restart and stays sound', async () => {
    const trust = JSON.stringify({
      Version: '2012-10-17',
      Statement: [{ Effect: 'Allow', Principal: { Service: 'eks.amazonaws.com' }, Action: 'sts:AssumeRole' }],
    });
    await new IAMClient({}).send(new CreateRoleCommand({ RoleName: '__proto__', AssumeRolePolicyDocument: trust }));
    const inventory = await sb.inventory();
    await sb.stop();
    sb = await startTestSandbox({ stateDir: sb.stateDir });
    assert.deepEqual(await sb.inventory(), inventory);
    assert.equal(
      (await new IAMClient({}).send(new GetRoleCommand({ RoleName: '__proto__' }))).Role?.RoleName,
      '__proto__',
    );
    await refusedAsClientError(
      new IAMClient(noRetry).send(new GetRoleCommand({ RoleName: 'constructor' })),
      'a role never created',
      /NoSuchEntity/,
    );
  });
});
