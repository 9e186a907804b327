import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { tagged } from '../helpers/inventory.js';
import { kubeAccess } from '../helpers/kube.js';
import type { TestSandbox } from '../helpers/sandbox.js';
import { startSandboxAndServer, stopAll, type TestServer } from '../helpers/server.js';

const SPEED = 600;
const ZONE = 'us-west-2b';

describe('create and delete a HyperPod cluster through the REST API (sandbox)', () => {
  let sb: TestSandbox;
  let server: TestServer;
  before(async () => {
    ({ sb, server } = await startSandboxAndServer(SPEED));
  });
  after(() => stopAll(server, sb));

  let operationId = '';
  it('answers 202 with the operation and its status endpoint and tool; a repeat returns the same operation', async () => {
    const request = {
      name: 'demo',
      availabilityZone: ZONE,
      instanceType: 'ml.g5.8xlarge',
      instanceCount: 1,
      storage: { s3: true },
    };
    const first = await server.api('POST', '/api/v1/clusters', request, { 'idempotency-key': 'demo-1' });
    assert.equal(first.status, 202, JSON.stringify(first.body));
    assert.equal(first.body.existing, false);
    assert.equal(first.body.statusTool, 'wait_for_operation');
    assert.equal(first.body.statusUrl, `/api/v1/operations/${first.body.operation.id}`);
    operationId = first.body.operation.id;
    const sameKey = await server.api('POST', '/api/v1/clusters', request, { 'idempotency-key': 'demo-1' });
    assert.equal(sameKey.status, 202);
    assert.equal(sameKey.body.operation.id, operationId);
    assert.equal(sameKey.body.existing, true);
    const sameTarget = await server.api('POST', '/api/v1/clusters', request);
    assert.equal(
      sameTarget.body.operation.id,
      operationId,
      'a second create of the same cluster while one runs returns it',
    );
  });

  it('lists the cluster as Creating while its operation runs', async () => {
    const list = await server.api('GET', '/api/v1/clusters');
    const demo = list.body.clusters.find((c: any) => c.name === 'demo');
    assert.ok(demo, JSON.stringify(list.body));
    assert.equal(demo.activeOperation?.id, operationId);
  });

  it('runs every phase to success and reaches InService with storage', async () => {
    const op = await server.waitForOperation(operationId);
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error ?? op.phases));
    assert.deepEqual(
      op.phases.map((p: any) => p.name),
      ['network', 'nat-ready', 'iam', 'eks', 'eks-addons', 'active-cluster', 'dependencies', 'hyperpod', 'storage'],
    );
    for (const p of op.phases) assert.ok(['succeeded', 'skipped'].includes(p.status), `${p.name} ${p.status}`);
    const detail = await server.api('GET', '/api/v1/clusters/demo');
    assert.equal(detail.status, 200);
    assert.equal(detail.body.status, 'InService');
    assert.equal(detail.body.nodeRecovery, 'Automatic');
    assert.equal(detail.body.isActive, true);
    assert.equal(detail.body.instanceGroups[0].instanceType, 'ml.g5.8xlarge');
    assert.equal(
      detail.body.instanceGroups[0].currentCount,
      1,
      'the operation ends when the node runs, not just when HyperPod says InService',
    );
    assert.ok(detail.body.storage.s3Bucket.startsWith('sagemaker-demo-'));
    const events = await server.api('GET', `/api/v1/operations/${operationId}/events?after=0&limit=1000`);
    assert.ok(
      events.body.lines.some((l: any) => l.phase === 'network' && /Created VPC/.test(l.message)),
      'phases log what they did',
    );
  });

  it('made standard objects the aws CLI and kubectl see', async () => {
    const vpcs = await sb.aws(['ec2', 'describe-vpcs', '--filters', 'Name=tag:instantstart.io/cluster,Values=demo']);
    assert.equal(vpcs.json.Vpcs.length, 1);
    const subnets = await sb.aws([
      'ec2',
      'describe-subnets',
      '--filters',
      `Name=vpc-id,Values=${vpcs.json.Vpcs[0].VpcId}`,
    ]);
    const compute = subnets.json.Subnets.filter((s: any) =>
      s.Tags.some((t: any) => t.Key === 'instantstart.io/part' && t.Value === 'compute'),
    );
    assert.equal(compute.length, 1);
    assert.match(compute[0].CidrBlock, /\/20$/);
    assert.equal(compute[0].AvailabilityZone, ZONE);
    assert.ok(new Set(subnets.json.Subnets.map((s: any) => s.AvailabilityZone)).size >= 2, 'subnets span two zones');
    const eks = await sb.aws(['eks', 'describe-cluster', '--name', 'demo-eks']);
    assert.equal(eks.json.cluster.status, 'ACTIVE');
    assert.equal(eks.json.cluster.accessConfig.authenticationMode, 'API_AND_CONFIG_MAP');
    const addons = await sb.aws(['eks', 'list-addons', '--cluster-name', 'demo-eks']);
    for (const a of [
      'vpc-cni',
      'kube-proxy',
      'coredns',
      'eks-pod-identity-agent',
      'cert-manager',
      'amazon-sagemaker-hyperpod-training-operator',
      'aws-mountpoint-s3-csi-driver',
    ]) {
      assert.ok(addons.json.addons.includes(a), `add-on ${a} installed`);
    }
    const hp = await sb.aws(['sagemaker', 'describe-cluster', '--cluster-name', 'demo']);
    assert.equal(hp.json.ClusterStatus, 'InService');
    assert.equal(hp.json.NodeRecovery, 'Automatic');
    const kube = await kubeAccess(sb, 'demo-eks');
    const pvc = await kube.kubectl(['get', 'pvc', 'shared-s3', '-n', 'default', '-o', 'json']);
    assert.equal(JSON.parse(pvc.stdout).spec.volumeName, 'demo-s3-pv');
    const pv = await kube.kubectl(['get', 'pv', 'demo-s3-pv', '-o', 'json']);
    assert.equal(JSON.parse(pv.stdout).spec.csi.driver, 's3.csi.aws.com');
    const nodes = await kube.kubectl([
      'get',
      'nodes',
      '-l',
      'sagemaker.amazonaws.com/compute-type=hyperpod',
      '-o',
      'name',
    ]);
    assert.equal(nodes.stdout.trim().split('\n').filter(Boolean).length, 1);
    const ds = await kube.kubectl(['get', 'daemonset', 'health-monitoring-agent', '-n', 'aws-hyperpod', '-o', 'name']);
    assert.match(ds.stdout, /health-monitoring-agent/);
  });

  it('answers a repeat of the succeeded create with its operation (a retry after a lost answer); a different request for the name is refused', async () => {
    const request = {
      name: 'demo',
      availabilityZone: ZONE,
      instanceType: 'ml.g5.8xlarge',
      instanceCount: 1,
      storage: { s3: true },
    };
    const repeat = await server.api('POST', '/api/v1/clusters', request);
    assert.equal(repeat.status, 202, JSON.stringify(repeat.body));
    assert.equal(repeat.body.existing, true);
    assert.equal(repeat.body.operation.id, operationId);
    assert.equal(repeat.body.operation.status, 'succeeded');
    const spelledOut = await server.api('POST', '/api/v1/clusters', {
      ...request,
      capacityType: 'on-demand',
      deepHealthChecks: false,
      region: 'us-west-2',
    });
    assert.equal(spelledOut.body.operation?.id, operationId, 'defaults written out are the same request');
    const other = await server.api('POST', '/api/v1/clusters', { ...request, instanceCount: 2 });
    assert.equal(other.status, 422, JSON.stringify(other.body));
    assert.ok(
      other.body.errors.some((e: any) => e.path === 'name'),
      JSON.stringify(other.body),
    );
  });

  it('called CreateCluster exactly once per service', async () => {
    assert.equal(
      (await sb.calls({ service: 'eks', operation: 'CreateCluster' })).filter((c) => c.status < 300).length,
      1,
    );
    assert.equal(
      (await sb.calls({ service: 'sagemaker', operation: 'CreateCluster' })).filter((c) => c.status < 300).length,
      1,
    );
  });

  it('deletes everything it made; a second delete answers 404', async () => {
    const refused = await server.api('DELETE', '/api/v1/clusters/demo');
    assert.equal(refused.status, 400);
    assert.ok(
      refused.body.errors.some((e: any) => e.path === 'confirm'),
      JSON.stringify(refused.body),
    );
    const del = await server.api('DELETE', '/api/v1/clusters/demo?confirm=true');
    assert.equal(del.status, 202, JSON.stringify(del.body));
    const op = await server.waitForOperation(del.body.operation.id);
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error ?? op.phases));
    assert.deepEqual(tagged(await sb.inventory(), 'demo'), []);
    // Nothing of it is left: a second delete (without the first one's key) is a 404, not an operation that does
    // nothing.
    const again = await server.api('DELETE', '/api/v1/clusters/demo?confirm=true');
    assert.equal(again.status, 404, JSON.stringify(again.body));
    assert.match(again.headers.get('content-type') ?? '', /application\/problem\+json/);
    assert.match(again.body.detail, /does not exist/);
    assert.equal((await server.api('GET', '/api/v1/clusters/demo/delete-plan')).status, 404);
    const active = await server.api('GET', '/api/v1/active-cluster');
    assert.equal(active.body.name, null);
  });
});
