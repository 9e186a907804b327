import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { queryDatabase } from '../helpers/database-file.js';
import { taggedNames } from '../helpers/inventory.js';
import { kubeAccess } from '../helpers/kube.js';
import { eventually, type TestSandbox } from '../helpers/sandbox.js';
import { startSandboxAndServer, stopAll, type TestServer } from '../helpers/server.js';
import { call } from '../mcp/client-helpers.js';

const SPEED = 600;
const CLUSTER = 'gone';
const base = `/api/v1/clusters/${CLUSTER}`;

/**
 * A delete leaves nothing it made but what it said it keeps (issue 26): a cluster with every
 * feature on (the inference operator's TLS bucket, autoscaling's roles and objects), an MLflow tracking server made for
 * it (and its
 * role), a storage with a bucket of its own still mounted, a storage removed keeping its bucket, and
 * a model download. The plan names what goes and what stays; afterwards the sandbox holds nothing
 * tagged with the cluster but the kept bucket, and what was never the cluster's is untouched.
 */
describe('delete leaves nothing it made, and keeps exactly what it says', () => {
  let sb: TestSandbox;
  let server: TestServer;
  let mcp: Client;
  let sharedBucket: string;
  let keptBucket: string;
  let plan: any;

  const ok = async (r: { status: number; body: any }, status = 202) => {
    assert.equal(r.status, status, JSON.stringify(r.body));
    if (status !== 202) return r.body;
    const op = await server.waitForOperation(r.body.operation.id);
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error ?? op.phases));
    return op;
  };

  before(async () => {
    ({ sb, server } = await startSandboxAndServer(SPEED));
    await ok(
      await server.api('POST', '/api/v1/clusters', {
        name: CLUSTER,
        availabilityZone: 'us-west-2b',
        instanceType: 'ml.c5.xlarge',
        instanceCount: 1,
        storage: { s3: true },
      }),
    );
    sharedBucket = (await server.api('GET', base)).body.storage.s3Bucket;
    mcp = new Client({ name: 'e2e-delete', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
  });
  after(() => stopAll(mcp, server, sb));

  it('sets up every kind of thing a cluster can have', async () => {
    const features = (await server.api('GET', `${base}/features`)).body.features as Array<{
      id: string;
      toggleable: boolean;
      state: string;
    }>;
    const off: Record<string, unknown> = Object.fromEntries(
      features.filter((f) => f.toggleable && f.state !== 'on').map((f) => [f.id, true]),
    );
    // Autoscaling too (its Karpenter role and objects): it names the groups it may scale.
    assert.ok('autoscaling' in off, JSON.stringify(features.map((f) => [f.id, f.state])));
    off.autoscaling = { instanceGroups: [(await server.api('GET', base)).body.instanceGroups[0].name] };
    await ok(await server.api('PATCH', `${base}/features`, off));
    // An MLflow server for the cluster (tagged as its, with its role), and one of the Region (never the cluster's).
    const mine = await server.api('POST', '/api/v1/mlflow/tracking-servers', {
      name: 'gone-mlflow',
      artifactStoreUri: `s3://${sharedBucket}/mlflow`,
      cluster: CLUSTER,
    });
    assert.equal(mine.status, 201, JSON.stringify(mine.body));
    const regions = await server.api('POST', '/api/v1/mlflow/tracking-servers', {
      name: 'team-mlflow',
      artifactStoreUri: `s3://${sharedBucket}/team`,
    });
    assert.equal(regions.status, 201, JSON.stringify(regions.body));
    // The cluster reports to the Region's server by default: the link goes with the cluster, the server stays.
    const linked = await server.api('PUT', `${base}/mlflow`, { trackingServerArn: regions.body.arn });
    assert.equal(linked.status, 200, JSON.stringify(linked.body));
    const refused = await server.api('POST', '/api/v1/mlflow/tracking-servers', {
      name: 'nowhere',
      artifactStoreUri: `s3://${sharedBucket}/x`,
      cluster: 'no-such-cluster',
    });
    assert.equal(refused.status, 422, JSON.stringify(refused.body));
    assert.ok(
      refused.body.errors.some((e: any) => e.path === 'cluster'),
      JSON.stringify(refused.body),
    );
    // Two storages with buckets of their own: one stays mounted, one is removed keeping its data.
    await ok(await server.api('POST', `${base}/storage`, { kind: 's3', name: 'scratch', createBucket: true }));
    await ok(await server.api('POST', `${base}/storage`, { kind: 's3', name: 'keepme', createBucket: true }));
    const storages = (await server.api('GET', `${base}/storage`)).body.storages as any[];
    keptBucket = storages.find((s) => s.name === 'keepme').bucket;
    const scratch = storages.find((s) => s.name === 'scratch').bucket;
    const tags = (await sb.aws(['s3api', 'get-bucket-tagging', '--bucket', scratch])).json.TagSet;
    assert.ok(
      tags.some((t: any) => t.Key === 'instantstart.io/cluster' && t.Value === CLUSTER),
      'tagged in its CreateBucket',
    );
    await ok(await server.api('DELETE', `${base}/storage/keepme`));
    await ok(
      await server.api('POST', `${base}/model-downloads`, { modelId: 'openai-community/gpt2', storage: 'shared-s3' }),
    );
  });

  it('serves two endpoints behind load balancers: an external container endpoint (NLB) and a managed one with an ALB', async () => {
    const group = (await server.api('GET', base)).body.instanceGroups[0].name;
    const container = await server.api('POST', `${base}/endpoints/container`, {
      name: 'web',
      engine: 'vllm',
      model: 'Qwen/Qwen3-0.6B',
      instanceGroup: group,
      gpus: 0,
      service: { variant: 'external' },
    });
    assert.equal(container.status, 201, JSON.stringify(container.body));
    const managed = await server.api('POST', `${base}/endpoints/managed`, {
      name: 'alb',
      model: { source: 'storage', storage: 'shared-s3', path: 'models/gpt2' },
      instanceTypes: ['ml.c5.xlarge'],
      worker: { image: 'vllm/vllm-openai:v0.10.1', gpus: 0, port: 8080, args: ['--model', '/opt/ml/model'] },
      loadBalancer: {},
    });
    assert.equal(managed.status, 201, JSON.stringify(managed.body));
    // Both get their load balancers: the NLB's hostname on the Service, the ALB's on the operator's Ingress.
    const kube = await kubeAccess(sb, `${CLUSTER}-eks`);
    const items = async (kind: string) =>
      JSON.parse((await kube.kubectl(['get', kind, '-A', '-o', 'json'])).stdout).items;
    const served = (o: any) => !!o.status?.loadBalancer?.ingress?.[0]?.hostname;
    await eventually(
      async () =>
        (await items('services')).some((o: any) => o.metadata.name === 'web' && served(o)) &&
        (await items('ingresses')).some(served),
      { sandbox: sb, stepSeconds: 10, tries: 60, what: 'both load balancers' },
    );
  });

  it('lists a storage removed keeping its data as kept, not mounted (REST and MCP)', async () => {
    const list = (await server.api('GET', `${base}/storage`)).body;
    assert.deepEqual(
      list.kept.map((k: any) => [k.name, k.state, k.dataName, k.madeByInstantStart]),
      [['keepme', 'kept, not mounted', keptBucket, true]],
    );
    assert.ok(!list.storages.some((s: any) => s.name === 'keepme'));
    assert.match(
      (await call(mcp, 'list_storage', { cluster: CLUSTER })).text,
      new RegExp(`default/keepme: kept, not mounted — ${keptBucket} kept`),
    );
  });

  it('plans the delete by name: what goes, what stays and why (REST and MCP)', async () => {
    const r = await server.api('GET', `${base}/delete-plan`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    plan = r.body;
    const deletes = plan.deletes.map((d: any) => `${d.kind} ${d.name}`);
    // The load balancers first, each with the object that holds it.
    assert.match(
      deletes[0],
      /^Load balancer k8s-default-web-.*\.elb\.us-west-2\.amazonaws\.com \(Service default\/web\)$/,
    );
    assert.ok(
      deletes.some((d: string) => /^Load balancer internal-k8s-.*\(Ingress default\/alb\)$/.test(d)),
      deletes.join(', '),
    );
    for (const expected of [
      `HyperPod cluster ${CLUSTER}`,
      `EKS cluster ${CLUSTER}-eks`,
      'MLflow tracking server gone-mlflow',
      `S3 bucket ${sharedBucket}`,
      `S3 bucket ${sharedBucket}-tls`,
    ]) {
      assert.ok(deletes.includes(expected), `${expected} not in ${deletes.join(', ')}`);
    }
    assert.ok(
      deletes.some((d: string) => /^S3 bucket sagemaker-gone-scratch-/.test(d)),
      deletes.join(', '),
    );
    assert.ok(
      deletes.some((d: string) => /^IAM role instantstart-mlflow-gone-mlflow-/.test(d)),
      "the MLflow server's role",
    );
    assert.ok(
      deletes.some((d: string) => /^VPC vpc-/.test(d)) && deletes.some((d: string) => /^NAT gateway nat-/.test(d)),
      deletes.join(', '),
    );
    assert.ok(!deletes.some((d: string) => d.includes('team-mlflow')), "a Region's server is not the cluster's");
    assert.deepEqual(
      plan.keeps.map((k: any) => [k.kind, k.name]),
      [['S3 bucket', keptBucket]],
    );
    assert.match(plan.keeps[0].reason, /storage default\/keepme was removed keeping its data/);
    const withStorage = (await server.api('GET', `${base}/delete-plan?keepStorage=true`)).body;
    assert.ok(
      withStorage.keeps.some((k: any) => k.name === sharedBucket) &&
        !withStorage.keeps.some((k: any) => k.name === `${sharedBucket}-tls`),
      JSON.stringify(withStorage.keeps),
    );
    const text = (await call(mcp, 'get_cluster_delete_plan', { cluster: CLUSTER })).text;
    assert.match(text, new RegExp(`- S3 bucket ${keptBucket}: kept when storage default/keepme`));
    assert.match(text, /- MLflow tracking server gone-mlflow/);
  });

  it('deletes the cluster: the answer carries the plan, and nothing tagged with it remains but the kept bucket', async () => {
    const started = await server.api('DELETE', `${base}?confirm=true`);
    assert.equal(started.status, 202, JSON.stringify(started.body));
    assert.deepEqual(started.body.plan.keeps, plan.keeps);
    const op = await ok(started);
    assert.deepEqual(op.result.kept, [`S3 bucket ${keptBucket}`]);
    // The load balancers went first, through the objects that made them, while their controller still ran.
    assert.equal(op.phases[0].name, 'load-balancers');
    const events = await server.api('GET', `/api/v1/operations/${op.id}/events?limit=1000`);
    const lines = events.body.lines
      .filter((l: any) => l.phase === 'load-balancers')
      .map((l: any) => l.message)
      .join('\n');
    assert.match(lines, /Deleting InferenceEndpointConfig default\/alb/);
    assert.match(lines, /Deleting Service default\/web and its load balancer k8s-default-web-/);
    const enis = (await sb.aws(['ec2', 'describe-network-interfaces'])).json.NetworkInterfaces;
    assert.deepEqual(
      enis.filter((e: any) => /^ELB /.test(e.Description ?? '')).map((e: any) => e.Description),
      [],
      'no load balancer outlived the cluster',
    );
    const left = taggedNames(await sb.inventory(), CLUSTER);
    assert.deepEqual(left, [`s3/buckets ${keptBucket}`], left.join('\n'));
    const servers = (await sb.inventory()).sagemaker!.mlflowTrackingServers!.map((s: any) => s.name);
    assert.deepEqual(servers, ['team-mlflow'], "the cluster's MLflow server is gone, the Region's stays");
    assert.deepEqual(
      queryDatabase(server.dataDir, 'SELECT * FROM cluster_mlflow WHERE cluster = ?', CLUSTER),
      [],
      "the deleted cluster's default MLflow link is gone",
    );
    assert.equal((await sb.aws(['s3api', 'head-bucket', '--bucket', keptBucket])).code, 0, 'the kept bucket is there');
  });

  it('answers 404 for a cluster of which nothing is left, on REST and MCP', async () => {
    const again = await server.api('DELETE', `${base}?confirm=true`);
    assert.equal(again.status, 404, JSON.stringify(again.body));
    assert.match(again.body.detail, new RegExp(`What remains is kept: S3 bucket ${keptBucket}`));
    const never = await server.api('DELETE', '/api/v1/clusters/never-made?confirm=true');
    assert.equal(never.status, 404, JSON.stringify(never.body));
    assert.match(never.headers.get('content-type') ?? '', /application\/problem\+json/);
    const viaMcp = await call(mcp, 'delete_cluster', { cluster: 'never-made', confirm: true });
    assert.equal(viaMcp.isError, true);
    assert.match(viaMcp.text, /404/);
    assert.match(viaMcp.text, /never-made does not exist/);
  });
});
