import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  CreateTrainingPlanCommand,
  DescribeTrainingPlanCommand,
  ListTrainingPlansCommand,
  SageMakerClient,
  SearchTrainingPlanOfferingsCommand,
} from '@aws-sdk/client-sagemaker';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const rejectsWith = (code: string, pattern?: RegExp) => (e: Error) => {
  assert.equal(e.name, code, e.message);
  if (pattern) assert.match(e.message, pattern);
  return true;
};

describe('SageMaker training plans', () => {
  let sb: TestSandbox;
  let sm: SageMakerClient;

  before(async () => {
    sb = await startTestSandbox();
    sm = new SageMakerClient({ region: 'us-west-2' });
  });
  after(async () => sb.dispose());

  it('searches offerings only in zones that offer the type, deterministically', async () => {
    const search = {
      InstanceType: 'ml.p5.48xlarge' as const,
      InstanceCount: 2,
      DurationHours: 48,
      TargetResources: ['hyperpod-cluster' as const],
    };
    const first = await sm.send(new SearchTrainingPlanOfferingsCommand(search));
    const offerings = first.TrainingPlanOfferings!;
    assert.ok(offerings.length > 0);
    for (const o of offerings) {
      assert.match(o.TrainingPlanOfferingId!, /^tpo-[0-9a-f]+$/);
      assert.equal(o.CurrencyCode, 'USD');
      assert.ok(Number(o.UpfrontFee) > 0);
      assert.equal(o.DurationHours, 48);
      assert.deepEqual(o.TargetResources, ['hyperpod-cluster']);
      const cap = o.ReservedCapacityOfferings![0]!;
      assert.equal(cap.InstanceType, 'ml.p5.48xlarge');
      assert.equal(cap.InstanceCount, 2);
      // p5 is offered in us-west-2b and us-west-2d in the sandbox catalogue.
      assert.ok(['us-west-2b', 'us-west-2d'].includes(cap.AvailabilityZone!), cap.AvailabilityZone);
      assert.equal(cap.EndTime!.getTime() - cap.StartTime!.getTime(), 48 * 3600_000);
    }
    const again = await sm.send(new SearchTrainingPlanOfferingsCommand(search));
    assert.deepEqual(
      again.TrainingPlanOfferings!.map((o) => o.TrainingPlanOfferingId),
      offerings.map((o) => o.TrainingPlanOfferingId),
    );
    const scarce = await sm.send(
      new SearchTrainingPlanOfferingsCommand({ ...search, InstanceType: 'ml.p4de.24xlarge' }),
    );
    assert.ok(
      scarce.TrainingPlanOfferings!.every((o) => o.ReservedCapacityOfferings![0]!.AvailabilityZone === 'us-west-2b'),
    );
  });

  it('buys an offering: Pending, then Scheduled, Active from its start, Expired at its end', async () => {
    const { TrainingPlanOfferings } = await sm.send(
      new SearchTrainingPlanOfferingsCommand({
        InstanceType: 'ml.p5.48xlarge',
        InstanceCount: 4,
        DurationHours: 24,
        TargetResources: ['hyperpod-cluster'],
      }),
    );
    const offering = TrainingPlanOfferings![0]!;
    const { TrainingPlanArn } = await sm.send(
      new CreateTrainingPlanCommand({
        TrainingPlanName: 'p5-week',
        TrainingPlanOfferingId: offering.TrainingPlanOfferingId,
        Tags: [{ Key: 'team', Value: 'ml' }],
      }),
    );
    assert.equal(TrainingPlanArn, 'arn:aws:sagemaker:us-west-2:000000000000:training-plan/p5-week');

    const pending = await sm.send(new DescribeTrainingPlanCommand({ TrainingPlanName: 'p5-week' }));
    assert.equal(pending.Status, 'Pending');
    assert.equal(pending.TotalInstanceCount, 4);
    assert.equal(pending.AvailableInstanceCount, 4);
    assert.equal(pending.InUseInstanceCount, 0);
    assert.equal(pending.UpfrontFee, offering.UpfrontFee);
    const summary = pending.ReservedCapacitySummaries![0]!;
    assert.equal(summary.InstanceType, 'ml.p5.48xlarge');
    assert.equal(summary.AvailabilityZone, offering.ReservedCapacityOfferings![0]!.AvailabilityZone);
    assert.match(summary.AvailabilityZoneId!, /^usw2-az\d$/);
    assert.match(summary.ReservedCapacityArn!, /^arn:aws:sagemaker:us-west-2:000000000000:reserved-capacity\//);

    await sb.advance(5 * 60);
    assert.equal((await sm.send(new DescribeTrainingPlanCommand({ TrainingPlanName: 'p5-week' }))).Status, 'Scheduled');

    const start = pending.StartTime!.getTime();
    const nowMs = Date.parse((await sb.admin('/_sandbox/clock')).body.now as string);
    const secondsToStart = Math.ceil((start - nowMs) / 1000) + 60;
    await sb.advance(secondsToStart);
    const active = await sm.send(new DescribeTrainingPlanCommand({ TrainingPlanName: 'p5-week' }));
    assert.equal(active.Status, 'Active');
    assert.equal(active.ReservedCapacitySummaries![0]!.Status, 'Active');

    const listed = await sm.send(new ListTrainingPlansCommand({ Filters: [{ Name: 'Status', Value: 'Active' }] }));
    assert.deepEqual(
      listed.TrainingPlanSummaries!.map((p) => p.TrainingPlanName),
      ['p5-week'],
    );
    assert.deepEqual(
      (await sm.send(new ListTrainingPlansCommand({ Filters: [{ Name: 'Status', Value: 'Expired' }] })))
        .TrainingPlanSummaries,
      [],
    );

    await sb.advance(25 * 3600);
    const expired = await sm.send(new DescribeTrainingPlanCommand({ TrainingPlanName: 'p5-week' }));
    assert.equal(expired.Status, 'Expired');
    assert.equal(expired.AvailableInstanceCount, 0);
  });

  it('pages and sorts ListTrainingPlans', async () => {
    for (const name of ['trn-a', 'trn-b']) {
      const { TrainingPlanOfferings } = await sm.send(
        new SearchTrainingPlanOfferingsCommand({
          InstanceType: 'ml.trn1.32xlarge',
          InstanceCount: 1,
          DurationHours: 24,
          TargetResources: ['training-job'],
        }),
      );
      await sm.send(
        new CreateTrainingPlanCommand({
          TrainingPlanName: name,
          TrainingPlanOfferingId: TrainingPlanOfferings![0]!.TrainingPlanOfferingId,
        }),
      );
    }
    const first = await sm.send(
      new ListTrainingPlansCommand({ MaxResults: 2, SortBy: 'TrainingPlanName', SortOrder: 'Ascending' }),
    );
    assert.deepEqual(
      first.TrainingPlanSummaries!.map((p) => p.TrainingPlanName),
      ['p5-week', 'trn-a'],
    );
    const second = await sm.send(
      new ListTrainingPlansCommand({
        MaxResults: 2,
        SortBy: 'TrainingPlanName',
        SortOrder: 'Ascending',
        NextToken: first.NextToken,
      }),
    );
    assert.deepEqual(
      second.TrainingPlanSummaries!.map((p) => p.TrainingPlanName),
      ['trn-b'],
    );
    assert.equal(second.NextToken, undefined);
  });

  it('rejects bad requests with SageMaker error codes and changes nothing', async () => {
    const before = await sb.inventory();
    const { TrainingPlanOfferings } = await sm.send(
      new SearchTrainingPlanOfferingsCommand({
        InstanceType: 'ml.p5.48xlarge',
        InstanceCount: 1,
        DurationHours: 24,
        TargetResources: ['hyperpod-cluster'],
      }),
    );
    const id = TrainingPlanOfferings![0]!.TrainingPlanOfferingId;
    await assert.rejects(
      sm.send(new CreateTrainingPlanCommand({ TrainingPlanName: 'p5-week', TrainingPlanOfferingId: id })),
      rejectsWith('ResourceInUse'),
    );
    await assert.rejects(
      sm.send(new CreateTrainingPlanCommand({ TrainingPlanName: 'fresh', TrainingPlanOfferingId: 'tpo-0000' })),
      rejectsWith('ResourceNotFound'),
    );
    await assert.rejects(
      sm.send(new CreateTrainingPlanCommand({ TrainingPlanName: 'bad_name!', TrainingPlanOfferingId: id })),
      rejectsWith(
        'ValidationException',
        /Value 'bad_name!' at 'trainingPlanName' failed to satisfy constraint: Member must satisfy regular expression pattern/,
      ),
    );
    await assert.rejects(
      sm.send(
        new SearchTrainingPlanOfferingsCommand({
          InstanceType: 'ml.p5.48xlarge',
          InstanceCount: 1,
          DurationHours: 24,
          TargetResources: ['cluster' as never],
        }),
      ),
      rejectsWith(
        'ValidationException',
        /'targetResources.1.member' failed to satisfy constraint: Member must satisfy enum value set/,
      ),
    );
    await assert.rejects(
      sm.send(
        new SearchTrainingPlanOfferingsCommand({
          InstanceType: 'ml.p5.48xlarge',
          InstanceCount: 1,
          DurationHours: 30,
          TargetResources: ['hyperpod-cluster'],
        }),
      ),
      rejectsWith('ValidationException', /DurationHours/),
    );
    await assert.rejects(
      sm.send(new DescribeTrainingPlanCommand({ TrainingPlanName: 'nope' })),
      rejectsWith('ResourceNotFound'),
    );
    await assert.rejects(
      sm.send(new DescribeTrainingPlanCommand({ TrainingPlanName: undefined })),
      rejectsWith('ValidationException', /Member must not be null/),
    );
    assert.deepEqual(await sb.inventory(), before);
  });

  it('answers the aws CLI', async () => {
    const out = await sb.aws(['sagemaker', 'describe-training-plan', '--training-plan-name', 'p5-week'], {
      region: 'us-west-2',
    });
    assert.equal(out.json.Status, 'Expired');
    assert.equal(out.json.ReservedCapacitySummaries[0].InstanceType, 'ml.p5.48xlarge');
  });
});
