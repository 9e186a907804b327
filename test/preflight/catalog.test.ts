import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AwsCatalog, TtlCache } from '../../src/cloud/aws/catalog.js';
import { AwsClients } from '../../src/cloud/aws/clients.js';
import { InputError } from '../../src/domain/errors.js';
import { InstanceTypeViewSchema } from '../../src/domain/schemas/preflight.js';
import { PreflightService } from '../../src/capabilities/catalog/service.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

/** HyperPod types per the quota listing (`ml.<type> for cluster usage`), asked through the real CLI. */
async function hyperPodTypesByCli(sb: TestSandbox, region: string): Promise<Set<string>> {
  const out = await sb.aws(['service-quotas', 'list-service-quotas', '--service-code', 'sagemaker'], { region });
  return new Set(
    out.json.Quotas.map((q: { QuotaName: string }) => /^(ml\.\S+) for cluster usage$/.exec(q.QuotaName)?.[1]).filter(
      Boolean,
    ),
  );
}

/** `ml.<type>` names EC2 offers in each zone of the Region, asked through the real CLI. */
async function offeredByZoneByCli(sb: TestSandbox, region: string): Promise<Map<string, Set<string>>> {
  const out = await sb.aws(['ec2', 'describe-instance-type-offerings', '--location-type', 'availability-zone'], {
    region,
  });
  const byZone = new Map<string, Set<string>>();
  for (const o of out.json.InstanceTypeOfferings as Array<{ InstanceType: string; Location: string }>) {
    byZone.set(o.Location, (byZone.get(o.Location) ?? new Set()).add(`ml.${o.InstanceType}`));
  }
  return byZone;
}

