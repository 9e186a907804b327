import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CreateClusterCommand, SageMakerClient } from '@aws-sdk/client-sagemaker';
import { AwsCatalog } from '../../src/cloud/aws/catalog.js';
import { AwsClients } from '../../src/cloud/aws/clients.js';
import { HYPERPOD_QUOTA_NAMES } from '../../src/domain/preflight-quotas.js';
import { CreateClusterRequestSchema } from '../../src/domain/schemas/clusters.js';
import { PreflightService } from '../../src/capabilities/catalog/service.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { buildPrereqs, group, waitForCluster, type HyperPodPrereqs } from '../sandbox/sagemaker-fixtures.js';

const GPU = 'ml.g5.8xlarge';

describe('PreflightService.checkCreateCluster on the sandbox', () => {
  let sb: TestSandbox;
  let catalog: AwsCatalog;
  let preflight: PreflightService;
  let p: HyperPodPrereqs;
  let gpuQuota = 0;
  const check = (input: Record<string, unknown>) =>
    preflight.checkCreateCluster(
      CreateClusterRequestSchema.parse({
        name: 'fresh',
        availabilityZone: 'us-west-2a',
        instanceType: GPU,
        instanceCount: 1,
        ...input,
      }),
    );
  const problems = async (input: Record<string, unknown>) =>
    (await check(input)).problems.map((x) => `${x.field}:${x.code}`);

  before(async () => {
    sb = await startTestSandbox();
    catalog = new AwsCatalog(new AwsClients({ defaultRegion: 'us-west-2' }));
    preflight = new PreflightService(catalog, 'us-west-2');
    // An unmanaged EKS cluster `taken-eks` and, on it, a HyperPod cluster `busy` using the whole default g5.8xlarge
    // quota.
    p = await buildPrereqs(sb, 'taken');
    gpuQuota = (await catalog.getQuota('us-west-2', 'sagemaker', `${GPU} for cluster usage`))!.value;
    await new SageMakerClient({}).send(
      new CreateClusterCommand({
        ClusterName: 'busy',
        InstanceGroups: [group(p, 'workers', GPU, gpuQuota)],
        VpcConfig: { SecurityGroupIds: [p.securityGroupId], Subnets: p.privateSubnets },
        Orchestrator: { Eks: { ClusterArn: p.eksClusterArn } },
      }),
    );
    await waitForCluster(sb, 'busy', 'InService');
  });
  after(async () => sb.dispose());

  it('passes a request with a free name, a real zone, an offered type and room in the quotas', async () => {
    const r = await check({ instanceType: 'ml.c5.xlarge', instanceCount: 2 });
    assert.deepEqual(r.problems, []);
    assert.equal(r.ok, true);
  });

  it('refuses a name a HyperPod cluster already has', async () => {
    const r = await check({ name: 'busy', instanceType: 'ml.c5.xlarge' });
    assert.deepEqual(
      r.problems.map((x) => `${x.field}:${x.code}`),
      ['name:ClusterExists'],
    );
    assert.match(r.problems[0]!.message, /SageMaker HyperPod cluster named 'busy' already exists in us-west-2/);
  });

  it('refuses a name whose EKS cluster `<name>-eks` already exists', async () => {
    assert.equal(p.eksClusterName, 'taken-eks');
    const r = await check({ name: 'taken', instanceType: 'ml.c5.xlarge' });
    assert.deepEqual(
      r.problems.map((x) => `${x.field}:${x.code}`),
      ['name:ClusterExists'],
    );
    assert.match(r.problems[0]!.message, /EKS cluster named 'taken-eks' already exists/);
  });

  it('counts what existing HyperPod clusters hold against the quotas', async () => {
    assert.deepEqual(await catalog.hyperPodUsage('us-west-2'), { byType: { [GPU]: gpuQuota }, total: gpuQuota });
    const r = await check({ instanceType: GPU, instanceCount: 1 });
    assert.deepEqual(
      r.problems.map((x) => `${x.field}:${x.code}`),
      ['instanceCount:QuotaExceeded'],
    );
    assert.match(
      r.problems[0]!.message,
      new RegExp(`is ${gpuQuota} in us-west-2; existing HyperPod clusters use ${gpuQuota} and this request adds 1`),
    );
    assert.ok(r.problems[0]!.remedy!.includes(`--desired-value ${gpuQuota + 1}`));
    const total = r.quotas.find((q) => q.quotaName === HYPERPOD_QUOTA_NAMES.totalInstances)!;
    assert.deepEqual([total.inUse, total.requested, total.ok], [gpuQuota, 1, true]);
    assert.deepEqual(await catalog.listHyperPodClusterNames('us-west-2'), ['busy']);
  });

  it('refuses a zone the Region does not have, and reports every problem at once', async () => {
    const r = await check({
      name: 'busy',
      availabilityZone: 'us-west-2z',
      instanceType: GPU,
      instanceCount: 1,
      capacityType: 'spot',
    });
    assert.deepEqual(
      r.problems.map((x) => `${x.field}:${x.code}`),
      ['name:ClusterExists', 'availabilityZone:InvalidAvailabilityZone', 'instanceCount:QuotaExceeded'],
    );
    assert.match(r.problems[1]!.remedy!, /Choose one of us-west-2a, us-west-2b, us-west-2c, us-west-2d/);
    assert.deepEqual(
      await problems({
        availabilityZone: 'us-west-2b',
        instanceType: 'ml.p5.48xlarge',
        instanceCount: 1,
        name: 'fresh',
      }),
      ['instanceCount:QuotaExceeded'],
    );
  });

  it('makes no mutating call', async () => {
    const before = (await sb.calls({ mutating: true })).length;
    await check({ name: 'busy', instanceType: 'ml.p5.48xlarge', availabilityZone: 'us-west-2b', instanceCount: 4 });
    assert.equal((await sb.calls({ mutating: true })).length, before);
  });
});
