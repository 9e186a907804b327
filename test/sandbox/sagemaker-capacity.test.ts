import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  BatchAddClusterNodesCommand,
  CreateClusterCommand,
  DeleteClusterCommand,
  DescribeClusterCommand,
  ListClusterEventsCommand,
  ListClusterNodesCommand,
  SageMakerClient,
  type CreateClusterCommandInput,
} from '@aws-sdk/client-sagemaker';
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

describe('SageMaker HyperPod: capacity, failures, Continuous mode and events', () => {
  let sb: TestSandbox;
  let p: HyperPodPrereqs;
  const sm = new SageMakerClient({});
  const request = (name: string, extra: Partial<CreateClusterCommandInput> = {}): CreateClusterCommandInput => ({
    ClusterName: name,
    InstanceGroups: [group(p, 'workers', GPU, 3)],
    VpcConfig: { SecurityGroupIds: [p.securityGroupId], Subnets: p.privateSubnets },
    Orchestrator: { Eks: { ClusterArn: p.eksClusterArn } },
    ...extra,
  });
  const capacity = (zone: string, available: number) =>
    sb.admin('/_sandbox/faults', {
      method: 'POST',
      body: { type: 'insufficient-capacity', availabilityZone: zone, instanceType: GPU, available },
    });
  const deleteAndWait = async (name: string) => {
    await sm.send(new DeleteClusterCommand({ ClusterName: name }));
    await eventually(
      async () =>
        sm.send(new DescribeClusterCommand({ ClusterName: name })).then(
          () => false,
          (e: Error) => e.name === 'ResourceNotFound',
        ),
      {
        sandbox: sb,
        stepSeconds: 120,
        what: `${name} deleted`,
      },
    );
  };

  before(async () => {
    sb = await startTestSandbox();
    p = await buildPrereqs(sb, 'cap');
    await ensureQuota(sb, `${GPU} for cluster usage`, 10);
  });
  after(async () => sb.dispose());

  it('refuses Spot capacity, events and EFA where they do not apply', async () => {
    const before = await inventoryJson(sb);
    await assert.rejects(
      sm.send(
        new CreateClusterCommand(
          request('spot', { InstanceGroups: [group(p, 'spot', GPU, 1, { CapacityRequirements: { Spot: {} } })] }),
        ),
      ),
      (e: Error) =>
        e.name === 'ValidationException' &&
        /CapacityRequirements\.Spot .*requires .*NodeProvisioningMode to be Continuous/.test(e.message),
    );
    await assert.rejects(
      sm.send(
        new CreateClusterCommand(
          request('efa', { InstanceGroups: [group(p, 'cpu', CPU, 1, { NetworkInterface: { InterfaceType: 'efa' } })] }),
        ),
      ),
      (e: Error) => e.name === 'ValidationException' && /EFA/.test(e.message),
    );
    await assert.rejects(
      sm.send(
        new CreateClusterCommand(request('scaler', { AutoScaling: { Mode: 'Enable', AutoScalerType: 'Karpenter' } })),
      ),
      (e: Error) => e.name === 'ValidationException' && /ClusterRole/.test(e.message),
    );
    assert.equal(await inventoryJson(sb), before);
  });

  it('an insufficient-capacity fault fails the create: Failed, with a FailureMessage naming the type, zones and why', async () => {
    await capacity(p.zones[0]!, 1);
    await capacity(p.zones[1]!, 0);
    await sm.send(new CreateClusterCommand(request('short')));
    const failed = await waitForCluster(sb, 'short', 'Failed');
    assert.match(
      failed.FailureMessage!,
      new RegExp(`sufficient capacity for the requested instance type ${GPU.replaceAll('.', '\\.')}`),
    );
    assert.match(
      failed.FailureMessage!,
      new RegExp(`insufficient ${GPU.replaceAll('.', '\\.')} capacity in ${p.zones[1]}`),
    );
    assert.equal(failed.InstanceGroups![0]!.Status, 'Failed');
    await sb.advance(300);
    assert.equal(
      (await sm.send(new ListClusterNodesCommand({ ClusterName: 'short' }))).ClusterNodeSummaries!.length,
      0,
      'the one launched instance was rolled back',
    );
    await sb.admin('/_sandbox/faults', { method: 'DELETE' });
    await deleteAndWait('short');
  });

  it('a create-failure fault ends the create Failed with its message', async () => {
    await sb.admin('/_sandbox/faults', {
      method: 'POST',
      body: {
        type: 'create-failure',
        service: 'sagemaker',
        name: 'doomed',
        message: 'Lifecycle script on_create.sh exited with status 1',
      },
    });
    await sm.send(new CreateClusterCommand(request('doomed', { InstanceGroups: [group(p, 'workers', GPU, 1)] })));
    const failed = await waitForCluster(sb, 'doomed', 'Failed');
    assert.equal(failed.FailureMessage, 'Lifecycle script on_create.sh exited with status 1');
    await deleteAndWait('doomed');
  });

  it('Continuous mode with Spot: partially provisioned, InService, retrying with Warn events until capacity returns', async () => {
    await capacity(p.zones[0]!, 1);
    await capacity(p.zones[1]!, 0);
    await sm.send(
      new CreateClusterCommand(
        request('elastic', {
          NodeProvisioningMode: 'Continuous',
          InstanceGroups: [group(p, 'spot', GPU, 3, { CapacityRequirements: { Spot: {} } })],
        }),
      ),
    );
    await sb.advance(900);
    const partial = await sm.send(new DescribeClusterCommand({ ClusterName: 'elastic' }));
    assert.equal(partial.ClusterStatus, 'InService');
    assert.equal(partial.NodeProvisioningMode, 'Continuous');
    const spot = partial.InstanceGroups![0]!;
    assert.deepEqual([spot.Status, spot.CurrentCount, spot.TargetCount], ['InService', 1, 3]);
    assert.deepEqual(spot.ActiveOperations, { Scaling: 1 });

    const waiting = (
      await sm.send(new ListClusterNodesCommand({ ClusterName: 'elastic', IncludeNodeLogicalIds: true }))
    ).ClusterNodeSummaries!;
    assert.equal(waiting.length, 3);
    assert.equal(waiting.filter((n) => !n.InstanceId).length, 2);
    assert.match(waiting.find((n) => !n.InstanceId)!.InstanceStatus!.Message!, /capacity/);
    assert.equal(
      (await sm.send(new ListClusterNodesCommand({ ClusterName: 'elastic' }))).ClusterNodeSummaries!.length,
      1,
    );

    const newest = (await sm.send(new ListClusterEventsCommand({ ClusterName: 'elastic' }))).Events!;
    const times = newest.map((e) => e.EventTime!.getTime());
    assert.deepEqual(
      times,
      [...times].sort((a, b) => b - a),
      'newest first by default',
    );
    const warns = newest.filter((e) => e.EventLevel === 'Warn');
    assert.ok(warns.length >= 2, 'a Warn event per retry');
    assert.ok(warns.every((e) => e.ResourceType === 'InstanceGroup' && e.InstanceGroupName === 'spot'));
    assert.match(
      warns[0]!.Description!,
      new RegExp(`insufficient ${GPU.replaceAll('.', '\\.')} capacity in ${p.zones[1]}`),
    );

    const oldest = await sm.send(
      new ListClusterEventsCommand({ ClusterName: 'elastic', SortOrder: 'Ascending', MaxResults: 2 }),
    );
    assert.equal(oldest.Events!.length, 2);
    assert.equal(oldest.Events![0]!.ResourceType, 'Cluster');
    assert.ok(oldest.NextToken);
    const instanceEvents = (
      await sm.send(new ListClusterEventsCommand({ ClusterName: 'elastic', ResourceType: 'Instance' }))
    ).Events!;
    assert.ok(instanceEvents.length > 0 && instanceEvents.every((e) => e.InstanceId?.startsWith('i-')));

    await sb.admin('/_sandbox/faults', { method: 'DELETE' });
    const full = await eventually(
      async () => {
        const d = await sm.send(new DescribeClusterCommand({ ClusterName: 'elastic' }));
        return d.InstanceGroups![0]!.CurrentCount === 3 ? d : undefined;
      },
      { sandbox: sb, stepSeconds: 120, what: 'spot group complete' },
    );
    assert.equal(full.InstanceGroups![0]!.ActiveOperations, undefined);
  });

  it('BatchAddClusterNodes (Continuous): logical ids at once, idempotent with a ClientToken, per-group failures', async () => {
    const input = {
      ClusterName: 'elastic',
      ClientToken: 'add-two-nodes',
      NodesToAdd: [
        { InstanceGroupName: 'spot', IncrementTargetCountBy: 2 },
        { InstanceGroupName: 'missing', IncrementTargetCountBy: 1 },
      ],
    };
    const out = await sm.send(new BatchAddClusterNodesCommand(input));
    assert.equal(out.Successful!.length, 2);
    assert.ok(
      out.Successful!.every((s) => s.InstanceGroupName === 'spot' && s.Status === 'Pending' && s.NodeLogicalId),
    );
    assert.deepEqual(
      out.Failed!.map((f) => [f.InstanceGroupName, f.ErrorCode, f.FailedCount]),
      [['missing', 'InstanceGroupNotFound', 1]],
    );
    const again = await sm.send(new BatchAddClusterNodesCommand(input));
    assert.deepEqual(
      again.Successful!.map((s) => s.NodeLogicalId),
      out.Successful!.map((s) => s.NodeLogicalId),
    );
    const d = await sm.send(new DescribeClusterCommand({ ClusterName: 'elastic' }));
    assert.equal(d.InstanceGroups![0]!.TargetCount, 5, 'the retry added nothing');

    const listed = (await sm.send(new ListClusterNodesCommand({ ClusterName: 'elastic', IncludeNodeLogicalIds: true })))
      .ClusterNodeSummaries!;
    for (const s of out.Successful!) assert.ok(listed.some((n) => n.NodeLogicalId === s.NodeLogicalId));
    await sb.advance(900);
    const latest = await sm.send(new BatchAddClusterNodesCommand(input));
    assert.ok(
      latest.Successful!.every((s) => s.Status === 'Running'),
      'a replay reports the latest status',
    );
    assert.equal(
      (await sm.send(new DescribeClusterCommand({ ClusterName: 'elastic' }))).InstanceGroups![0]!.CurrentCount,
      5,
    );
  });

  it('lets one EKS cluster orchestrate only one HyperPod cluster', async () => {
    const before = await inventoryJson(sb);
    await assert.rejects(
      sm.send(new CreateClusterCommand(request('second', { InstanceGroups: [group(p, 'workers', GPU, 1)] }))),
      (e: Error) =>
        e.name === 'ValidationException' && /already the orchestrator of HyperPod cluster 'elastic'/.test(e.message),
    );
    assert.equal(await inventoryJson(sb), before);
  });
});
