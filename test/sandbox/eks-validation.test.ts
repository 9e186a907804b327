import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  CreateClusterCommand,
  DescribeClusterCommand,
  EKSClient,
  type CreateClusterCommandInput,
} from '@aws-sdk/client-eks';
import { CreateRoleCommand, IAMClient } from '@aws-sdk/client-iam';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { buildEksWorld, clusterInput, type EksWorld } from './eks-fixtures.js';

describe('EKS input validation and the aws CLI', () => {
  let sb: TestSandbox;
  let world: EksWorld;
  const eks = () => new EKSClient({});
  before(async () => {
    sb = await startTestSandbox();
    world = await buildEksWorld('val');
  });
  after(async () => sb.dispose());

  /** The request fails with `code` (and a message matching `message`), and no resource anywhere changes. */
  async function refused(input: CreateClusterCommandInput, code: string, message: RegExp): Promise<void> {
    const before = await sb.inventory();
    await assert.rejects(
      eks().send(new CreateClusterCommand(input)),
      (e: Error & { $metadata?: { httpStatusCode?: number } }) => {
        assert.equal(e.name, code);
        assert.match(e.message, message);
        assert.equal(e.$metadata?.httpStatusCode, 400);
        return true;
      },
    );
    assert.deepEqual(await sb.inventory(), before);
  }

  it('refuses a missing name', async () => {
    const input = clusterInput(world, 'x') as Partial<CreateClusterCommandInput>;
    delete input.name;
    await refused(input as CreateClusterCommandInput, 'InvalidParameterException', /'name'.*must not be null/);
  });

  it('refuses a name that breaks the pattern', async () => {
    await refused(clusterInput(world, '-bad name'), 'InvalidParameterException', /'name'.*regular expression/);
  });

  it('refuses an authenticationMode outside the enum', async () => {
    await refused(
      clusterInput(world, 'enum', { accessConfig: { authenticationMode: 'IAM' as never } }),
      'InvalidParameterException',
      /accessConfig\.authenticationMode.*enum/,
    );
  });

  it('refuses subnets that are all in one Availability Zone', async () => {
    await refused(
      clusterInput(world, 'one-az', { resourcesVpcConfig: { subnetIds: [world.subnetA, world.subnetA2] } }),
      'InvalidParameterException',
      /at least two different AZs/,
    );
  });

  it('refuses a subnet that does not exist', async () => {
    await refused(
      clusterInput(world, 'ghost-subnet', {
        resourcesVpcConfig: { subnetIds: [world.subnetA, 'subnet-0123456789abcdef0'] },
      }),
      'InvalidParameterException',
      /subnet-0123456789abcdef0/,
    );
  });

  it('refuses a role that does not exist, and one that does not trust eks.amazonaws.com', async () => {
    await refused(
      clusterInput(world, 'no-role', { roleArn: 'arn:aws:iam::000000000000:role/missing' }),
      'InvalidParameterException',
      /role\/missing/,
    );
    const iam = new IAMClient({});
    const ec2Role = await iam.send(
      new CreateRoleCommand({
        RoleName: 'ec2-only',
        AssumeRolePolicyDocument: JSON.stringify({
          Version: '2012-10-17',
          Statement: [{ Effect: 'Allow', Principal: { Service: 'ec2.amazonaws.com' }, Action: 'sts:AssumeRole' }],
        }),
      }),
    );
    await refused(
      clusterInput(world, 'wrong-trust', { roleArn: ec2Role.Role!.Arn! }),
      'InvalidParameterException',
      /eks\.amazonaws\.com/,
    );
  });

  it('refuses an unsupported Kubernetes version and a CONFIG_MAP cluster without creator admin', async () => {
    await refused(
      clusterInput(world, 'old', { version: '1.20' }),
      'InvalidParameterException',
      /unsupported Kubernetes version 1\.20/,
    );
    await refused(
      clusterInput(world, 'no-admin', {
        accessConfig: { authenticationMode: 'CONFIG_MAP', bootstrapClusterCreatorAdminPermissions: false },
      }),
      'InvalidParameterException',
      /bootstrapClusterCreatorAdminPermissions/,
    );
  });

  it('refuses a service CIDR that overlaps the VPC', async () => {
    await refused(
      clusterInput(world, 'overlap', { kubernetesNetworkConfig: { serviceIpv4Cidr: '10.0.0.0/16' } }),
      'InvalidParameterException',
      /overlaps/,
    );
  });

  it('refuses a duplicate name with ResourceInUseException (409)', async () => {
    await eks().send(new CreateClusterCommand(clusterInput(world, 'dup')));
    await assert.rejects(
      eks().send(new CreateClusterCommand(clusterInput(world, 'dup'))),
      (e: Error & { $metadata?: { httpStatusCode?: number } }) => {
        return e.name === 'ResourceInUseException' && e.$metadata?.httpStatusCode === 409;
      },
    );
  });

  it('works with the real aws CLI: create-cluster, then describe-cluster until ACTIVE', async () => {
    const created = await sb.aws([
      'eks',
      'create-cluster',
      '--name',
      'cli-cluster',
      '--role-arn',
      world.clusterRoleArn,
      '--resources-vpc-config',
      `subnetIds=${world.subnetA},${world.subnetB},securityGroupIds=${world.securityGroupId}`,
      '--access-config',
      'authenticationMode=API',
      '--kubernetes-version',
      '1.33',
    ]);
    assert.equal(created.json.cluster.status, 'CREATING');
    let cluster:
      | {
          status: string;
          endpoint?: string;
          arn: string;
          version: string;
          accessConfig: { authenticationMode: string };
          identity: { oidc: { issuer: string } };
        }
      | undefined;
    for (let i = 0; i < 10; i++) {
      cluster = (await sb.aws(['eks', 'describe-cluster', '--name', 'cli-cluster'])).json.cluster;
      if (cluster!.status === 'ACTIVE') break;
      await sb.advance(120);
    }
    assert.equal(cluster?.status, 'ACTIVE');
    assert.equal(cluster?.arn, 'arn:aws:eks:us-west-2:000000000000:cluster/cli-cluster');
    assert.equal(cluster?.version, '1.33');
    assert.equal(cluster?.accessConfig.authenticationMode, 'API');
    assert.match(cluster!.endpoint!, /^https:\/\/127\.0\.0\.1:\d+\/k8s\/[0-9a-f]{32}$/);
    assert.match(cluster!.identity.oidc.issuer, /^https:\/\/oidc\.eks\.us-west-2\.amazonaws\.com\/id\/[0-9A-F]{32}$/);
    const described = await eks().send(new DescribeClusterCommand({ name: 'cli-cluster' }));
    assert.equal(described.cluster?.status, 'ACTIVE');
  });

  it('reports the real error code to the aws CLI', async () => {
    const r = await sb.aws(
      [
        'eks',
        'create-cluster',
        '--name',
        'cli-bad',
        '--role-arn',
        world.clusterRoleArn,
        '--resources-vpc-config',
        `subnetIds=${world.subnetA},${world.subnetA2}`,
      ],
      { allowFailure: true },
    );
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /InvalidParameterException/);
    assert.match(r.stderr, /at least two different AZs/);
  });
});
