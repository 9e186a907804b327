import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  DeleteSubnetCommand,
  DescribeNetworkInterfacesCommand,
  DescribeSecurityGroupsCommand,
  EC2Client,
} from '@aws-sdk/client-ec2';
import {
  CreateClusterCommand,
  DeleteClusterCommand,
  DescribeClusterCommand,
  DescribeClusterVersionsCommand,
  DescribeUpdateCommand,
  EKSClient,
  ListAccessEntriesCommand,
  ListAssociatedAccessPoliciesCommand,
  ListClustersCommand,
  ListTagsForResourceCommand,
  ListUpdatesCommand,
  TagResourceCommand,
  UntagResourceCommand,
  UpdateClusterConfigCommand,
} from '@aws-sdk/client-eks';
import { eventually, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { activeCluster, buildEksWorld, clusterInput, type EksWorld } from './eks-fixtures.js';

describe('EKS clusters through the SDK', () => {
  let sb: TestSandbox;
  let world: EksWorld;
  const eks = () => new EKSClient({});
  before(async () => {
    sb = await startTestSandbox();
    world = await buildEksWorld('clu');
  });
  after(async () => sb.dispose());

  it('creates a cluster that is CREATING, then ACTIVE after 8–12 sandbox minutes, with AWS-shaped fields', async () => {
    const created = await eks().send(
      new CreateClusterCommand(
        clusterInput(world, 'alpha', {
          tags: { team: 'ml' },
          logging: { clusterLogging: [{ types: ['api', 'audit'], enabled: true }] },
        }),
      ),
    );
    assert.equal(created.cluster?.status, 'CREATING');
    assert.equal(created.cluster?.endpoint, undefined, 'no endpoint while CREATING');
    assert.deepEqual(created.cluster?.certificateAuthority, {}, 'no CA data while CREATING');
    await sb.advance(7 * 60);
    assert.equal((await eks().send(new DescribeClusterCommand({ name: 'alpha' }))).cluster?.status, 'CREATING');
    await sb.advance(6 * 60);
    const c = (await eks().send(new DescribeClusterCommand({ name: 'alpha' }))).cluster!;
    assert.equal(c.status, 'ACTIVE');
    assert.equal(c.arn, 'arn:aws:eks:us-west-2:000000000000:cluster/alpha');
    assert.match(
      c.endpoint!,
      /^https:\/\/127\.0\.0\.1:\d+\/k8s\/[0-9a-f]{32}$/,
      'the sandbox serves the Kubernetes API on its own port',
    );
    assert.match(c.identity!.oidc!.issuer!, /^https:\/\/oidc\.eks\.us-west-2\.amazonaws\.com\/id\/[0-9A-F]{32}$/);
    assert.equal(c.version, '1.35');
    assert.match(c.platformVersion!, /^eks\.\d+$/);
    assert.equal(c.resourcesVpcConfig?.vpcId, world.vpcId);
    assert.deepEqual(c.resourcesVpcConfig?.subnetIds, [world.subnetA, world.subnetB]);
    assert.match(c.resourcesVpcConfig!.clusterSecurityGroupId!, /^sg-/);
    assert.equal(
      c.kubernetesNetworkConfig?.serviceIpv4Cidr,
      '172.20.0.0/16',
      'a 10/8 VPC gets the 172.20 service range',
    );
    assert.deepEqual(c.accessConfig, {
      authenticationMode: 'API_AND_CONFIG_MAP',
      bootstrapClusterCreatorAdminPermissions: true,
    });
    assert.deepEqual(c.logging?.clusterLogging?.[0], { types: ['api', 'audit'], enabled: true });
    assert.deepEqual(c.tags, { team: 'ml' });
    assert.deepEqual(c.health?.issues, []);
    assert.ok(c.createdAt instanceof Date);
    const caPem = Buffer.from(c.certificateAuthority!.data!, 'base64').toString();
    assert.equal(
      caPem,
      readFileSync(join(sb.stateDir, 'ca', 'ca.crt'), 'utf8'),
      'the sandbox CA, kept in the state directory',
    );
  });

  it('makes the cluster security group and two control-plane ENIs in EC2', async () => {
    const c = (await eks().send(new DescribeClusterCommand({ name: 'alpha' }))).cluster!;
    const ec2 = new EC2Client({});
    const sgs = await ec2.send(
      new DescribeSecurityGroupsCommand({ GroupIds: [c.resourcesVpcConfig!.clusterSecurityGroupId!] }),
    );
    assert.match(sgs.SecurityGroups![0]!.GroupName!, /^eks-cluster-sg-alpha-\d+$/);
    const enis = await ec2.send(
      new DescribeNetworkInterfacesCommand({ Filters: [{ Name: 'description', Values: ['Amazon EKS alpha'] }] }),
    );
    assert.equal(enis.NetworkInterfaces?.length, 2);
    assert.deepEqual(new Set(enis.NetworkInterfaces!.map((n) => n.SubnetId)), new Set([world.subnetA, world.subnetB]));
    await assert.rejects(
      ec2.send(new DeleteSubnetCommand({ SubnetId: world.subnetA })),
      (e: Error) => e.name === 'DependencyViolation',
    );
  });

  it('gives the creator a cluster-admin access entry when the mode includes API', async () => {
    const entries = await eks().send(new ListAccessEntriesCommand({ clusterName: 'alpha' }));
    assert.deepEqual(entries.accessEntries, ['arn:aws:iam::000000000000:user/sandbox-admin']);
    const policies = await eks().send(
      new ListAssociatedAccessPoliciesCommand({
        clusterName: 'alpha',
        principalArn: 'arn:aws:iam::000000000000:user/sandbox-admin',
      }),
    );
    assert.equal(
      policies.associatedAccessPolicies?.[0]?.policyArn,
      'arn:aws:eks::aws:cluster-access-policy/AmazonEKSClusterAdminPolicy',
    );
    assert.equal(policies.associatedAccessPolicies?.[0]?.accessScope?.type, 'cluster');
  });

  it('lists clusters with paging and tags them by ARN', async () => {
    await eks().send(new CreateClusterCommand(clusterInput(world, 'beta')));
    const first = await eks().send(new ListClustersCommand({ maxResults: 1 }));
    assert.deepEqual(first.clusters, ['alpha']);
    const second = await eks().send(new ListClustersCommand({ maxResults: 1, nextToken: first.nextToken }));
    assert.deepEqual(second.clusters, ['beta']);
    assert.equal(second.nextToken, undefined);
    const arn = 'arn:aws:eks:us-west-2:000000000000:cluster/alpha';
    await eks().send(new TagResourceCommand({ resourceArn: arn, tags: { stage: 'dev' } }));
    await eks().send(new UntagResourceCommand({ resourceArn: arn, tagKeys: ['team'] }));
    assert.deepEqual((await eks().send(new ListTagsForResourceCommand({ resourceArn: arn }))).tags, { stage: 'dev' });
  });

  it('moves the authentication mode forward through an update, and never back', async () => {
    const { update } = await eks().send(
      new UpdateClusterConfigCommand({ name: 'alpha', accessConfig: { authenticationMode: 'API' } }),
    );
    assert.equal(update?.status, 'InProgress');
    assert.equal(update?.type, 'AccessConfigUpdate');
    assert.equal((await eks().send(new DescribeClusterCommand({ name: 'alpha' }))).cluster?.status, 'UPDATING');
    await sb.advance(180);
    const done = await eks().send(new DescribeUpdateCommand({ name: 'alpha', updateId: update!.id! }));
    assert.equal(done.update?.status, 'Successful');
    const c = (await eks().send(new DescribeClusterCommand({ name: 'alpha' }))).cluster!;
    assert.equal(c.status, 'ACTIVE');
    assert.equal(c.accessConfig?.authenticationMode, 'API');
    assert.deepEqual((await eks().send(new ListUpdatesCommand({ name: 'alpha' }))).updateIds, [update!.id]);
    await assert.rejects(
      eks().send(
        new UpdateClusterConfigCommand({ name: 'alpha', accessConfig: { authenticationMode: 'API_AND_CONFIG_MAP' } }),
      ),
      (e: Error) => e.name === 'InvalidParameterException',
    );
  });

  it('updates logging through an update that lands after it succeeds', async () => {
    const { update } = await eks().send(
      new UpdateClusterConfigCommand({
        name: 'alpha',
        logging: { clusterLogging: [{ types: ['scheduler'], enabled: true }] },
      }),
    );
    assert.equal(update?.type, 'LoggingUpdate');
    await sb.advance(180);
    const c = (await eks().send(new DescribeClusterCommand({ name: 'alpha' }))).cluster!;
    assert.deepEqual(c.logging?.clusterLogging?.[0], { types: ['api', 'audit', 'scheduler'], enabled: true });
  });

  it('refuses to delete a CREATING cluster, then deletes an ACTIVE one with its ENIs and security group', async () => {
    await assert.rejects(
      eks().send(new DeleteClusterCommand({ name: 'beta' })),
      (e: Error) => e.name === 'ResourceInUseException',
    );
    await eventually(
      async () => (await eks().send(new DescribeClusterCommand({ name: 'beta' }))).cluster?.status === 'ACTIVE',
      { sandbox: sb, stepSeconds: 120 },
    );
    const sgId = (await eks().send(new DescribeClusterCommand({ name: 'beta' }))).cluster!.resourcesVpcConfig!
      .clusterSecurityGroupId!;
    const deleting = await eks().send(new DeleteClusterCommand({ name: 'beta' }));
    assert.equal(deleting.cluster?.status, 'DELETING');
    await sb.advance(6 * 60);
    await assert.rejects(
      eks().send(new DescribeClusterCommand({ name: 'beta' })),
      (e: Error & { clusterName?: string; $metadata?: { httpStatusCode?: number } }) => {
        return (
          e.name === 'ResourceNotFoundException' && e.clusterName === 'beta' && e.$metadata?.httpStatusCode === 404
        );
      },
    );
    const ec2 = new EC2Client({});
    const enis = await ec2.send(
      new DescribeNetworkInterfacesCommand({ Filters: [{ Name: 'description', Values: ['Amazon EKS beta'] }] }),
    );
    assert.equal(enis.NetworkInterfaces?.length, 0);
    await assert.rejects(ec2.send(new DescribeSecurityGroupsCommand({ GroupIds: [sgId] })));
  });

  it('makes the cluster FAILED with the fault message when a create-failure fault is set', async () => {
    const r = await sb.admin('/_sandbox/faults', {
      method: 'POST',
      body: {
        type: 'create-failure',
        service: 'eks',
        name: 'doomed',
        message: 'Control plane could not be provisioned',
      },
    });
    assert.equal(r.status < 300, true);
    await eks().send(new CreateClusterCommand(clusterInput(world, 'doomed')));
    await sb.advance(13 * 60);
    const c = (await eks().send(new DescribeClusterCommand({ name: 'doomed' }))).cluster!;
    assert.equal(c.status, 'FAILED');
    assert.equal(c.health?.issues?.[0]?.message, 'Control plane could not be provisioned');
  });

  it('returns the first cluster for a repeated clientRequestToken instead of creating a second', async () => {
    const input = clusterInput(world, 'gamma', { clientRequestToken: 'token-gamma-1' });
    const a = await eks().send(new CreateClusterCommand(input));
    const b = await eks().send(new CreateClusterCommand(input));
    assert.equal(a.cluster?.arn, b.cluster?.arn);
    const calls = await sb.calls({ service: 'eks', operation: 'CreateCluster' });
    assert.equal(calls.filter((x) => x.status === 200).length >= 2, true);
    const inv = await sb.inventory();
    assert.equal(inv.eks!.clusters!.filter((x) => (x as { name: string }).name === 'gamma').length, 1);
  });

  it('lists the supported Kubernetes versions, newest standard-support one as default', async () => {
    const out = await eks().send(new DescribeClusterVersionsCommand({}));
    const versions = out.clusterVersions!.map((v) => v.clusterVersion);
    assert.ok(versions.includes('1.33') && versions.includes('1.35'));
    const def = out.clusterVersions!.filter((v) => v.defaultVersion);
    assert.deepEqual(
      def.map((v) => v.clusterVersion),
      ['1.35'],
    );
    assert.equal(def[0]!.versionStatus, 'STANDARD_SUPPORT');
    assert.ok(def[0]!.endOfStandardSupportDate instanceof Date);
    const only = await eks().send(new DescribeClusterVersionsCommand({ clusterVersions: ['1.33'] }));
    assert.deepEqual(
      only.clusterVersions!.map((v) => v.clusterVersion),
      ['1.33'],
    );
  });
});
