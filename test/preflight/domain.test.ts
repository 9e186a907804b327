import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evaluatePreflight } from '../../src/domain/preflight.js';
import type { PreflightFacts, PreflightRequest, TrainingPlanFacts } from '../../src/domain/preflight-facts.js';
import {
  clusterUsageQuotaName,
  HYPERPOD_QUOTA_NAMES,
  instanceTypeFromClusterUsageQuota,
  quotaIncreaseRemedy,
} from '../../src/domain/preflight-quotas.js';
import { parseTrainingPlanArn, trainingPlanView } from '../../src/domain/preflight-training-plan.js';
import { QuotaCheckResultSchema, TrainingPlanViewSchema } from '../../src/domain/schemas/preflight.js';

const P5 = 'ml.p5.48xlarge';
const PLAN_ARN = 'arn:aws:sagemaker:us-west-2:000000000000:training-plan/h100-week';
const quota = (quotaName: string, value: number, quotaCode = 'L-0000ABCD') => ({
  serviceCode: 'sagemaker',
  quotaName,
  quotaCode,
  value,
});

const request = (extra: Partial<PreflightRequest> = {}): PreflightRequest => ({
  region: 'us-west-2',
  instanceType: P5,
  instanceCount: 4,
  capacityType: 'on-demand',
  availabilityZone: 'us-west-2b',
  ...extra,
});

const facts = (extra: Partial<PreflightFacts> = {}): PreflightFacts => ({
  zones: ['us-west-2a', 'us-west-2b', 'us-west-2c', 'us-west-2d'],
  instanceType: { availabilityZones: ['us-west-2b', 'us-west-2d'], spotSupported: false },
  quotas: {
    clusterUsage: quota(clusterUsageQuotaName(P5), 8, 'L-P5P5P5P5'),
    totalInstances: quota(HYPERPOD_QUOTA_NAMES.totalInstances, 100, 'L-TOTAL000'),
    instancesPerCluster: quota(HYPERPOD_QUOTA_NAMES.instancesPerCluster, 100, 'L-PERCLUST'),
  },
  usage: { byType: {}, total: 0 },
  ...extra,
});

const plan = (extra: Partial<TrainingPlanFacts> = {}): TrainingPlanFacts => ({
  arn: PLAN_ARN,
  name: 'h100-week',
  status: 'Scheduled',
  instanceType: P5,
  totalInstanceCount: 4,
  availableInstanceCount: 4,
  inUseInstanceCount: 0,
  availabilityZone: 'us-west-2b',
  targetResources: ['hyperpod-cluster'],
  reservedCapacities: [{ instanceType: P5, instanceCount: 4, availabilityZone: 'us-west-2b' }],
  ...extra,
});

const codes = (r: ReturnType<typeof evaluatePreflight>) => r.problems.map((p) => `${p.field}:${p.code}`);

