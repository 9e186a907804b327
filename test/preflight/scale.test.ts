import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PreflightService } from '../../src/capabilities/catalog/service.js';
import { checkScale, scaleRefusal } from '../../src/capabilities/instance-groups/scale-preflight.js';
import { evaluatePreflight } from '../../src/domain/preflight.js';
import type { PreflightFacts } from '../../src/domain/preflight-facts.js';
import { clusterUsageQuotaName, HYPERPOD_QUOTA_NAMES } from '../../src/domain/preflight-quotas.js';
import type { InstanceGroupView } from '../../src/domain/schemas/instance-groups.js';
import type { QuotaCheckResult } from '../../src/domain/schemas/preflight.js';

const C5 = 'ml.c5.xlarge';
const group = (name: string, targetCount: number, extra: Partial<InstanceGroupView> = {}): InstanceGroupView => ({
  name,
  instanceType: C5,
  status: 'InService',
  currentCount: targetCount,
  targetCount,
  capacityType: 'on-demand',
  deepHealthChecks: false,
  subnetIds: [],
  labels: {},
  taints: [],
  ...extra,
});

/** A catalogue service that records what it was asked and answers with the domain rules on fixed facts. */
function fakePreflight(facts: PreflightFacts) {
  const asked: Array<Parameters<PreflightService['checkClusterGrowth']>[0]> = [];
  const service = {
    async checkClusterGrowth(req: Parameters<PreflightService['checkClusterGrowth']>[0]): Promise<QuotaCheckResult> {
      asked.push(req);
      return evaluatePreflight({ ...req, region: req.region ?? 'us-west-2' }, facts);
    },
  } as unknown as PreflightService;
  return { service, asked };
}

const quota = (quotaName: string, value: number) => ({
  serviceCode: 'sagemaker',
  quotaName,
  quotaCode: 'L-TEST0000',
  value,
});
const facts = (perType: number, perCluster = 100, usedOfType = 0): PreflightFacts => ({
  instanceType: { availabilityZones: ['us-west-2b'], spotSupported: true },
  quotas: {
    clusterUsage: quota(clusterUsageQuotaName(C5), perType),
    totalInstances: quota(HYPERPOD_QUOTA_NAMES.totalInstances, 100),
    instancesPerCluster: quota(HYPERPOD_QUOTA_NAMES.instancesPerCluster, perCluster),
  },
  usage: { byType: { [C5]: usedOfType }, total: usedOfType },
});

describe("scale preflight: the create's checks for what a scale adds", () => {
  it('a shrink or the same count adds nothing and asks AWS nothing', async () => {
    const { service, asked } = fakePreflight(facts(0));
    for (const count of [0, 2, 3]) {
      const r = await checkScale(service, 'us-west-2', [group('workers', 3)], 'workers', count);
      assert.deepEqual([r.ok, r.adds, r.targetCount, r.instanceCount], [true, 0, 3, count]);
    }
    assert.equal(asked.length, 0);
  });

  it("checks only the growth against the type quota, with the group's capacity type and plan", async () => {
    const plan = 'arn:aws:sagemaker:us-west-2:000000000000:training-plan/week';
    const { service, asked } = fakePreflight(facts(10, 100, 3));
    const ok = await checkScale(service, 'us-west-2', [group('workers', 3)], 'workers', 10);
    assert.equal(ok.ok, true, JSON.stringify(ok.problems));
    assert.equal(ok.adds, 7);
    const refused = await checkScale(service, 'us-west-2', [group('workers', 3)], 'workers', 11);
    assert.equal(refused.ok, false);
    assert.equal(refused.problems[0]!.code, 'QuotaExceeded');
    assert.match(
      refused.problems[0]!.message,
      /is 10 in us-west-2; existing HyperPod clusters use 3 and this request adds 8, 11 in all/,
    );
    await checkScale(
      service,
      'us-west-2',
      [group('tp', 1, { capacityType: 'training-plan', trainingPlanArn: plan })],
      'tp',
      2,
    );
    assert.deepEqual(
      [asked[2]!.instanceCount, asked[2]!.capacityType, asked[2]!.trainingPlanArn],
      [1, 'training-plan', plan],
    );
  });

  it("counts the cluster's other groups against the per-cluster limit (a new cluster starts empty, a scaled one does not)", async () => {
    const { service, asked } = fakePreflight(facts(100, 10));
    const groups = [group('a', 4), group('b', 5), group('gone', 50, { status: 'Deleting' })];
    const r = await checkScale(service, 'us-west-2', groups, 'a', 6);
    assert.equal(asked[0]!.clusterInUse, 9, 'a Deleting group gives its instances back');
    assert.equal(r.ok, false, 'the cluster would hold 11 of 10');
    const perCluster = r.quotas.find((q) => q.quotaName === HYPERPOD_QUOTA_NAMES.instancesPerCluster)!;
    assert.deepEqual([perCluster.inUse, perCluster.requested, perCluster.ok], [9, 2, false]);
  });

  it('refuses with sentences: the 422 detail carries no raw field path', async () => {
    const { service } = fakePreflight(facts(10));
    const err = scaleRefusal('workers', await checkScale(service, 'us-west-2', [group('workers', 1)], 'workers', 20));
    assert.match(err.message, /^Instance group workers cannot grow from 1 to 20 instances: The quota/);
    assert.doesNotMatch(err.message, /instanceCount:/);
    assert.equal(err.problems[0]!.path, 'instanceCount');
    assert.match(err.remedy!, /request-service-quota-increase/);
  });

  it('an unknown group is bad input naming it', async () => {
    const { service } = fakePreflight(facts(10));
    await assert.rejects(checkScale(service, 'us-west-2', [group('a', 1)], 'nope', 2), /no instance group 'nope'/);
  });
});
