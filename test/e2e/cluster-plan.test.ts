import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GetProductsCommand, PricingClient } from '@aws-sdk/client-pricing';
import type { TestSandbox } from '../helpers/sandbox.js';
import { startSandboxAndServer, stopAll, type TestServer } from '../helpers/server.js';

const SPEED = 600;
const REQUEST = {
  name: 'planned',
  availabilityZone: 'us-west-2b',
  instanceType: 'ml.g5.8xlarge',
  instanceCount: 2,
  storage: { s3: true },
};

/** What the sandbox's Price List answers for one product, read here with the SDK as a user would. */
async function listPrice(serviceCode: string, filters: Record<string, string>, unit: string, usageEnds = '') {
  const r = await new PricingClient({ region: 'us-east-1' }).send(
    new GetProductsCommand({
      ServiceCode: serviceCode,
      Filters: Object.entries(filters).map(([Field, Value]) => ({ Type: 'TERM_MATCH', Field, Value })),
    }),
  );
  for (const raw of r.PriceList ?? []) {
    const item = JSON.parse(String(raw));
    if (!String(item.product.attributes.usagetype).endsWith(usageEnds)) continue;
    for (const term of Object.values<any>(item.terms.OnDemand))
      for (const dim of Object.values<any>(term.priceDimensions))
        if (dim.unit === unit)
          return { usd: Number(dim.pricePerUnit.USD), sku: item.product.sku, date: term.effectiveDate };
  }
  throw new Error(`no ${serviceCode} price for ${JSON.stringify(filters)}`);
}

/** Resource-creating AWS operations (CreateTags only labels; STS and the Price List only read). */
const creates = (op: string) => /^(Create|Allocate)/.test(op) && op !== 'CreateTags';