describe('AwsCatalog and PreflightService read the catalogue from the APIs', () => {
  let sb: TestSandbox;
  let catalog: AwsCatalog;
  let preflight: PreflightService;

  before(async () => {
    sb = await startTestSandbox();
    catalog = new AwsCatalog(new AwsClients({ defaultRegion: 'us-west-2' }));
    preflight = new PreflightService(catalog, 'us-west-2');
  });
  after(async () => sb.dispose());

  it('lists the Regions EC2 reports', async () => {
    const cli = await sb.aws(['ec2', 'describe-regions']);
    const expected = cli.json.Regions.map((r: { RegionName: string }) => r.RegionName).sort();
    assert.deepEqual(
      (await preflight.regions()).map((r) => r.name),
      expected,
    );
  });

  it('lists the zones EC2 reports, with their zone ids, in any Region', async () => {
    for (const region of ['us-west-2', 'eu-west-1']) {
      const cli = await sb.aws(['ec2', 'describe-availability-zones'], { region });
      const expected = cli.json.AvailabilityZones.map((z: { ZoneName: string; ZoneId: string; State: string }) => ({
        name: z.ZoneName,
        zoneId: z.ZoneId,
        state: z.State,
      }));
      assert.ok(expected.length > 0);
      assert.deepEqual(await preflight.availabilityZones(region), expected);
    }
  });

  it('lists exactly the HyperPod types EC2 offers in a zone (DescribeInstanceTypeOfferings ∩ cluster-usage quotas)', async () => {
    const hyperPod = await hyperPodTypesByCli(sb, 'us-west-2');
    const byZone = await offeredByZoneByCli(sb, 'us-west-2');
    assert.equal(byZone.size, 4);
    for (const [zone, offered] of byZone) {
      const expected = [...offered].filter((t) => hyperPod.has(t)).sort();
      const types = await preflight.instanceTypes('us-west-2', zone);
      assert.deepEqual(
        types.map((t) => t.instanceType),
        expected,
        zone,
      );
      assert.ok(types.every((t) => t.availabilityZones.includes(zone)));
      // EC2-only types (offered, but without a HyperPod quota) are not HyperPod types.
      assert.ok(
        [...offered].some((t) => !hyperPod.has(t)),
        'the zone offers some EC2-only types',
      );
    }
    const a = (await preflight.instanceTypes('us-west-2', 'us-west-2a')).map((t) => t.instanceType);
    const b = (await preflight.instanceTypes('us-west-2', 'us-west-2b')).map((t) => t.instanceType);
    assert.notDeepEqual(a, b, 'accelerated types are patchy: zones differ');
  });

  it('narrows the list to accelerated types, or to one family, for an agent that asks about a few', async () => {
    const all = await preflight.instanceTypes('us-west-2', 'us-west-2b');
    const accelerated = await preflight.instanceTypes('us-west-2', 'us-west-2b', { accelerators: true });
    assert.ok(accelerated.length > 0 && accelerated.length < all.length);
    assert.deepEqual(
      accelerated,
      all.filter((t) => (t.acceleratorCount ?? 0) > 0),
    );
    const cpu = await preflight.instanceTypes('us-west-2', 'us-west-2b', { accelerators: false });
    assert.equal(cpu.length + accelerated.length, all.length);
    const g5 = await preflight.instanceTypes('us-west-2', 'us-west-2b', { family: 'g5', accelerators: true });
    assert.ok(g5.length > 0);
    assert.deepEqual(
      g5.map((t) => t.instanceType),
      all.map((t) => t.instanceType).filter((n) => n.startsWith('ml.g5.')),
    );
    assert.deepEqual(
      await preflight.instanceTypes('us-west-2', 'us-west-2b', { family: 'g5', accelerators: false }),
      [],
    );
  });

  it('gives each type its zones, specs, spot support and the account quota, as AWS describes them', async () => {
    const all = await catalog.listHyperPodInstanceTypes('us-west-2');
    for (const t of all) InstanceTypeViewSchema.parse(t);
    assert.deepEqual(
      all.map((t) => t.instanceType),
      all.map((t) => t.instanceType).sort(),
    );

    const p5 = all.find((t) => t.instanceType === 'ml.p5.48xlarge')!;
    const cli = await sb.aws(['ec2', 'describe-instance-types', '--instance-types', 'p5.48xlarge']);
    const ec2 = cli.json.InstanceTypes[0];
    assert.equal(p5.vcpus, ec2.VCpuInfo.DefaultVCpus);
    assert.equal(p5.memoryGiB, ec2.MemoryInfo.SizeInMiB / 1024);
    assert.equal(p5.acceleratorName, ec2.GpuInfo.Gpus[0].Name);
    assert.equal(p5.acceleratorCount, ec2.GpuInfo.Gpus[0].Count);
    assert.equal(p5.efaSupported, true);
    assert.equal(p5.maximumEfaInterfaces, ec2.NetworkInfo.EfaInfo.MaximumEfaInterfaces);
    assert.equal(p5.spotSupported, ec2.SupportedUsageClasses.includes('spot'));
    assert.equal(p5.clusterUsageQuota, 0, 'accelerated types start at 0 on a new account');
    const zones = await sb.aws([
      'ec2',
      'describe-instance-type-offerings',
      '--location-type',
      'availability-zone',
      '--filters',
      'Name=instance-type,Values=p5.48xlarge',
    ]);
    assert.deepEqual(
      p5.availabilityZones,
      zones.json.InstanceTypeOfferings.map((o: { Location: string }) => o.Location).sort(),
    );

    const trn = all.find((t) => t.instanceType.startsWith('ml.trn'));
    if (trn) assert.ok(trn.acceleratorName && trn.acceleratorCount! > 0, 'Neuron devices count as accelerators');
    const g5 = all.find((t) => t.instanceType === 'ml.g5.xlarge')!;
    assert.equal(g5.spotSupported, true);
    assert.equal(g5.efaSupported, false);
    assert.equal(g5.maximumEfaInterfaces, undefined);
    assert.ok(g5.clusterUsageQuota! > 0);
  });

  it('caches the catalogue per Region, and can forget it', async () => {
    const count = async () => (await sb.calls({ service: 'ec2', operation: 'DescribeInstanceTypeOfferings' })).length;
    const fresh = new AwsCatalog(new AwsClients({ defaultRegion: 'us-west-2' }));
    const before = await count();
    await fresh.listHyperPodInstanceTypes('us-west-2');
    const once = await count();
    assert.ok(once > before);
    await fresh.listHyperPodInstanceTypes('us-west-2', 'us-west-2c');
    await Promise.all([fresh.listHyperPodInstanceTypes('us-west-2'), fresh.listHyperPodInstanceTypes('us-west-2')]);
    assert.equal(await count(), once, 'answered from the cache');
    await fresh.listHyperPodInstanceTypes('us-east-1');
    const twoRegions = await count();
    assert.ok(twoRegions > once, 'another Region is another entry');
    fresh.clearCache('us-west-2');
    await fresh.listHyperPodInstanceTypes('us-west-2');
    await fresh.listHyperPodInstanceTypes('us-east-1');
    assert.equal(await count(), twoRegions + (once - before), 'only the cleared Region was asked again');

    let now = 0;
    const timed = new AwsCatalog(new AwsClients({ defaultRegion: 'us-west-2' }), {
      cache: new TtlCache({ ttlMs: 1000, now: () => now }),
    });
    await timed.listAvailabilityZones('us-west-2');
    const zoneCalls = async () => (await sb.calls({ service: 'ec2', operation: 'DescribeAvailabilityZones' })).length;
    const z0 = await zoneCalls();
    now = 999;
    await timed.listAvailabilityZones('us-west-2');
    assert.equal(await zoneCalls(), z0);
    now = 1000;
    await timed.listAvailabilityZones('us-west-2');
    assert.equal(await zoneCalls(), z0 + 1, 'stale after the time to live');
  });

  it('does not cache failures', async () => {
    const fresh = new AwsCatalog(new AwsClients({ defaultRegion: 'us-west-2', maxAttempts: 1 }));
    await sb.admin('/_sandbox/faults', {
      method: 'POST',
      body: {
        type: 'error',
        service: 'ec2',
        operation: 'DescribeAvailabilityZones',
        code: 'InternalError',
        status: 500,
        count: 1,
      },
    });
    await assert.rejects(
      fresh.listAvailabilityZones('us-west-2'),
      (e: Error) => e.name === 'CloudError' && (e as { code?: string }).code === 'InternalError',
    );
    assert.equal((await fresh.listAvailabilityZones('us-west-2')).length, 4);
  });

  it('refuses a zone of another Region and an unknown Region as input errors', async () => {
    await assert.rejects(preflight.instanceTypes('us-west-2', 'us-east-1a'), (e: Error) => {
      assert.ok(e instanceof InputError);
      assert.deepEqual(
        e.problems.map((p) => p.path),
        ['availabilityZone'],
      );
      assert.match(e.message, /us-west-2a, us-west-2b, us-west-2c, us-west-2d/);
      return true;
    });
    await assert.rejects(
      preflight.availabilityZones('xx-nowhere-1'),
      (e: Error) => e instanceof InputError && e.problems[0]!.path === 'region',
    );
  });
});
