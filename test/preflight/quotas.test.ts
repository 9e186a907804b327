import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AwsCatalog } from '../../src/cloud/aws/catalog.js';
import { AwsClients } from '../../src/cloud/aws/clients.js';
import { HYPERPOD_QUOTA_NAMES } from '../../src/domain/preflight-quotas.js';
import { QuotaCheckRequestSchema, QuotaCheckResultSchema } from '../../src/domain/schemas/preflight.js';
import { PreflightService } from '../../src/capabilities/catalog/service.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const P5 = 'ml.p5.48xlarge';

describe('PreflightService.checkQuotas on the sandbox', () => {
  let sb: TestSandbox;
  let catalog: AwsCatalog;
  let preflight: PreflightService;
  const check = (input: Record<string, unknown>) => preflight.checkQuotas(QuotaCheckRequestSchema.parse(input));
  /** The quota as the real CLI lists it. */
  const cliQuota = async (name: string) =>
    (await sb.aws(['service-quotas', 'list-service-quotas', '--service-code', 'sagemaker'])).json.Quotas.find(
      (q: { QuotaName: string }) => q.QuotaName === name,
    );

  before(async () => {
    sb = await startTestSandbox();
    catalog = new AwsCatalog(new AwsClients({ defaultRegion: 'us-west-2' }));
    preflight = new PreflightService(catalog, 'us-west-2');
  });
  after(async () => sb.dispose());

  it('explains a shortfall of an accelerated type (0 on a new account) with the quota, its value, the use, the request and the command', async () => {
    const r = QuotaCheckResultSchema.parse(
      await check({ instanceType: P5, instanceCount: 4, availabilityZone: 'us-west-2b' }),
    );
    assert.equal(r.ok, false);
    const quota = await cliQuota(`${P5} for cluster usage`);
    assert.equal(quota.Value, 0);
    const problem = r.problems.find((p) => p.code === 'QuotaExceeded')!;
    assert.equal(problem.field, 'instanceCount');
    assert.match(
      problem.message,
      /The quota 'ml\.p5\.48xlarge for cluster usage' is 0 in us-west-2; existing HyperPod clusters use 0 and this request adds 4, 4 in all\./,
    );
    assert.ok(problem.remedy!.includes(`(${quota.QuotaCode}) to at least 4`));
    assert.ok(
      problem.remedy!.includes(
        `aws service-quotas request-service-quota-increase --service-code sagemaker --quota-code ${quota.QuotaCode} --desired-value 4 --region us-west-2`,
      ),
      problem.remedy,
    );
    const finding = r.quotas.find((q) => q.quotaName === `${P5} for cluster usage`)!;
    assert.deepEqual(
      [finding.quotaCode, finding.value, finding.inUse, finding.requested, finding.ok],
      [quota.QuotaCode, 0, 0, 4, false],
    );
    assert.deepEqual(
      r.quotas.map((q) => q.quotaName),
      [`${P5} for cluster usage`, HYPERPOD_QUOTA_NAMES.totalInstances, HYPERPOD_QUOTA_NAMES.instancesPerCluster],
    );
    assert.equal((await sb.calls({ mutating: true })).length, 0, 'a check changes nothing');
  });

  it('passes once the quota is raised with the very command the remedy gives', async () => {
    const before = QuotaCheckResultSchema.parse(await check({ instanceType: P5, instanceCount: 4 }));
    const remedy = before.problems.find((p) => p.code === 'QuotaExceeded')!.remedy!;
    const command = /: aws (.+?) \(or ask/.exec(remedy)![1]!.split(' ');
    await sb.aws(command);
    await sb.advance(2 * 3600); // Increase requests are approved within 90 sandbox minutes.
    const after = await check({ instanceType: P5, instanceCount: 4, availabilityZone: 'us-west-2b' });
    assert.deepEqual(after.problems, []);
    assert.equal(after.ok, true);
    assert.equal(after.quotas[0]!.value, 4, 'the decision reads the quota fresh, whatever the catalogue cached');
    assert.equal((await check({ instanceType: P5, instanceCount: 5 })).ok, false);
  });

  it('accepts small GPU types within their default quota and refuses one more', async () => {
    const value = (await cliQuota('ml.g5.8xlarge for cluster usage')).Value as number;
    assert.ok(value > 0);
    assert.equal((await check({ instanceType: 'ml.g5.8xlarge', instanceCount: value })).ok, true);
    const over = await check({ instanceType: 'ml.g5.8xlarge', instanceCount: value + 1 });
    assert.deepEqual(
      over.problems.map((p) => p.code),
      ['QuotaExceeded'],
    );
  });

  it('reads the HyperPod-wide quotas by name', async () => {
    const total = await catalog.getQuota('us-west-2', 'sagemaker', HYPERPOD_QUOTA_NAMES.totalInstances);
    const cli = await cliQuota(HYPERPOD_QUOTA_NAMES.totalInstances);
    assert.deepEqual(total, {
      serviceCode: 'sagemaker',
      quotaName: HYPERPOD_QUOTA_NAMES.totalInstances,
      quotaCode: cli.QuotaCode,
      value: cli.Value,
    });
    assert.equal(await catalog.getQuota('us-west-2', 'sagemaker', 'No such quota'), undefined);
    const over = await check({ instanceType: 'ml.c5.xlarge', instanceCount: cli.Value + 1 });
    assert.ok(
      over.problems.some((p) => p.code === 'QuotaExceeded' && p.message.includes(HYPERPOD_QUOTA_NAMES.totalInstances)),
    );
  });

  it('refuses spot for a type EC2 sells without spot, and a type not offered in the zone', async () => {
    const spot = await check({ instanceType: P5, instanceCount: 1, capacityType: 'spot' });
    assert.deepEqual(
      spot.problems.map((p) => `${p.field}:${p.code}`),
      ['capacityType:SpotNotSupported'],
    );
    assert.equal((await check({ instanceType: 'ml.g5.xlarge', instanceCount: 1, capacityType: 'spot' })).ok, true);

    const zones = (await catalog.listHyperPodInstanceTypes('us-west-2')).find(
      (t) => t.instanceType === P5,
    )!.availabilityZones;
    const elsewhere = (await catalog.listAvailabilityZones('us-west-2'))
      .map((z) => z.name)
      .find((z) => !zones.includes(z))!;
    const notHere = await check({ instanceType: P5, instanceCount: 1, availabilityZone: elsewhere });
    assert.deepEqual(
      notHere.problems.map((p) => `${p.field}:${p.code}`),
      ['instanceType:InstanceTypeNotOffered'],
    );
    assert.match(notHere.problems[0]!.message, new RegExp(`offered in ${zones.join(', ')}`));
    const unknown = await check({ instanceType: 'ml.x9.48xlarge', instanceCount: 1 });
    assert.deepEqual(
      unknown.problems.map((p) => `${p.field}:${p.code}`),
      ['instanceType:InstanceTypeNotOffered'],
    );
  });

  it('reads quotas per Region: the raise in us-west-2 does not apply in us-east-1', async () => {
    const east = await check({ region: 'us-east-1', instanceType: P5, instanceCount: 4 });
    assert.equal(east.ok, false);
    assert.match(east.problems.find((p) => p.code === 'QuotaExceeded')!.remedy!, /--region us-east-1/);
    const unknown = await check({ region: 'xx-nowhere-1', instanceType: P5, instanceCount: 1 });
    assert.deepEqual(
      unknown.problems.map((p) => `${p.field}:${p.code}`),
      ['region:InvalidRegion'],
    );
  });
});
