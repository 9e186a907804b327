import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  DescribeServicesCommand,
  GetAttributeValuesCommand,
  GetProductsCommand,
  PricingClient,
} from '@aws-sdk/client-pricing';
import { AwsClients } from '../../src/cloud/aws/clients.js';
import { PricingAdapter } from '../../src/cloud/aws/pricing.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const rejectsWith = (code: string) => (e: Error) => {
  assert.equal(e.name, code, e.message);
  return true;
};

describe('Price List API (sandbox) and the product pricing port', () => {
  let sb: TestSandbox;
  let pricing: PricingClient;
  before(async () => {
    sb = await startTestSandbox();
    pricing = new PricingClient({ region: 'us-east-1' });
  });
  after(async () => sb.dispose());

  it('DescribeServices lists the service codes with their attribute names; GetAttributeValues their values', async () => {
    const all = await pricing.send(new DescribeServicesCommand({ FormatVersion: 'aws_v1' }));
    assert.deepEqual(
      all.Services!.map((s) => s.ServiceCode),
      ['AmazonSageMaker', 'AmazonEKS', 'AmazonEC2', 'AmazonFSx'],
    );
    const sm = all.Services!.find((s) => s.ServiceCode === 'AmazonSageMaker')!;
    for (const name of ['instanceName', 'regionCode', 'component', 'usagetype'])
      assert.ok(sm.AttributeNames!.includes(name));
    const names = await pricing.send(
      new GetAttributeValuesCommand({ ServiceCode: 'AmazonSageMaker', AttributeName: 'instanceName', MaxResults: 100 }),
    );
    assert.ok(names.AttributeValues!.some((v) => v.Value === 'ml.p5.48xlarge'));
  });

  it('GetProducts answers PriceList as JSON strings with product attributes and on-demand terms, filtered by TERM_MATCH', async () => {
    const r = await pricing.send(
      new GetProductsCommand({
        ServiceCode: 'AmazonSageMaker',
        Filters: [
          { Type: 'TERM_MATCH', Field: 'regionCode', Value: 'us-west-2' },
          { Type: 'TERM_MATCH', Field: 'instanceName', Value: 'ml.g5.8xlarge' },
          { Type: 'TERM_MATCH', Field: 'component', Value: 'Cluster' },
        ],
      }),
    );
    assert.equal(r.PriceList!.length, 1);
    const item = JSON.parse(r.PriceList![0] as unknown as string);
    assert.equal(item.product.attributes.instanceName, 'ml.g5.8xlarge');
    assert.equal(item.product.attributes.regionCode, 'us-west-2');
    const term = Object.values(item.terms.OnDemand)[0] as any;
    const dim = Object.values(term.priceDimensions)[0] as any;
    assert.equal(dim.unit, 'Hrs');
    assert.match(dim.pricePerUnit.USD, /^\d+(\.\d+)?$/);
    assert.match(term.effectiveDate, /^\d{4}-\d\d-\d\dT/);
  });

  it('refuses an unknown service code, a filter type the model lacks and a Region without a Price List endpoint', async () => {
    await assert.rejects(
      pricing.send(new GetProductsCommand({ ServiceCode: 'AmazonNope' })),
      rejectsWith('NotFoundException'),
    );
    await assert.rejects(
      pricing.send(
        new GetProductsCommand({
          ServiceCode: 'AmazonEKS',
          Filters: [{ Type: 'FUZZY' as 'TERM_MATCH', Field: 'regionCode', Value: 'us-west-2' }],
        }),
      ),
      rejectsWith('InvalidParameterException'),
    );
    await assert.rejects(
      new PricingClient({ region: 'us-west-2' }).send(new DescribeServicesCommand({})),
      rejectsWith('UnknownEndpoint'),
    );
    const southAsia = await new PricingClient({ region: 'ap-south-1' }).send(new DescribeServicesCommand({}));
    assert.equal(southAsia.Services!.length, 4);
  });

  it('the pricing port reads each price with its source, and keeps it a day (one GetProducts per price)', async () => {
    let now = 1_000_000;
    const port = new PricingAdapter(new AwsClients({ defaultRegion: 'us-west-2' }), { now: () => now });
    const before = (await sb.calls({ service: 'pricing', operation: 'GetProducts' })).length;
    const p5 = await port.price('us-west-2', { kind: 'hyperpod-instance', instanceType: 'ml.p5.48xlarge' });
    const eks = await port.price('us-west-2', { kind: 'eks-cluster' });
    const nat = await port.price('us-west-2', { kind: 'nat-gateway' });
    const fsx = await port.price('us-west-2', { kind: 'fsx-lustre-storage' });
    for (const [p, unit, code] of [
      [p5, 'Hrs', 'AmazonSageMaker'],
      [eks, 'Hrs', 'AmazonEKS'],
      [nat, 'Hrs', 'AmazonEC2'],
      [fsx, 'GB-Mo', 'AmazonFSx'],
    ] as const) {
      assert.ok(p, `${code} priced`);
      assert.equal(p.unit, unit);
      assert.equal(p.currency, 'USD');
      assert.equal(p.source.serviceCode, code);
      assert.match(p.source.sku, /^[A-Z0-9]{16}$/);
      assert.ok(p.amount > 0);
    }
    assert.equal(
      await port.price('us-west-2', { kind: 'hyperpod-instance', instanceType: 'ml.nope.large' }),
      undefined,
    );
    await port.price('us-west-2', { kind: 'eks-cluster' });
    const mid = (await sb.calls({ service: 'pricing', operation: 'GetProducts' })).length;
    assert.equal(mid - before, 5, 'a repeated look-up within a day is served from the cache');
    now += 24 * 60 * 60_000 + 1;
    await port.price('us-west-2', { kind: 'eks-cluster' });
    assert.equal((await sb.calls({ service: 'pricing', operation: 'GetProducts' })).length - mid, 1);
    assert.equal((await sb.calls({ service: 'pricing', mutating: true })).length, 0);
  });
});
