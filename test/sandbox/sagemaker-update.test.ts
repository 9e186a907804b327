import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  AddTagsCommand,
  BatchAddClusterNodesCommand,
  BatchDeleteClusterNodesCommand,
  BatchRebootClusterNodesCommand,
  BatchReplaceClusterNodesCommand,
  CreateClusterCommand,
  DescribeClusterCommand,
  DeleteTagsCommand,
  DescribeClusterNodeCommand,
  ListClusterEventsCommand,
  ListClustersCommand,
  ListTagsCommand,
  ListClusterNodesCommand,
  SageMakerClient,
  StartClusterHealthCheckCommand,
  UpdateClusterCommand,
  type ClusterInstanceGroupSpecification,
} from '@aws-sdk/client-sagemaker';
import { listHyperPodNodes, requestNodeRecovery } from '../../sandbox/services/sagemaker/public.js';
import { eventually, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import {
  buildPrereqs,
  ensureQuota,
  group,
  inventoryJson,
  waitForCluster,
  type HyperPodPrereqs,
} from './sagemaker-fixtures.js';

const GPU = 'ml.g5.8xlarge';
const CPU = 'ml.m5.xlarge';

describe('SageMaker HyperPod: updates, node operations and node recovery', () => {
  let sb: TestSandbox;
  let p: HyperPodPrereqs;
  const sm = new SageMakerClient({});
  const workers = (count: number, extra: Partial<ClusterInstanceGroupSpecification> = {}) =>
    group(p, 'workers', GPU, count, extra);
  const nodes = async () =>
    (await sm.send(new ListClusterNodesCommand({ ClusterName: 'train' }))).ClusterNodeSummaries!;
  const k8sNodes = () => listHyperPodNodes(sb.sandbox.runtime.store.state, 'us-west-2', p.eksClusterArn);

  before(async () => {
    sb = await startTestSandbox();
    p = await buildPrereqs(sb, 'upd');
    await ensureQuota(sb, `${GPU} for cluster usage`, 10);
    await ensureQuota(sb, `${CPU} for cluster usage`, 4);
    await sm.send(
      new CreateClusterCommand({
        ClusterName: 'train',
        InstanceGroups: [workers(2)],
        VpcConfig: { SecurityGroupIds: [p.securityGroupId], Subnets: p.privateSubnets },
        Orchestrator: { Eks: { ClusterArn: p.eksClusterArn } },
        NodeRecovery: 'Automatic',
      }),
    );
    await waitForCluster(sb, 'train', 'InService');
  });
  after(async () => sb.dispose());

  it('scales a group up and adds a group: Updating, then InService with the new nodes', async () => {
    await sm.send(
      new UpdateClusterCommand({ ClusterName: 'train', InstanceGroups: [workers(4), group(p, 'cpu', CPU, 1)] }),
    );
    const updating = await sm.send(new DescribeClusterCommand({ ClusterName: 'train' }));
    assert.equal(updating.ClusterStatus, 'Updating');
    assert.equal(updating.InstanceGroups!.find((g) => g.InstanceGroupName === 'workers')!.TargetCount, 4);
    const done = await waitForCluster(sb, 'train', 'InService');
    assert.deepEqual(
      done.InstanceGroups!.map((g) => [g.InstanceGroupName, g.Status, g.CurrentCount, g.TargetCount]),
      [
        ['workers', 'InService', 4, 4],
        ['cpu', 'InService', 1, 1],
      ],
    );
    assert.equal((await nodes()).length, 5);
  });

  it('refuses to change a field fixed at creation, naming it, and changes nothing', async () => {
    const attempts: [Partial<ClusterInstanceGroupSpecification> | { Orchestrator: unknown }, string][] = [
      [{ InstanceType: 'ml.g5.12xlarge' }, 'InstanceType'],
      [{ ExecutionRole: p.clusterRoleArn }, 'ExecutionRole'],
      [{ ThreadsPerCore: 1 }, 'ThreadsPerCore'],
      [
        { OverrideVpcConfig: { SecurityGroupIds: [p.securityGroupId], Subnets: [p.privateSubnets[0]!] } },
        'OverrideVpcConfig',
      ],
      [{ Orchestrator: { Eks: { ClusterArn: 'arn:aws:eks:us-west-2:000000000000:cluster/other' } } }, 'Orchestrator'],
    ];
    const inventoryBefore = await inventoryJson(sb);
    const describedBefore = JSON.stringify(
      (await sm.send(new DescribeClusterCommand({ ClusterName: 'train' }))).InstanceGroups,
    );
    const callsBefore = (await sb.calls({ service: 'sagemaker' })).length;
    for (const [change, field] of attempts) {
      const input =
        'Orchestrator' in change
          ? { ClusterName: 'train', Orchestrator: change.Orchestrator as never }
          : {
              ClusterName: 'train',
              InstanceGroups: [workers(4, change as Partial<ClusterInstanceGroupSpecification>)],
            };
      await assert.rejects(sm.send(new UpdateClusterCommand(input)), (e: Error) => {
        assert.equal(e.name, 'ValidationException');
        assert.match(e.message, new RegExp(`^${field} .*cannot be updated`));
        return true;
      });
    }
    const calls = (await sb.calls({ service: 'sagemaker' })).slice(callsBefore);
    assert.deepEqual(
      calls.filter((c) => c.mutating).map((c) => [c.operation, c.status, c.errorCode]),
      attempts.map(() => ['UpdateCluster', 400, 'ValidationException']),
    );
    assert.equal(await inventoryJson(sb), inventoryBefore);
    assert.equal(
      JSON.stringify((await sm.send(new DescribeClusterCommand({ ClusterName: 'train' }))).InstanceGroups),
      describedBefore,
    );
  });

  it('scales down and deletes a group: surplus nodes shut down and go', async () => {
    await sm.send(
      new UpdateClusterCommand({ ClusterName: 'train', InstanceGroups: [workers(2)], InstanceGroupsToDelete: ['cpu'] }),
    );
    const shutting = (await nodes()).filter((n) => n.InstanceStatus?.Status === 'ShuttingDown');
    assert.equal(shutting.length, 3);
    const done = await waitForCluster(sb, 'train', 'InService');
    assert.deepEqual(
      done.InstanceGroups!.map((g) => [g.InstanceGroupName, g.CurrentCount, g.TargetCount]),
      [['workers', 2, 2]],
    );
    assert.equal((await nodes()).length, 2);
  });

  it('reboots a node: it leaves Running for a while and comes back with the same instance id', async () => {
    const [node] = await nodes();
    const out = await sm.send(
      new BatchRebootClusterNodesCommand({ ClusterName: 'train', NodeIds: [node!.InstanceId!, 'i-0123456789abcdef0'] }),
    );
    assert.deepEqual(out.Successful, [node!.InstanceId]);
    assert.equal(out.Failed?.[0]?.ErrorCode, 'InstanceIdNotFound');
    const during = await sm.send(new DescribeClusterNodeCommand({ ClusterName: 'train', NodeId: node!.InstanceId }));
    assert.equal(during.NodeDetails?.InstanceStatus?.Status, 'Pending');
    const again = await sm.send(
      new BatchRebootClusterNodesCommand({ ClusterName: 'train', NodeIds: [node!.InstanceId!] }),
    );
    assert.equal(again.Failed?.[0]?.ErrorCode, 'InstanceIdInUse');
    await sb.advance(300);
    const afterReboot = await sm.send(
      new DescribeClusterNodeCommand({ ClusterName: 'train', NodeId: node!.InstanceId }),
    );
    assert.equal(afterReboot.NodeDetails?.InstanceStatus?.Status, 'Running');
  });

  it('replaces a node: fresh hardware under a new instance id, same logical node', async () => {
    const [node] = (await sm.send(new ListClusterNodesCommand({ ClusterName: 'train', IncludeNodeLogicalIds: true })))
      .ClusterNodeSummaries!;
    const out = await sm.send(
      new BatchReplaceClusterNodesCommand({ ClusterName: 'train', NodeIds: [node!.InstanceId!] }),
    );
    assert.deepEqual(out.Successful, [node!.InstanceId]);
    const replaced = await eventually(
      async () => {
        const d = (
          await sm.send(new DescribeClusterNodeCommand({ ClusterName: 'train', NodeLogicalId: node!.NodeLogicalId }))
        ).NodeDetails!;
        return d.InstanceStatus?.Status === 'Running' ? d : undefined;
      },
      { sandbox: sb, stepSeconds: 60, what: 'replacement running' },
    );
    assert.notEqual(replaced.InstanceId, node!.InstanceId);
    assert.match(replaced.InstanceId!, /^i-[0-9a-f]{17}$/);
    assert.ok(!(await nodes()).some((n) => n.InstanceId === node!.InstanceId));
  });

  it('runs deep health checks on demand: DeepHealthCheckInProgress, then Running with a pass', async () => {
    await sm.send(
      new StartClusterHealthCheckCommand({
        ClusterName: 'train',
        DeepHealthCheckConfigurations: [{ InstanceGroupName: 'workers', DeepHealthChecks: ['InstanceStress'] }],
      }),
    );
    assert.ok((await nodes()).every((n) => n.InstanceStatus?.Status === 'DeepHealthCheckInProgress'));
    assert.ok(k8sNodes().every((n) => n.healthStatus === 'Unschedulable' && n.deepHealthCheckStatus === 'InProgress'));
    await sb.advance(900);
    assert.ok((await nodes()).every((n) => n.InstanceStatus?.Status === 'Running'));
    assert.ok(k8sNodes().every((n) => n.healthStatus === 'Schedulable' && n.deepHealthCheckStatus === 'Passed'));
  });

  it('a node fault with NodeRecovery Automatic: labelled, then replaced by HyperPod', async () => {
    const [victim] = await nodes();
    const res = await sb.admin('/_sandbox/faults', {
      method: 'POST',
      body: {
        type: 'node-fault',
        cluster: 'train',
        instanceId: victim!.InstanceId,
        health: 'UnschedulablePendingReplacement',
        reason: 'Xid 79: GPU has fallen off the bus',
      },
    });
    assert.equal(res.status, 201);
    const labelled = k8sNodes().find((n) => n.instanceId === victim!.InstanceId)!;
    assert.equal(labelled.healthStatus, 'UnschedulablePendingReplacement');
    assert.equal(labelled.faultReason, 'Xid 79: GPU has fallen off the bus');
    await sb.advance(900);
    const after = k8sNodes();
    assert.equal(after.length, 2);
    assert.ok(!after.some((n) => n.instanceId === victim!.InstanceId), 'the faulted instance is gone');
    assert.ok(after.every((n) => n.status === 'Running' && n.healthStatus === 'Schedulable'));
  });

  it('with NodeRecovery None a fault only labels the node, until a manual recovery request', async () => {
    await sm.send(new UpdateClusterCommand({ ClusterName: 'train', NodeRecovery: 'None' }));
    await waitForCluster(sb, 'train', 'InService');
    const [victim] = await nodes();
    await sb.admin('/_sandbox/faults', {
      method: 'POST',
      body: {
        type: 'node-fault',
        cluster: 'train',
        instanceId: victim!.InstanceId,
        health: 'UnschedulablePendingReboot',
        reason: 'NVLink error',
      },
    });
    await sb.advance(3600);
    let node = k8sNodes().find((n) => n.instanceId === victim!.InstanceId)!;
    assert.equal(node.status, 'Running');
    assert.equal(node.healthStatus, 'UnschedulablePendingReboot');
    // What `kubectl label … node-health-status=UnschedulablePendingReboot` will trigger.
    requestNodeRecovery(
      sb.sandbox.runtime.store.state,
      'us-west-2',
      'train',
      victim!.InstanceId!,
      'UnschedulablePendingReboot',
      sb.sandbox.runtime.clock.now(),
    );
    await sb.advance(600);
    node = k8sNodes().find((n) => n.instanceId === victim!.InstanceId)!;
    assert.equal(node.status, 'Running');
    assert.equal(node.healthStatus, 'Schedulable');
  });

  it('deletes nodes by id: the group target drops; unknown ids fail per node', async () => {
    const [victim] = await nodes();
    const out = await sm.send(
      new BatchDeleteClusterNodesCommand({
        ClusterName: 'train',
        NodeIds: [victim!.InstanceId!, 'i-0123456789abcdef0'],
      }),
    );
    assert.deepEqual(out.Successful, [victim!.InstanceId]);
    assert.deepEqual(
      out.Failed?.map((f) => f.Code),
      ['NodeIdNotFound'],
    );
    const d = await sm.send(new DescribeClusterCommand({ ClusterName: 'train' }));
    assert.equal(d.InstanceGroups![0]!.TargetCount, 1);
    await sb.advance(300);
    assert.equal((await nodes()).length, 1);
  });

  it('lists clusters with filters and sorting, and tags a cluster', async () => {
    const arn = (await sm.send(new DescribeClusterCommand({ ClusterName: 'train' }))).ClusterArn!;
    assert.deepEqual(
      (await sm.send(new ListClustersCommand({ NameContains: 'rai' }))).ClusterSummaries!.map((c) => c.ClusterName),
      ['train'],
    );
    assert.deepEqual((await sm.send(new ListClustersCommand({ NameContains: 'zzz' }))).ClusterSummaries, []);
    assert.deepEqual(
      (await sm.send(new ListClustersCommand({ CreationTimeAfter: new Date(Date.now() + 365 * 86_400_000) })))
        .ClusterSummaries,
      [],
    );
    assert.equal(
      (await sm.send(new ListClustersCommand({ SortBy: 'NAME', SortOrder: 'Descending' }))).ClusterSummaries![0]!
        .ClusterArn,
      arn,
    );
    await sm.send(
      new AddTagsCommand({
        ResourceArn: arn,
        Tags: [
          { Key: 'team', Value: 'ml' },
          { Key: 'cost-center', Value: '42' },
        ],
      }),
    );
    await sm.send(new DeleteTagsCommand({ ResourceArn: arn, TagKeys: ['cost-center'] }));
    assert.deepEqual((await sm.send(new ListTagsCommand({ ResourceArn: arn }))).Tags, [{ Key: 'team', Value: 'ml' }]);
    await assert.rejects(
      sm.send(
        new AddTagsCommand({
          ResourceArn: arn.replace(/cluster\/.*/, 'cluster/aaaaaaaaaaaa'),
          Tags: [{ Key: 'a', Value: 'b' }],
        }),
      ),
      (e: Error) => e.name === 'ValidationException',
    );
  });

  it('refuses BatchAddClusterNodes and ListClusterEvents outside Continuous mode', async () => {
    await assert.rejects(
      sm.send(
        new BatchAddClusterNodesCommand({
          ClusterName: 'train',
          NodesToAdd: [{ InstanceGroupName: 'workers', IncrementTargetCountBy: 1 }],
        }),
      ),
      (e: Error) => e.name === 'ValidationException' && /Continuous/.test(e.message),
    );
    await assert.rejects(
      sm.send(new ListClusterEventsCommand({ ClusterName: 'train' })),
      (e: Error) => e.name === 'ValidationException' && /Continuous/.test(e.message),
    );
  });
});
