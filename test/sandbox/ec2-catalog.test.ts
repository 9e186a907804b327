import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  DescribeAvailabilityZonesCommand,
  DescribeInstanceTypeOfferingsCommand,
  DescribeInstanceTypesCommand,
  DescribeRegionsCommand,
  EC2Client,
  paginateDescribeInstanceTypeOfferings,
} from '@aws-sdk/client-ec2';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

describe('EC2 catalogue: regions, zones and instance types', () => {
  let sb: TestSandbox;
  let ec2: EC2Client;
  before(async () => {
    sb = await startTestSandbox();
    ec2 = new EC2Client({});
  });
  after(async () => sb.dispose());

  it('lists regions and the zones of the signing region with their zone ids', async () => {
    const regions = (await ec2.send(new DescribeRegionsCommand({}))).Regions!.map((r) => r.RegionName);
    assert.ok(regions.includes('us-west-2') && regions.includes('us-east-1') && regions.length >= 5);
    const zones = (await ec2.send(new DescribeAvailabilityZonesCommand({}))).AvailabilityZones!;
    assert.deepEqual(
      zones.map((z) => z.ZoneName),
      ['us-west-2a', 'us-west-2b', 'us-west-2c', 'us-west-2d'],
    );
    assert.ok(zones.every((z) => /^usw2-az\d$/.test(z.ZoneId!) && z.State === 'available'));
    const east = new EC2Client({ region: 'us-east-2' });
    const eastZones = (await east.send(new DescribeAvailabilityZonesCommand({}))).AvailabilityZones!;
    assert.ok(eastZones.every((z) => z.ZoneName!.startsWith('us-east-2')));
  });

  it('offers scarce GPU types only in some zones, and general types everywhere', async () => {
    const byZone = async (type: string) =>
      (
        await ec2.send(
          new DescribeInstanceTypeOfferingsCommand({
            LocationType: 'availability-zone',
            Filters: [{ Name: 'instance-type', Values: [type] }],
          }),
        )
      )
        .InstanceTypeOfferings!.map((o) => o.Location)
        .sort();
    const p5 = await byZone('p5.48xlarge');
    const m5 = await byZone('m5.xlarge');
    assert.ok(p5.length > 0 && p5.length < 4, `p5 should be patchy, got ${p5}`);
    assert.deepEqual(m5, ['us-west-2a', 'us-west-2b', 'us-west-2c', 'us-west-2d']);
    const byId = await ec2.send(
      new DescribeInstanceTypeOfferingsCommand({
        LocationType: 'availability-zone-id',
        Filters: [{ Name: 'instance-type', Values: ['p5.48xlarge'] }],
      }),
    );
    assert.ok(byId.InstanceTypeOfferings!.every((o) => /^usw2-az\d$/.test(o.Location!)));
    const wildcard = await ec2.send(
      new DescribeInstanceTypeOfferingsCommand({ Filters: [{ Name: 'instance-type', Values: ['g6e.*'] }] }),
    );
    assert.ok(
      wildcard.InstanceTypeOfferings!.length >= 8 &&
        wildcard.InstanceTypeOfferings!.every((o) => o.InstanceType!.startsWith('g6e.')),
    );
  });

  it('pages offerings with MaxResults/NextToken without losing or repeating any', async () => {
    const all = (await ec2.send(new DescribeInstanceTypeOfferingsCommand({ LocationType: 'availability-zone' })))
      .InstanceTypeOfferings!;
    const paged = [];
    for await (const page of paginateDescribeInstanceTypeOfferings(
      { client: ec2, pageSize: 50 },
      { LocationType: 'availability-zone' },
    )) {
      assert.ok(page.InstanceTypeOfferings!.length <= 50);
      paged.push(...page.InstanceTypeOfferings!);
    }
    assert.deepEqual(paged, all);
    assert.ok(all.length > 100);
  });

  it('describes GPU, accelerator and EFA details, and refuses HyperPod-only names', async () => {
    const out = await ec2.send(
      new DescribeInstanceTypesCommand({ InstanceTypes: ['p5.48xlarge', 'trn2.48xlarge', 'g5.xlarge'] }),
    );
    const p5 = out.InstanceTypes!.find((t) => t.InstanceType === 'p5.48xlarge')!;
    assert.equal(p5.GpuInfo!.Gpus![0]!.Count, 8);
    assert.equal(p5.GpuInfo!.Gpus![0]!.Name, 'H100');
    assert.equal(p5.NetworkInfo!.EfaSupported, true);
    assert.equal(p5.NetworkInfo!.EfaInfo!.MaximumEfaInterfaces, 32);
    assert.equal(p5.VCpuInfo!.DefaultVCpus, 192);
    const trn2 = out.InstanceTypes!.find((t) => t.InstanceType === 'trn2.48xlarge')!;
    assert.equal(trn2.NeuronInfo!.NeuronDevices![0]!.Count, 16);
    const g5 = out.InstanceTypes!.find((t) => t.InstanceType === 'g5.xlarge')!;
    assert.equal(g5.NetworkInfo!.EfaSupported, false);
    await assert.rejects(
      ec2.send(new DescribeInstanceTypesCommand({ InstanceTypes: ['ml.p5.48xlarge' as any] })),
      (e: Error) => e.name === 'InvalidInstanceType',
    );
    const efa = await ec2.send(
      new DescribeInstanceTypesCommand({ Filters: [{ Name: 'network-info.efa-supported', Values: ['true'] }] }),
    );
    assert.ok(efa.InstanceTypes!.every((t) => t.NetworkInfo!.EfaSupported));
  });

  it('the real aws CLI reads zones and per-zone offerings', async () => {
    const zones = await sb.aws(['ec2', 'describe-availability-zones']);
    assert.equal(zones.json.AvailabilityZones.length, 4);
    assert.equal(zones.json.AvailabilityZones[0].RegionName, 'us-west-2');
    const offerings = await sb.aws([
      'ec2',
      'describe-instance-type-offerings',
      '--location-type',
      'availability-zone',
      '--filters',
      'Name=instance-type,Values=p5.48xlarge',
    ]);
    const locations = offerings.json.InstanceTypeOfferings.map((o: { Location: string }) => o.Location).sort();
    const sdk = (
      await ec2.send(
        new DescribeInstanceTypeOfferingsCommand({
          LocationType: 'availability-zone',
          Filters: [{ Name: 'instance-type', Values: ['p5.48xlarge'] }],
        }),
      )
    )
      .InstanceTypeOfferings!.map((o) => o.Location)
      .sort();
    assert.deepEqual(locations, sdk);
    assert.ok(locations.length > 0);
  });
});