describe('preflight rules (pure)', () => {
  it('passes a request that fits, reporting every quota it checked', () => {
    const r = evaluatePreflight(request(), facts());
    assert.deepEqual(r.problems, []);
    assert.equal(r.ok, true);
    assert.deepEqual(
      r.quotas.map((q) => [q.quotaName, q.value, q.inUse, q.requested, q.ok]),
      [
        [`${P5} for cluster usage`, 8, 0, 4, true],
        [HYPERPOD_QUOTA_NAMES.totalInstances, 100, 0, 4, true],
        [HYPERPOD_QUOTA_NAMES.instancesPerCluster, 100, 0, 4, true],
      ],
    );
    QuotaCheckResultSchema.parse(r);
  });

  it('explains a quota shortfall with the quota, its value, what is in use, what is asked, and the increase command', () => {
    const r = evaluatePreflight(
      request(),
      facts({
        usage: { byType: { [P5]: 2, 'ml.g5.8xlarge': 3 }, total: 5 },
        quotas: { ...facts().quotas, clusterUsage: quota(`${P5} for cluster usage`, 4, 'L-P5P5P5P5') },
      }),
    );
    assert.equal(r.ok, false);
    assert.deepEqual(codes(r), ['instanceCount:QuotaExceeded']);
    const [p] = r.problems;
    assert.match(
      p!.message,
      /'ml\.p5\.48xlarge for cluster usage' is 4 in us-west-2; existing HyperPod clusters use 2 and this request adds 4, 6 in all/,
    );
    assert.equal(
      p!.remedy,
      "Request an increase of 'ml.p5.48xlarge for cluster usage' (L-P5P5P5P5) to at least 6 in Service Quotas: aws service-quotas request-service-quota-increase --service-code sagemaker --quota-code L-P5P5P5P5 --desired-value 6 --region us-west-2 (or ask for fewer instances).",
    );
    const finding = r.quotas.find((q) => q.quotaCode === 'L-P5P5P5P5')!;
    assert.deepEqual([finding.value, finding.inUse, finding.requested, finding.ok], [4, 2, 4, false]);
    assert.ok(r.quotas.find((q) => q.quotaName === HYPERPOD_QUOTA_NAMES.totalInstances)!.inUse === 5);
  });

  it('checks the across-clusters and per-cluster limits too; a quota the account lacks is not enforced', () => {
    const r = evaluatePreflight(
      request({ instanceCount: 20 }),
      facts({
        usage: { byType: {}, total: 90 },
        quotas: {
          clusterUsage: quota(`${P5} for cluster usage`, 50),
          totalInstances: quota(HYPERPOD_QUOTA_NAMES.totalInstances, 100),
          instancesPerCluster: quota(HYPERPOD_QUOTA_NAMES.instancesPerCluster, 16),
        },
      }),
    );
    assert.deepEqual(codes(r), ['instanceCount:QuotaExceeded', 'instanceCount:QuotaExceeded']);
    assert.match(
      r.problems[0]!.message,
      /Total number of instances allowed across SageMaker HyperPod clusters' is 100 .* use 90 .* adds 20, 110 in all/,
    );
    assert.match(
      r.problems[1]!.message,
      /Maximum number of instances allowed per SageMaker HyperPod cluster' is 16 .* use 0 .* adds 20/,
    );
    const lacking = evaluatePreflight(
      request(),
      facts({ quotas: { clusterUsage: quota(`${P5} for cluster usage`, 8) } }),
    );
    assert.equal(lacking.ok, true);
    assert.equal(lacking.quotas.length, 1);
  });

  it('refuses a zone of another Region and a type not offered in the zone, naming the zones that work', () => {
    const wrongZone = evaluatePreflight(request({ availabilityZone: 'us-east-1a' }), facts());
    assert.deepEqual(codes(wrongZone), ['availabilityZone:InvalidAvailabilityZone']);
    assert.match(wrongZone.problems[0]!.remedy!, /us-west-2a, us-west-2b, us-west-2c, us-west-2d/);
    const notHere = evaluatePreflight(request({ availabilityZone: 'us-west-2a' }), facts());
    assert.deepEqual(codes(notHere), ['instanceType:InstanceTypeNotOffered']);
    assert.match(
      notHere.problems[0]!.message,
      /not offered in us-west-2a; in us-west-2 it is offered in us-west-2b, us-west-2d/,
    );
    assert.match(notHere.problems[0]!.remedy!, /availabilityZone us-west-2b or us-west-2d/);
    const unknown = evaluatePreflight(
      request({ instanceType: 'ml.x9.huge' }),
      facts({ instanceType: undefined, quotas: {} }),
    );
    assert.deepEqual(codes(unknown), ['instanceType:InstanceTypeNotOffered']);
  });

  it('refuses EFA for a type EC2 says has none, and allows it for one that has', () => {
    const noEfa = { availabilityZones: ['us-west-2b'], spotSupported: false, efaSupported: false };
    const r = evaluatePreflight(request({ networkInterface: 'efa' }), facts({ instanceType: noEfa }));
    assert.deepEqual(codes(r), ['networkInterface:EfaNotSupported']);
    assert.match(
      r.problems[0]!.remedy!,
      /Leave networkInterface out \(ENA only\), or choose a type whose efaSupported is true/,
    );
    assert.equal(
      evaluatePreflight(
        request({ networkInterface: 'efa-only' }),
        facts({ instanceType: { ...noEfa, efaSupported: true } }),
      ).ok,
      true,
    );
    assert.equal(evaluatePreflight(request({}), facts({ instanceType: noEfa })).ok, true, 'ENA only needs nothing');
  });

  it('refuses spot for a type without spot capacity', () => {
    const r = evaluatePreflight(request({ capacityType: 'spot' }), facts());
    assert.deepEqual(codes(r), ['capacityType:SpotNotSupported']);
    const ok = evaluatePreflight(
      request({ capacityType: 'spot' }),
      facts({ instanceType: { availabilityZones: ['us-west-2b'], spotSupported: true } }),
    );
    assert.equal(ok.ok, true);
  });

  it('refuses a name already used by a HyperPod cluster or by the EKS cluster it would need', () => {
    const r = evaluatePreflight(
      request({ name: 'demo' }),
      facts({ existing: { hyperPodCluster: true, eksCluster: 'demo-eks' } }),
    );
    assert.deepEqual(codes(r), ['name:ClusterExists', 'name:ClusterExists']);
    assert.match(r.problems[1]!.message, /EKS cluster named 'demo-eks'/);
    assert.equal(
      evaluatePreflight(request({ name: 'demo' }), facts({ existing: { hyperPodCluster: false } })).ok,
      true,
    );
  });

  describe('training plans', () => {
    const onPlan = (extra: Partial<PreflightRequest> = {}) =>
      request({ capacityType: 'training-plan', trainingPlanArn: PLAN_ARN, ...extra });

    it('accepts a Scheduled or Active plan that reserves the type in the zone with enough instances', () => {
      assert.equal(evaluatePreflight(onPlan(), facts({ trainingPlan: plan() })).ok, true);
      assert.equal(evaluatePreflight(onPlan(), facts({ trainingPlan: plan({ status: 'Active' }) })).ok, true);
    });

    it('explains each mismatch: missing, other Region, status, type, zone, count, target', () => {
      assert.deepEqual(codes(evaluatePreflight(onPlan(), facts())), ['trainingPlanArn:TrainingPlanNotFound']);
      assert.deepEqual(codes(evaluatePreflight(onPlan({ trainingPlanArn: undefined }), facts())), [
        'trainingPlanArn:MissingParameter',
      ]);
      assert.deepEqual(codes(evaluatePreflight(request({ trainingPlanArn: PLAN_ARN }), facts())), [
        'trainingPlanArn:InvalidParameterCombination',
      ]);
      const otherRegion = evaluatePreflight(
        onPlan({ trainingPlanArn: PLAN_ARN.replace('us-west-2', 'eu-west-1') }),
        facts({ trainingPlan: plan() }),
      );
      assert.deepEqual(codes(otherRegion), ['trainingPlanArn:TrainingPlanMismatch']);
      assert.match(otherRegion.problems[0]!.message, /is in eu-west-1/);

      const pending = evaluatePreflight(onPlan(), facts({ trainingPlan: plan({ status: 'Pending' }) }));
      assert.deepEqual(codes(pending), ['trainingPlanArn:TrainingPlanNotUsable']);
      assert.match(pending.problems[0]!.remedy!, /Wait until the plan is Scheduled/);
      const expired = evaluatePreflight(
        onPlan(),
        facts({ trainingPlan: plan({ status: 'Expired', availableInstanceCount: 0 }) }),
      );
      assert.deepEqual(codes(expired), ['trainingPlanArn:TrainingPlanNotUsable']);

      const otherType = evaluatePreflight(onPlan({ instanceType: 'ml.p4d.24xlarge' }), facts({ trainingPlan: plan() }));
      assert.ok(codes(otherType).includes('trainingPlanArn:TrainingPlanMismatch'));
      assert.match(
        otherType.problems.find((p) => p.code === 'TrainingPlanMismatch')!.message,
        /reserves ml\.p5\.48xlarge, not ml\.p4d\.24xlarge/,
      );

      const otherZone = evaluatePreflight(onPlan({ availabilityZone: 'us-west-2d' }), facts({ trainingPlan: plan() }));
      assert.deepEqual(codes(otherZone), ['trainingPlanArn:TrainingPlanMismatch']);
      assert.match(otherZone.problems[0]!.remedy!, /Use availabilityZone us-west-2b/);

      const tooMany = evaluatePreflight(
        onPlan({ instanceCount: 6 }),
        facts({ trainingPlan: plan({ availableInstanceCount: 2, inUseInstanceCount: 2 }) }),
      );
      assert.deepEqual(codes(tooMany), ['instanceCount:TrainingPlanCapacityExceeded']);
      assert.match(tooMany.problems[0]!.message, /has 2 of 4 instances available \(2 in use\); this request needs 6/);

      const forJobs = evaluatePreflight(onPlan(), facts({ trainingPlan: plan({ targetResources: ['training-job'] }) }));
      assert.deepEqual(codes(forJobs), ['trainingPlanArn:TrainingPlanMismatch']);
    });

    it('shows a plan as the view schema expects', () => {
      const view = trainingPlanView(plan());
      assert.equal('reservedCapacities' in view, false);
      TrainingPlanViewSchema.parse(view);
    });
  });

  it('parses names and ARNs', () => {
    assert.equal(instanceTypeFromClusterUsageQuota('ml.p5.48xlarge for cluster usage'), 'ml.p5.48xlarge');
    assert.equal(instanceTypeFromClusterUsageQuota('ml.p5.48xlarge for training job usage'), undefined);
    assert.equal(instanceTypeFromClusterUsageQuota(HYPERPOD_QUOTA_NAMES.totalInstances), undefined);
    assert.deepEqual(parseTrainingPlanArn(PLAN_ARN), { region: 'us-west-2', name: 'h100-week' });
    assert.equal(parseTrainingPlanArn('arn:aws:sagemaker:us-west-2:000000000000:cluster/abc'), undefined);
    assert.match(
      quotaIncreaseRemedy({ serviceCode: 'sagemaker', quotaName: 'q', value: 1 }, 3, 'us-west-2'),
      /to at least 3 in Service Quotas \(console/,
    );
  });
});
