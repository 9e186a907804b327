import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DescribeClusterCommand, SageMakerClient } from '@aws-sdk/client-sagemaker';
import { kubeAccess } from '../helpers/kube.js';
import type { TestSandbox } from '../helpers/sandbox.js';
import { startSandboxAndServer, stopAll, type TestServer } from '../helpers/server.js';

const SPEED = 600;
const groupsUrl = '/api/v1/clusters/fleet/instance-groups';

describe('instance groups through the REST API: placement, immutability, the diff contract, scale and delete', () => {
  let sb: TestSandbox;
  let server: TestServer;
  before(async () => {
    ({ sb, server } = await startSandboxAndServer(SPEED));
    const created = await server.api('POST', '/api/v1/clusters', {
      name: 'fleet',
      availabilityZone: 'us-west-2b',
      instanceType: 'ml.c5.xlarge',
      instanceCount: 1,
      storage: { s3: false },
    });
    assert.equal(created.status, 202, JSON.stringify(created.body));
    assert.equal((await server.waitForOperation(created.body.operation.id)).status, 'succeeded');
  });
  after(() => stopAll(server, sb));

  const computeSubnets = async () =>
    (
      await sb.aws([
        'ec2',
        'describe-subnets',
        '--filters',
        'Name=tag:instantstart.io/cluster,Values=fleet',
        'Name=tag:instantstart.io/part,Values=compute',
      ])
    ).json.Subnets as Array<{ SubnetId: string; CidrBlock: string; AvailabilityZone: string }>;
  const nodeCount = async () => {
    const kube = await kubeAccess(sb, 'fleet-eks');
    return (
      await kube.kubectl(['get', 'nodes', '-l', 'sagemaker.amazonaws.com/compute-type=hyperpod', '-o', 'name'])
    ).stdout
      .trim()
      .split('\n')
      .filter(Boolean).length;
  };

  it('adds a spot group in another zone, in a new /20 compute subnet there', async () => {
    const r = await server.api('POST', groupsUrl, {
      name: 'spot-a',
      availabilityZone: 'us-west-2a',
      instanceType: 'ml.c5.xlarge',
      instanceCount: 1,
      capacityType: 'spot',
    });
    assert.equal(r.status, 202, JSON.stringify(r.body));
    const op = await server.waitForOperation(r.body.operation.id);
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error ?? op.phases));
    const inA = (await computeSubnets()).find((s) => s.AvailabilityZone === 'us-west-2a');
    assert.ok(inA);
    assert.match(inA.CidrBlock, /\/20$/);
    const list = await server.api('GET', groupsUrl);
    const spot = list.body.instanceGroups.find((g: any) => g.name === 'spot-a');
    assert.equal(spot.capacityType, 'spot');
    assert.deepEqual(spot.subnetIds, [inA.SubnetId]);
    assert.equal(spot.currentCount, 1);
  });

  it('adds an EFA-only group only on a type that supports EFA', async () => {
    const refused = await server.api('POST', groupsUrl, {
      name: 'efa-bad',
      availabilityZone: 'us-west-2b',
      instanceType: 'ml.c5.xlarge',
      instanceCount: 1,
      networkInterface: 'efa-only',
    });
    assert.equal(refused.status, 422, JSON.stringify(refused.body));
    assert.ok(refused.body.errors.some((e: any) => e.path === 'networkInterface'));
    const types = (await server.api('GET', '/api/v1/instance-types?availabilityZone=us-west-2b')).body.instanceTypes;
    const efa = types.find((t: any) => t.efaSupported && (t.clusterUsageQuota ?? 0) >= 1);
    assert.ok(efa, 'some EFA type has quota in the sandbox');
    const r = await server.api('POST', groupsUrl, {
      name: 'efa-b',
      availabilityZone: 'us-west-2b',
      instanceType: efa.instanceType,
      instanceCount: 1,
      networkInterface: 'efa-only',
    });
    assert.equal(r.status, 202, JSON.stringify(r.body));
    const op = await server.waitForOperation(r.body.operation.id);
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error ?? op.phases));
    // Through the SDK: the CLI here predates the NetworkInterface field and would drop it.
    const hp = await new SageMakerClient({}).send(new DescribeClusterCommand({ ClusterName: 'fleet' }));
    assert.equal(
      (
        hp.InstanceGroups?.find((g) => g.InstanceGroupName === 'efa-b') as {
          NetworkInterface?: { InterfaceType?: string };
        }
      ).NetworkInterface?.InterfaceType,
      'efa-only',
    );
    const view = (await server.api('GET', groupsUrl)).body.instanceGroups.find((g: any) => g.name === 'efa-b');
    assert.equal(view.networkInterface, 'efa-only');
    assert.equal(
      (await computeSubnets()).filter((s) => s.AvailabilityZone === 'us-west-2b').length,
      1,
      "the zone's compute subnet is reused",
    );
  });

  it('refuses a change of a fixed field by name, before AWS is called', async () => {
    const updatesBefore = (await sb.calls({ service: 'sagemaker', operation: 'UpdateCluster' })).length;
    for (const [field, value] of [
      ['instanceType', 'ml.c5.2xlarge'],
      ['capacityType', 'on-demand'],
      ['networkInterface', 'efa'],
    ] as const) {
      const r = await server.api('PATCH', `${groupsUrl}/spot-a`, { [field]: value });
      assert.equal(r.status, 422, JSON.stringify(r.body));
      assert.ok(
        r.body.errors.some((e: any) => e.path === field && /fixed|cannot change/.test(e.message)),
        JSON.stringify(r.body),
      );
    }
    const mixed = await server.api('PATCH', `${groupsUrl}/spot-a`, { labels: { team: 'ml' }, threadsPerCore: 1 });
    assert.equal(mixed.status, 422, 'a request with one fixed field is refused whole, not half-done');
    assert.ok(
      mixed.body.errors.some((e: any) => e.path === 'threadsPerCore'),
      JSON.stringify(mixed.body),
    );
    assert.equal(
      (await sb.calls({ service: 'sagemaker', operation: 'UpdateCluster' })).length,
      updatesBefore,
      'no UpdateCluster was called',
    );
  });

  it('scales a group; the same count again changes nothing in AWS', async () => {
    const before = await nodeCount();
    const r = await server.api('PATCH', `${groupsUrl}/spot-a`, { instanceCount: 2 });
    assert.equal(r.status, 202, JSON.stringify(r.body));
    assert.equal((await server.waitForOperation(r.body.operation.id)).status, 'succeeded');
    assert.equal(await nodeCount(), before + 1, 'kubectl sees the new node');
    const mutations = (await sb.calls({ service: 'sagemaker', mutating: true })).length;
    const same = await server.api('PATCH', `${groupsUrl}/spot-a`, { instanceCount: 2 });
    const op = await server.waitForOperation(same.body.operation.id);
    assert.equal(op.status, 'succeeded');
    assert.equal(op.phases[0].status, 'skipped');
    assert.equal((await sb.calls({ service: 'sagemaker', mutating: true })).length, mutations);
  });

  it('changes labels, taints and patching in one UpdateCluster; Nodes get them; the same request again changes nothing', async () => {
    const updatesBefore = (await sb.calls({ service: 'sagemaker', operation: 'UpdateCluster' })).length;
    const change = {
      labels: { team: 'ml' },
      taints: [{ key: 'gpu', value: 'true', effect: 'NoSchedule' }],
      autoPatch: { patchingStrategy: 'WhenIdle' },
    };
    const r = await server.api('PATCH', `${groupsUrl}/spot-a`, change);
    assert.equal(r.status, 202, JSON.stringify(r.body));
    const op = await server.waitForOperation(r.body.operation.id);
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error ?? op.phases));
    assert.equal(op.kind, 'update-instance-group');
    assert.equal(
      (await sb.calls({ service: 'sagemaker', operation: 'UpdateCluster' })).length,
      updatesBefore + 1,
      'one UpdateCluster',
    );
    const hp = await new SageMakerClient({}).send(new DescribeClusterCommand({ ClusterName: 'fleet' }));
    const spot = hp.InstanceGroups!.find((g) => g.InstanceGroupName === 'spot-a')!;
    assert.deepEqual(spot.KubernetesConfig?.DesiredLabels, { team: 'ml' });
    assert.equal(spot.AutoPatchConfig?.PatchingStrategy, 'WhenIdle');
    assert.equal(spot.TargetCount, 2, 'the count is restated as it was');
    assert.ok(spot.CapacityRequirements?.Spot, 'the capacity type is restated as it was');
    const kube = await kubeAccess(sb, 'fleet-eks');
    const nodes = JSON.parse(
      (await kube.kubectl(['get', 'nodes', '-l', 'sagemaker.amazonaws.com/instance-group-name=spot-a', '-o', 'json']))
        .stdout,
    ).items;
    assert.equal(nodes.length, 2);
    for (const n of nodes) {
      assert.equal(n.metadata.labels.team, 'ml');
      assert.ok(n.spec.taints.some((t: any) => t.key === 'gpu' && t.effect === 'NoSchedule'));
    }
    const view = (await server.api('GET', groupsUrl)).body.instanceGroups.find((g: any) => g.name === 'spot-a');
    assert.deepEqual(view.labels, { team: 'ml' });
    const mutations = (await sb.calls({ service: 'sagemaker', mutating: true })).length;
    const again = await server.api('PATCH', `${groupsUrl}/spot-a`, { ...change, instanceCount: 2 });
    assert.equal((await server.waitForOperation(again.body.operation.id)).status, 'succeeded');
    assert.equal(
      (await sb.calls({ service: 'sagemaker', mutating: true })).length,
      mutations,
      'nothing differed, so nothing was sent',
    );
  });

  it('shrinks a group only with confirm: true — refused (422 naming confirm) before AWS is called otherwise', async () => {
    const mutations = (await sb.calls({ service: 'sagemaker', mutating: true })).length;
    for (const body of [{ instanceCount: 1 }, { instanceCount: 1, labels: { team: 'ml' } }]) {
      const refused = await server.api('PATCH', `${groupsUrl}/spot-a`, body);
      assert.equal(refused.status, 422, JSON.stringify(refused.body));
      assert.ok(
        refused.body.errors.some((e: any) => e.path === 'confirm'),
        JSON.stringify(refused.body),
      );
    }
    assert.equal(
      (await sb.calls({ service: 'sagemaker', mutating: true })).length,
      mutations,
      'nothing was sent to AWS',
    );
    const r = await server.api('PATCH', `${groupsUrl}/spot-a`, { instanceCount: 1, confirm: true });
    assert.equal(r.status, 202, JSON.stringify(r.body));
    assert.equal((await server.waitForOperation(r.body.operation.id)).status, 'succeeded');
    const view = (await server.api('GET', groupsUrl)).body.instanceGroups.find((g: any) => g.name === 'spot-a');
    assert.equal(view.targetCount, 1);
    const bad = await server.api('PATCH', `${groupsUrl}/spot-a`, { instanceCount: 2, confirm: 'yes' });
    assert.equal(bad.status, 400, 'confirm is true or absent');
  });

  it('deletes a group only with confirm=true', async () => {
    const refused = await server.api('DELETE', `${groupsUrl}/efa-b`);
    assert.equal(refused.status, 400);
    assert.ok(refused.body.errors.some((e: any) => e.path === 'confirm'));
    const r = await server.api('DELETE', `${groupsUrl}/efa-b?confirm=true`);
    assert.equal(r.status, 202);
    assert.equal((await server.waitForOperation(r.body.operation.id)).status, 'succeeded');
    const list = await server.api('GET', groupsUrl);
    assert.deepEqual(list.body.instanceGroups.map((g: any) => g.name).sort(), ['spot-a', 'workers']);
  });

  it('fails clearly, with what to do, when HyperPod cannot get capacity, and leaves nothing half-made', async () => {
    const fault = await sb.admin('/_sandbox/faults', {
      method: 'POST',
      body: {
        type: 'insufficient-capacity',
        availabilityZone: 'us-west-2c',
        instanceType: 'ml.c5.2xlarge',
        available: 0,
      },
    });
    assert.equal(fault.status, 201, JSON.stringify(fault.body));
    const r = await server.api('POST', groupsUrl, {
      name: 'starved',
      availabilityZone: 'us-west-2c',
      instanceType: 'ml.c5.2xlarge',
      instanceCount: 1,
    });
    assert.equal(r.status, 202, JSON.stringify(r.body));
    const op = await server.waitForOperation(r.body.operation.id);
    assert.equal(op.status, 'failed');
    assert.equal(op.error.code, 'InsufficientCapacity');
    assert.match(op.error.message, /another Availability Zone/);
    assert.match(op.error.message, /nothing is left half-made/);
    const gone = async () =>
      !(await server.api('GET', groupsUrl)).body.instanceGroups.some((g: any) => g.name === 'starved');
    for (let i = 0; i < 60 && !(await gone()); i++) await new Promise((res) => setTimeout(res, 500));
    assert.ok(await gone(), 'the half-made group was removed without the user asking');

    // Growth that finds no capacity puts the target back where it was.
    const spotZone = (await server.api('GET', groupsUrl)).body.instanceGroups.find((g: any) => g.name === 'spot-a');
    await sb.admin('/_sandbox/faults', {
      method: 'POST',
      body: {
        type: 'insufficient-capacity',
        availabilityZone: 'us-west-2a',
        instanceType: 'ml.c5.xlarge',
        available: 0,
      },
    });
    const grow = await server.api('PATCH', `${groupsUrl}/spot-a`, { instanceCount: spotZone.targetCount + 2 });
    const grown = await server.waitForOperation(grow.body.operation.id);
    assert.equal(grown.status, 'failed');
    assert.equal(grown.error.code, 'InsufficientCapacity');
    assert.match(grown.error.message, new RegExp(`target is set back to ${spotZone.targetCount}`));
    const after = (await server.api('GET', groupsUrl)).body.instanceGroups.find((g: any) => g.name === 'spot-a');
    assert.equal(after.targetCount, spotZone.targetCount);
    await sb.admin('/_sandbox/faults', { method: 'DELETE' });
  });
});