describe('plan before apply: a create-cluster plan with its hourly cost (sandbox)', () => {
  let sb: TestSandbox;
  let server: TestServer;
  before(async () => {
    ({ sb, server } = await startSandboxAndServer(SPEED));
  });
  after(() => stopAll(server, sb));

  let plan: any;
  it('plans with zero mutating calls, AWS or Kubernetes', async () => {
    const mark = (await sb.calls()).at(-1)?.seq ?? 0;
    const r = await server.api('POST', '/api/v1/clusters/plan', REQUEST);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    plan = r.body;
    const mutating = [
      ...(await sb.calls({ mutating: true, after: mark })),
      ...(await sb.calls({ service: 'kubernetes', after: mark })),
    ];
    assert.deepEqual(mutating, []);
    assert.ok((await sb.calls({ service: 'pricing', after: mark })).length > 0, 'the plan read the Price List');
    assert.equal(plan.region, 'us-west-2');
    const vpc = plan.mutations.find((x: any) => x.operation === 'CreateVpc');
    assert.equal(vpc.details.cidr, '10.0.0.0/16');
    const compute = plan.mutations.find((x: any) => x.operation === 'CreateSubnet' && x.details.role === 'compute');
    assert.match(compute.details.cidr, /\/20$/);
    assert.equal(compute.details.zone, 'us-west-2b');
    const hp = plan.mutations.find((x: any) => x.service === 'sagemaker' && x.operation === 'CreateCluster');
    assert.match(hp.details.instanceGroup, /2 × ml\.g5\.8xlarge/);
  });

  it("costs the sandbox Price List's prices × counts, each line with its source and date", async () => {
    const hp = await listPrice(
      'AmazonSageMaker',
      { regionCode: 'us-west-2', instanceName: 'ml.g5.8xlarge', component: 'Cluster' },
      'Hrs',
    );
    const eks = await listPrice('AmazonEKS', { regionCode: 'us-west-2' }, 'Hrs', 'AmazonEKS-Hours:perCluster');
    const nat = await listPrice(
      'AmazonEC2',
      { regionCode: 'us-west-2', productFamily: 'NAT Gateway' },
      'Hrs',
      'NatGateway-Hours',
    );
    const line = (item: string) => plan.cost.lines.find((l: any) => l.item === item);
    assert.equal(line('hyperpod-instance').hourlyUsd, hp.usd * 2);
    assert.equal(line('hyperpod-instance').source.sku, hp.sku);
    assert.equal(line('hyperpod-instance').source.effectiveDate, hp.date);
    assert.equal(line('hyperpod-instance').source.serviceCode, 'AmazonSageMaker');
    assert.equal(line('eks-cluster').hourlyUsd, eks.usd);
    assert.equal(line('nat-gateway').hourlyUsd, nat.usd);
    assert.equal(plan.cost.totalHourlyUsd, hp.usd * 2 + eks.usd + nat.usd);
    assert.equal(plan.cost.complete, true);

    const withFsx = await server.api('POST', '/api/v1/clusters/plan', {
      ...REQUEST,
      storage: { s3: true, fsxLustre: { storageCapacityGiB: 1200 } },
    });
    assert.equal(withFsx.status, 200, JSON.stringify(withFsx.body));
    const fsx = await listPrice(
      'AmazonFSx',
      {
        regionCode: 'us-west-2',
        fileSystemType: 'Lustre',
        deploymentOption: 'Persistent_2',
        throughputCapacity: '250',
      },
      'GB-Mo',
    );
    const fsxLine = withFsx.body.cost.lines.find((l: any) => l.item === 'fsx-lustre-storage');
    assert.equal(fsxLine.hourlyUsd, (fsx.usd / 730) * 1200);
    assert.ok(withFsx.body.mutations.some((x: any) => x.service === 'fsx' && x.operation === 'CreateFileSystem'));
  });

  it('refuses a zone the Region lacks naming the field, before anything', async () => {
    const r = await server.api('POST', '/api/v1/clusters/plan', { ...REQUEST, availabilityZone: 'us-west-2z' });
    assert.equal(r.status, 400, JSON.stringify(r.body));
    assert.equal(r.body.errors[0].path, 'availabilityZone');
  });

  it('lists what the create then does: the resource-creating AWS operations, per service in order', async () => {
    const mark = (await sb.calls()).at(-1)?.seq ?? 0;
    const started = await server.api('POST', '/api/v1/clusters', REQUEST);
    assert.equal(started.status, 202, JSON.stringify(started.body));
    const op = await server.waitForOperation(started.body.operation.id);
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error ?? op.phases));
    const logged = (await sb.calls({ mutating: true, after: mark })).filter(
      (c) => c.status < 300 && creates(c.operation),
    );
    const planned = plan.mutations.filter((x: any) => x.service !== 'kubernetes' && creates(x.operation));
    assert.ok(
      planned.length >= 20 && logged.length === planned.length,
      `${logged.length} made, ${planned.length} planned`,
    );
    for (const service of new Set([...logged.map((c) => c.service), ...planned.map((x: any) => x.service)])) {
      const did = logged.filter((c) => c.service === service).map((c) => c.operation);
      const said = planned.filter((x: any) => x.service === service).map((x: any) => x.operation);
      // EKS add-ons of the base set and of the default features are installed side by side: compare those as a set.
      if (service === 'eks') assert.deepEqual([...did].sort(), [...said].sort(), service);
      else assert.deepEqual(did, said, service);
    }
    const roles = logged.filter((c) => c.operation === 'CreateRole').map((c) => c.subject);
    assert.deepEqual(
      roles,
      planned.filter((x: any) => x.operation === 'CreateRole').map((x: any) => x.name),
    );
    const addons = logged.filter((c) => c.operation === 'CreateAddon').map((c) => c.subject);
    assert.deepEqual(
      [...addons].sort(),
      planned
        .filter((x: any) => x.operation === 'CreateAddon')
        .map((x: any) => x.name)
        .sort(),
    );
    const bucket = logged.find((c) => c.operation === 'CreateBucket');
    assert.equal(bucket?.subject, planned.find((x: any) => x.operation === 'CreateBucket').name);
  });

  it("answers the running cluster's hourly cost from its groups' types and counts", async () => {
    const r = await server.api('GET', '/api/v1/clusters/planned/cost');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const group = r.body.cost.lines.find((l: any) => l.item === 'hyperpod-instance');
    const planned = plan.cost.lines.find((l: any) => l.item === 'hyperpod-instance');
    assert.equal(group.quantity, 2);
    assert.equal(group.hourlyUsd, planned.hourlyUsd);
    assert.equal(r.body.cost.totalHourlyUsd, plan.cost.totalHourlyUsd);
  });

  it("plans adding a group (its zone's compute subnet, the group, what it adds per hour), then the add does that", async () => {
    const group = {
      name: 'more',
      availabilityZone: 'us-west-2c',
      instanceType: 'ml.c5.xlarge',
      instanceCount: 3,
    };
    const mark = (await sb.calls()).at(-1)?.seq ?? 0;
    const r = await server.api('POST', '/api/v1/clusters/planned/instance-groups/plan', group);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(
      [
        ...(await sb.calls({ mutating: true, after: mark })),
        ...(await sb.calls({ service: 'kubernetes', after: mark })),
      ],
      [],
    );
    assert.deepEqual(
      r.body.mutations.map((x: any) => `${x.service} ${x.operation}`),
      ['ec2 CreateSubnet', 'ec2 AssociateRouteTable', 'sagemaker UpdateCluster'],
    );
    const subnet = r.body.mutations[0].details;
    assert.equal(subnet.zone, 'us-west-2c');
    assert.match(subnet.cidr, /\/20$/);
    const price = await listPrice(
      'AmazonSageMaker',
      { regionCode: 'us-west-2', instanceName: 'ml.c5.xlarge', component: 'Cluster' },
      'Hrs',
    );
    assert.equal(r.body.cost.totalHourlyUsd, price.usd * 3);

    const added = await server.api('POST', '/api/v1/clusters/planned/instance-groups', group);
    assert.equal(added.status, 202, JSON.stringify(added.body));
    assert.equal((await server.waitForOperation(added.body.operation.id)).status, 'succeeded');
    const did = (await sb.calls({ mutating: true, after: mark }))
      .filter(
        (c) =>
          c.status < 300 &&
          (creates(c.operation) || c.operation === 'AssociateRouteTable' || c.operation === 'UpdateCluster'),
      )
      .map((c) => `${c.service} ${c.operation}`);
    assert.deepEqual(did, ['ec2 CreateSubnet', 'ec2 AssociateRouteTable', 'sagemaker UpdateCluster']);
  });
});
