import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  CreateTrainingPlanCommand,
  DescribeTrainingPlanCommand,
  SageMakerClient,
  SearchTrainingPlanOfferingsCommand,
} from '@aws-sdk/client-sagemaker';
import { AwsCatalog } from '../../src/cloud/aws/catalog.js';
import { AwsClients } from '../../src/cloud/aws/clients.js';
import { QuotaCheckRequestSchema, TrainingPlanViewSchema } from '../../src/domain/schemas/preflight.js';
import { PreflightService } from '../../src/capabilities/catalog/service.js';
import { eventually, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { ensureQuota } from '../sandbox/sagemaker-fixtures.js';

const P5 = 'ml.p5.48xlarge';

/** Buys the first offering SageMaker proposes, as a user would (SearchTrainingPlanOfferings + CreateTrainingPlan). */
async function buyPlan(
  name: string,
  count: number,
  target: 'hyperpod-cluster' | 'training-job',
): Promise<{ arn: string; zone: string }> {
  const sm = new SageMakerClient({});
  const offerings = (
    await sm.send(
      new SearchTrainingPlanOfferingsCommand({
        InstanceType: P5,
        InstanceCount: count,
        DurationHours: 48,
        TargetResources: [target],
      }),
    )
  ).TrainingPlanOfferings!;
  const offering = offerings[0]!;
  const arn = (
    await sm.send(
      new CreateTrainingPlanCommand({
        TrainingPlanName: name,
        TrainingPlanOfferingId: offering.TrainingPlanOfferingId,
      }),
    )
  ).TrainingPlanArn!;
  return { arn, zone: offering.ReservedCapacityOfferings![0]!.AvailabilityZone! };
}

describe('PreflightService with training plans on the sandbox', () => {
  let sb: TestSandbox;
  let preflight: PreflightService;
  let plan: { arn: string; zone: string };
  const check = (input: Record<string, unknown>) =>
    preflight.checkQuotas(
      QuotaCheckRequestSchema.parse({
        instanceType: P5,
        instanceCount: 2,
        capacityType: 'training-plan',
        trainingPlanArn: plan.arn,
        availabilityZone: plan.zone,
        ...input,
      }),
    );
  const problems = async (input: Record<string, unknown> = {}) =>
    (await check(input)).problems.map((p) => `${p.field}:${p.code}`);

  before(async () => {
    sb = await startTestSandbox();
    preflight = new PreflightService(new AwsCatalog(new AwsClients({ defaultRegion: 'us-west-2' })), 'us-west-2');
    plan = await buyPlan('h100-week', 2, 'hyperpod-cluster');
  });
  after(async () => sb.dispose());

  it('explains that a plan still being paid for cannot be used yet', async () => {
    const r = await check({});
    const pending = r.problems.find((p) => p.code === 'TrainingPlanNotUsable')!;
    assert.equal(pending.field, 'trainingPlanArn');
    assert.match(pending.message, /'h100-week' is Pending/);
    assert.match(pending.remedy!, /Wait until the plan is Scheduled/);
  });

  it('lists plans with their reserved type, zone, counts and window', async () => {
    await eventually(
      async () =>
        (await new SageMakerClient({}).send(new DescribeTrainingPlanCommand({ TrainingPlanName: 'h100-week' })))
          .Status === 'Scheduled',
      { sandbox: sb, stepSeconds: 60, what: 'plan Scheduled' },
    );
    const plans = await preflight.trainingPlans();
    assert.equal(plans.length, 1);
    const view = TrainingPlanViewSchema.parse(plans[0]);
    assert.deepEqual(
      [
        view.arn,
        view.name,
        view.status,
        view.instanceType,
        view.availabilityZone,
        view.totalInstanceCount,
        view.availableInstanceCount,
        view.inUseInstanceCount,
        view.targetResources,
      ],
      [plan.arn, 'h100-week', 'Scheduled', P5, plan.zone, 2, 2, 0, ['hyperpod-cluster']],
    );
    assert.ok(
      view.startTime && view.endTime && Date.parse(view.endTime) - Date.parse(view.startTime) === 48 * 3600_000,
    );
    assert.equal('reservedCapacities' in plans[0]!, false, 'the view carries no more than its schema');
  });

  it('passes a request the plan covers, once the cluster-usage quota allows it', async () => {
    assert.deepEqual(
      await problems(),
      ['instanceCount:QuotaExceeded'],
      'the plan is fine; only the quota (0 on a new account) is short',
    );
    await ensureQuota(sb, `${P5} for cluster usage`, 4);
    const r = await check({});
    assert.deepEqual(r.problems, []);
    assert.equal(r.ok, true);
  });

  it('explains each mismatch between the request and the plan', async () => {
    assert.deepEqual(await problems({ instanceCount: 3 }), ['instanceCount:TrainingPlanCapacityExceeded']);
    const otherType = await check({ instanceType: 'ml.g5.8xlarge', availabilityZone: undefined });
    const mismatch = otherType.problems.find((p) => p.code === 'TrainingPlanMismatch')!;
    assert.match(mismatch.message, /'h100-week' reserves ml\.p5\.48xlarge, not ml\.g5\.8xlarge/);

    const p5Zones = (await preflight.instanceTypes()).find((t) => t.instanceType === P5)!.availabilityZones;
    const otherZone = p5Zones.find((z) => z !== plan.zone);
    assert.ok(otherZone, `p5 is offered in more than one zone: ${p5Zones}`);
    {
      const r = await check({ availabilityZone: otherZone });
      assert.deepEqual(
        r.problems.map((p) => `${p.field}:${p.code}`),
        ['trainingPlanArn:TrainingPlanMismatch'],
      );
      assert.match(
        r.problems[0]!.message,
        new RegExp(`reserves ml\\.p5\\.48xlarge in ${plan.zone}, not in ${otherZone}`),
      );
      assert.equal(r.problems[0]!.remedy, `Use availabilityZone ${plan.zone}.`);
    }

    const missing = plan.arn.replace('h100-week', 'no-such-plan');
    assert.deepEqual(await problems({ trainingPlanArn: missing }), ['trainingPlanArn:TrainingPlanNotFound']);
    assert.deepEqual(await problems({ trainingPlanArn: plan.arn.replace('us-west-2', 'eu-west-1') }), [
      'trainingPlanArn:TrainingPlanMismatch',
    ]);
    assert.deepEqual(await problems({ capacityType: 'training-plan', trainingPlanArn: undefined }), [
      'trainingPlanArn:MissingParameter',
    ]);
  });

  it('refuses a plan bought for training jobs rather than HyperPod clusters', async () => {
    const jobs = await buyPlan('jobs-only', 1, 'training-job');
    await sb.advance(300);
    const r = await check({ trainingPlanArn: jobs.arn, availabilityZone: jobs.zone, instanceCount: 1 });
    assert.deepEqual(
      r.problems.map((p) => `${p.field}:${p.code}`),
      ['trainingPlanArn:TrainingPlanMismatch'],
    );
    assert.match(r.problems[0]!.message, /reserves capacity for training-job, not for hyperpod-cluster/);
  });
});
