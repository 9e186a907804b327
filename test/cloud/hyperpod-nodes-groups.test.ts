import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CreateClusterCommand, DescribeClusterCommand, SageMakerClient } from '@aws-sdk/client-sagemaker';
import { AwsClients } from '../../src/cloud/aws/clients.js';
import { HyperPodGroupsAdapter } from '../../src/cloud/aws/hyperpod-groups.js';
import { HyperPodNodesAdapter } from '../../src/cloud/aws/hyperpod-nodes.js';
import type { HyperPodGroupSpecification } from '../../src/cloud/ports.js';
import { NODE_ACTION_BATCH_LIMITS as NODE_BATCH_LIMITS } from '../../src/domain/instance-groups.js';
import { eventually, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { buildPrereqs, group, waitForCluster } from '../sandbox/sagemaker-fixtures.js';

describe('HyperPod nodes adapter against the sandbox', () => {
  let sb: TestSandbox;
  const nodes = new HyperPodNodesAdapter(new AwsClients({ defaultRegion: 'us-west-2' }));
  before(async () => {
    sb = await startTestSandbox({ speed: 600 });
    const p = await buildPrereqs(sb, 'nodes');
    await new SageMakerClient({}).send(
      new CreateClusterCommand({
        ClusterName: 'fleet',
        InstanceGroups: [group(p, 'workers', 'ml.c5.xlarge', 3)],
        VpcConfig: { SecurityGroupIds: [p.securityGroupId], Subnets: p.privateSubnets },
        Orchestrator: { Eks: { ClusterArn: p.eksClusterArn } },
        NodeRecovery: 'Automatic',
        NodeProvisioningMode: 'Continuous',
      }),
    );
    await waitForCluster(sb, 'fleet', 'InService');
    await eventually(
      async () =>
        (await nodes.listAll('us-west-2', 'fleet')).filter((n) => n.InstanceStatus?.Status === 'Running').length === 3,
      { sandbox: sb, stepSeconds: 60, what: 'three running nodes' },
    );
  });
  after(() => sb?.dispose());

  it('pages through ListClusterNodes and describes a node', async () => {
    const first = await nodes.listPage('us-west-2', 'fleet', { maxResults: 2 });
    assert.equal(first.nodes.length, 2);
    assert.ok(first.nextToken);
    const all = await nodes.listAll('us-west-2', 'fleet');
    assert.equal(all.length, 3);
    const detail = await nodes.describe('us-west-2', 'fleet', all[0]!.InstanceId!);
    assert.equal(detail?.InstanceGroupName, 'workers');
    assert.equal(await nodes.describe('us-west-2', 'fleet', 'i-0000000000000000f'), undefined);
  });

  it('reboots in batches and reports each node, failures included', async () => {
    const ids = (await nodes.listAll('us-west-2', 'fleet')).map((n) => n.InstanceId!);
    const results = await nodes.reboot('us-west-2', 'fleet', [ids[0]!, 'i-0123456789abcdef0']);
    assert.deepEqual(results.find((r) => r.nodeId === ids[0])?.ok, true);
    const missing = results.find((r) => r.nodeId === 'i-0123456789abcdef0');
    assert.equal(missing?.ok, false);
    assert.ok(missing?.code, "the failure keeps HyperPod's code");
    assert.equal(NODE_BATCH_LIMITS.reboot, 25);
  });

  it('lists cluster events newest first', async () => {
    const { events } = await nodes.events('us-west-2', 'fleet');
    assert.ok(events.length > 0);
    const times = events.map((e) => e.EventTime!.getTime());
    assert.deepEqual(
      times,
      [...times].sort((a, b) => b - a),
    );
  });
});

describe('HyperPod instance groups adapter against the sandbox', () => {
  let sb: TestSandbox;
  const clients = new AwsClients({ defaultRegion: 'us-west-2' });
  const groups = new HyperPodGroupsAdapter(clients);
  const sm = () => new SageMakerClient({});
  let p: Awaited<ReturnType<typeof buildPrereqs>>;
  before(async () => {
    sb = await startTestSandbox({ speed: 600 });
    p = await buildPrereqs(sb, 'groups');
    await sm().send(
      new CreateClusterCommand({
        ClusterName: 'grow',
        InstanceGroups: [group(p, 'workers', 'ml.c5.xlarge', 1)],
        VpcConfig: { SecurityGroupIds: [p.securityGroupId], Subnets: p.privateSubnets },
        Orchestrator: { Eks: { ClusterArn: p.eksClusterArn } },
        NodeProvisioningMode: 'Continuous',
      }),
    );
    await waitForCluster(sb, 'grow', 'InService');
  });
  after(() => sb?.dispose());

  it('adds a group, adds nodes with an idempotent client token, and deletes the group', async () => {
    // The port's own specification (what group() makes for the SDK): the adapter maps it to SageMaker's.
    const extra: HyperPodGroupSpecification = {
      InstanceGroupName: 'extra',
      InstanceType: 'ml.c5.xlarge',
      InstanceCount: 1,
      ExecutionRole: p.executionRoleArn,
    };
    await groups.putGroups('us-west-2', 'grow', [extra]);
    const added = await eventually(
      async () => {
        const c = await sm().send(new DescribeClusterCommand({ ClusterName: 'grow' }));
        return c.ClusterStatus === 'InService' && c.InstanceGroups?.find((g) => g.InstanceGroupName === 'extra');
      },
      { sandbox: sb, stepSeconds: 60, what: 'group extra' },
    );
    assert.equal(added.TargetCount, 1);
    const first = await groups.addNodes('us-west-2', 'grow', 'extra', 2, 'scale-extra-1');
    assert.equal(first.Failed?.length ?? 0, 0);
    await groups.addNodes('us-west-2', 'grow', 'extra', 2, 'scale-extra-1');
    const c = await sm().send(new DescribeClusterCommand({ ClusterName: 'grow' }));
    assert.equal(
      c.InstanceGroups?.find((g) => g.InstanceGroupName === 'extra')?.TargetCount,
      3,
      'the repeated token added nothing',
    );
    await eventually(
      async () => (await sm().send(new DescribeClusterCommand({ ClusterName: 'grow' }))).ClusterStatus === 'InService',
      { sandbox: sb, stepSeconds: 60 },
    );
    await groups.deleteGroups('us-west-2', 'grow', ['extra']);
    await eventually(
      async () => {
        const d = await sm().send(new DescribeClusterCommand({ ClusterName: 'grow' }));
        return !d.InstanceGroups?.some((g) => g.InstanceGroupName === 'extra');
      },
      { sandbox: sb, stepSeconds: 60, what: 'group extra gone' },
    );
  });
});
