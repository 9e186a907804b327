import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateTrainingPlanCommand,
  DescribeTrainingPlanCommand,
  SageMakerClient,
  SearchTrainingPlanOfferingsCommand,
} from '@aws-sdk/client-sagemaker';
import type { TestSandbox } from '../helpers/sandbox.js';
import { startSandboxAndServer, stopAll, type TestServer } from '../helpers/server.js';
import { call } from '../mcp/client-helpers.js';
import { ensureQuota } from '../sandbox/sagemaker-fixtures.js';

const SPEED = 600;
const TYPE = 'ml.p5.48xlarge';
const groupsUrl = '/api/v1/clusters/reserved/instance-groups';

/**
 * The training-plan capacity path: a plan bought in the sandbox, a group on it added through REST
 * and another through MCP, each placed in the plan's zone in a /20 compute subnet (checked with the
 * aws CLI); a request that does not fit the plan is refused by name before HyperPod is called.
 */
describe('instance groups on a training plan through REST and MCP', () => {
  let sb: TestSandbox;
  let server: TestServer;
  let mcp: Client;
  let planArn = '';
  let zone = '';
  const sm = new SageMakerClient({});

  before(async () => {
    ({ sb, server } = await startSandboxAndServer(SPEED));
    await ensureQuota(sb, `${TYPE} for cluster usage`, 4);
    const created = await server.api('POST', '/api/v1/clusters', {
      name: 'reserved',
      availabilityZone: 'us-west-2b',
      instanceType: 'ml.c5.xlarge',
      instanceCount: 1,
      storage: { s3: false },
    });
    assert.equal(created.status, 202, JSON.stringify(created.body));
    assert.equal((await server.waitForOperation(created.body.operation.id)).status, 'succeeded');
    const offering = (
      await sm.send(
        new SearchTrainingPlanOfferingsCommand({
          InstanceType: TYPE,
          InstanceCount: 3,
          DurationHours: 48,
          TargetResources: ['hyperpod-cluster'],
        }),
      )
    ).TrainingPlanOfferings![0]!;
    zone = offering.ReservedCapacityOfferings![0]!.AvailabilityZone!;
    planArn = (
      await sm.send(
        new CreateTrainingPlanCommand({
          TrainingPlanName: 'p5-reserved',
          TrainingPlanOfferingId: offering.TrainingPlanOfferingId,
        }),
      )
    ).TrainingPlanArn!;
    // The plan's capacity exists from its start: move sandbox time there.
    const plan = await sm.send(new DescribeTrainingPlanCommand({ TrainingPlanName: 'p5-reserved' }));
    const nowMs = Date.parse((await sb.admin('/_sandbox/clock')).body.now as string);
    await sb.advance(Math.max(0, Math.ceil((plan.StartTime!.getTime() - nowMs) / 1000)) + 60);
    assert.equal(
      (await sm.send(new DescribeTrainingPlanCommand({ TrainingPlanName: 'p5-reserved' }))).Status,
      'Active',
    );
    mcp = new Client({ name: 'e2e-training-plan', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
  });
  after(() => stopAll(mcp, server, sb));

  const computeSubnetOf = async (subnetIds: string[]) => {
    const subnets = (await sb.aws(['ec2', 'describe-subnets', '--subnet-ids', ...subnetIds])).json.Subnets as Array<{
      CidrBlock: string;
      AvailabilityZone: string;
      Tags?: Array<{ Key: string; Value: string }>;
    }>;
    assert.equal(subnets.length, 1, 'one subnet per group');
    return subnets[0]!;
  };

  it("refuses a group outside the plan's zone or beyond its size, naming the field, without calling HyperPod", async () => {
    const updatesBefore = (await sb.calls({ service: 'sagemaker', operation: 'UpdateCluster', mutating: true })).length;
    // Another zone that offers the type, so the plan is the only reason to refuse.
    const zones = (await server.api('GET', '/api/v1/availability-zones')).body.availabilityZones.map(
      (z: any) => z.name as string,
    );
    let otherZone = '';
    for (const z of zones.filter((x: string) => x !== zone)) {
      const types = (await server.api('GET', `/api/v1/instance-types?availabilityZone=${z}`)).body.instanceTypes;
      if (types.some((t: any) => t.instanceType === TYPE)) otherZone = z;
    }
    assert.ok(otherZone, `another zone offers ${TYPE}`);
    for (const [body, field] of [
      [{ availabilityZone: otherZone, instanceCount: 1 }, /availabilityZone|trainingPlanArn/],
      [{ availabilityZone: zone, instanceCount: 4 }, /instanceCount|trainingPlanArn/],
    ] as const) {
      const r = await server.api('POST', groupsUrl, {
        name: 'too-much',
        instanceType: TYPE,
        capacityType: 'training-plan',
        trainingPlanArn: planArn,
        ...body,
      });
      assert.equal(r.status, 422, JSON.stringify(r.body));
      assert.ok(
        r.body.errors.some((e: any) => field.test(e.path)),
        JSON.stringify(r.body.errors),
      );
    }
    assert.equal(
      (await sb.calls({ service: 'sagemaker', operation: 'UpdateCluster', mutating: true })).length,
      updatesBefore,
    );
  });

  it("adds a group on the plan through REST: in the plan's zone, in a /20 compute subnet, on the plan", async () => {
    const r = await server.api('POST', groupsUrl, {
      name: 'reserved-a',
      availabilityZone: zone,
      instanceType: TYPE,
      instanceCount: 2,
      capacityType: 'training-plan',
      trainingPlanArn: planArn,
    });
    assert.equal(r.status, 202, JSON.stringify(r.body));
    const op = await server.waitForOperation(r.body.operation.id);
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error));
    const g = (await server.api('GET', groupsUrl)).body.instanceGroups.find((x: any) => x.name === 'reserved-a');
    assert.equal(g.capacityType, 'training-plan');
    assert.equal(g.trainingPlanArn, planArn);
    assert.equal(g.currentCount, 2);
    const subnet = await computeSubnetOf(g.subnetIds);
    assert.equal(subnet.AvailabilityZone, zone);
    assert.match(subnet.CidrBlock, /\/20$/);
    assert.equal(subnet.Tags?.find((t) => t.Key === 'instantstart.io/part')?.Value, 'compute');
    const described = (await sb.aws(['sagemaker', 'describe-cluster', '--cluster-name', 'reserved'])).json;
    assert.equal(
      described.InstanceGroups.find((x: any) => x.InstanceGroupName === 'reserved-a').TrainingPlanArn,
      planArn,
    );
    const plan = await sm.send(new DescribeTrainingPlanCommand({ TrainingPlanName: 'p5-reserved' }));
    assert.equal(plan.InUseInstanceCount, 2);
  });

  it('adds another group on the rest of the plan through MCP, and lists it', async () => {
    const started = await call(mcp, 'add_instance_group', {
      cluster: 'reserved',
      group: 'reserved-b',
      availabilityZone: zone,
      instanceType: TYPE,
      instanceCount: 1,
      capacityType: 'training-plan',
      trainingPlanArn: planArn,
    });
    assert.ok(!started.isError, started.text);
    const op = await server.waitForOperation((started.structuredContent as any).operationId);
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error));
    const listed = await call(mcp, 'list_instance_groups', { cluster: 'reserved' });
    assert.match(listed.text, /reserved-b: 1\/1 × ml\.p5\.48xlarge \(training-plan/);
    const groups = (listed.structuredContent as any).instanceGroups;
    const a = groups.find((x: any) => x.name === 'reserved-a');
    const b = groups.find((x: any) => x.name === 'reserved-b');
    assert.deepEqual(b.subnetIds, a.subnetIds, "the zone's /20 compute subnet is reused, not duplicated");
  });
});
