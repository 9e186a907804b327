import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { parse } from 'yaml';
import WebSocket from 'ws';
import { kubeAccess, type TestKubeCluster } from '../helpers/kube.js';
import type { TestSandbox } from '../helpers/sandbox.js';
import { startSandboxAndServer, stopAll, type TestServer } from '../helpers/server.js';
import { call } from '../mcp/client-helpers.js';

const SPEED = 600;
const CLUSTER = 'infer';
const endpoints = `/api/v1/clusters/${CLUSTER}/endpoints`;
const endpoint = (name: string, ns = 'default') => `${endpoints}/${ns}/${name}`;
const chat = { messages: [{ role: 'user', content: 'Say hello.' }], maxTokens: 32 };

/**
 * Inference end to end on the sandbox, on one cluster of two ml.g5.xlarge nodes (one GPU each) with the shared S3
 * storage: refusals apply nothing; vLLM container endpoints (external → a LoadBalancer Service with a hostname,
 * internal → ClusterIP) become Ready and answer a chat completion through the Kubernetes API server's service
 * proxy over REST (plain and streamed) and MCP; a delete removes exactly the objects the deploy made (kubectl);
 * a managed endpoint is refused while the inference operator is off, then with the feature on an
 * InferenceEndpointConfig with KV cache L1+L2 and prefix-aware routing reaches DeploymentComplete and answers, and a
 * change of its routing strategy is a 422 that changes nothing.
 */
describe('inference endpoints through REST and MCP on the sandbox', () => {
  let sb: TestSandbox;
  let server: TestServer;
  let kube: TestKubeCluster;
  let mcp: Client;
  let group: string;

  const until = async <T>(probe: () => Promise<T | undefined | false>, what: string, ms = 120_000): Promise<T> => {
    const deadline = Date.now() + ms;
    let last: unknown;
    while (Date.now() < deadline) {
      const v = await probe().catch((err: unknown) => {
        last = err;
        return undefined;
      });
      if (v) return v;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
  };
  const view = async (name: string) => {
    const r = await server.api('GET', endpoint(name));
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body;
  };
  const ready = (name: string) =>
    until(async () => ((v) => (v.state === 'Ready' ? v : undefined))(await view(name)), `${name} Ready`);
  const kubeWrites = async (after: number) =>
    (await sb.calls({ service: 'kubernetes', after })).filter((c) => c.mutating);
  const lastSeq = async () =>
    Math.max(
      0,
      ...(await sb.calls()).map((c) => c.seq),
      ...(await sb.calls({ service: 'kubernetes' })).map((c) => c.seq),
    );
  const kubectlJson = async (args: string[]) => JSON.parse((await kube.kubectl([...args, '-o', 'json'])).stdout);
  const operationOk = async (r: { status: number; body: any }) => {
    assert.equal(r.status, 202, JSON.stringify(r.body));
    const op = await server.waitForOperation(r.body.operation.id);
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error ?? op.phases));
  };

  before(async () => {
    ({ sb, server } = await startSandboxAndServer(SPEED));
    await operationOk(
      await server.api('POST', '/api/v1/clusters', {
        name: CLUSTER,
        availabilityZone: 'us-west-2b',
        instanceType: 'ml.g5.xlarge',
        instanceCount: 2,
        storage: { s3: true },
      }),
    );
    const cluster = (await server.api('GET', `/api/v1/clusters/${CLUSTER}`)).body;
    group = cluster.instanceGroups[0].name;
    kube = await kubeAccess(sb, `${CLUSTER}-eks`);
    mcp = new Client({ name: 'e2e-inference', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
  });
  after(() => stopAll(mcp, server, sb));

  const vllm = (name: string, variant: 'external' | 'internal') => ({
    name,
    engine: 'vllm',
    model: 'Qwen/Qwen3-0.6B',
    instanceGroup: group,
    gpus: 1,
    service: { variant },
  });

  it('refuses before anything is applied, naming the field (the operator off, group, GPUs, storage, token Secret)', async () => {
    const seq = await lastSeq();
    const managed = await server.api('POST', `${endpoints}/managed`, {
      name: 'm1',
      model: { source: 'storage', storage: 'shared-s3', path: 'models/Qwen3-0.6B' },
      instanceTypes: ['ml.g5.xlarge'],
      worker: { image: 'vllm/vllm-openai:v0.10.1', gpus: 1 },
    });
    assert.equal(managed.status, 422, JSON.stringify(managed.body));
    assert.equal(managed.body.errors[0].path, 'inference-operator');
    assert.match(managed.body.detail + managed.body.remedy, /PATCH \/api\/v1\/clusters\/infer\/features/);
    // An agent reads the same advice: the tool that turns the feature on.
    const viaMcp = await call(mcp, 'deploy_managed_endpoint', {
      cluster: CLUSTER,
      endpoint: 'm1',
      model: { source: 'storage', storage: 'shared-s3', path: 'models/Qwen3-0.6B' },
      instanceTypes: ['ml.g5.xlarge'],
      worker: { image: 'vllm/vllm-openai:v0.10.1', gpus: 1 },
    });
    assert.ok(viaMcp.isError);
    assert.match(viaMcp.text, /To fix: .*set_features/);
    const refusals: Array<[Record<string, unknown>, string, number]> = [
      [{ ...vllm('c1', 'internal'), instanceGroup: 'nope' }, 'instanceGroup', 422],
      [{ ...vllm('c1', 'internal'), gpus: 4 }, 'gpus', 422],
      [{ ...vllm('c1', 'internal'), model: '/data/models/x', storage: 'nope' }, 'storage', 422],
      [{ ...vllm('c1', 'internal'), hfTokenSecret: { name: 'hf-token' } }, 'hfTokenSecret.name', 422],
      [{ ...vllm('c1', 'internal'), name: 'Bad_Name' }, 'name', 400],
    ];
    for (const [body, path, status] of refusals) {
      const r = await server.api('POST', `${endpoints}/container`, body);
      assert.equal(r.status, status, JSON.stringify(r.body));
      assert.equal(r.body.errors[0].path, path, JSON.stringify(r.body));
    }
    assert.deepEqual(await kubeWrites(seq), [], 'no Kubernetes write');
    const list = (await server.api('GET', endpoints)).body;
    assert.deepEqual(list, { endpoints: [], inferenceOperator: false });
  });

  it('vLLM external and internal: LoadBalancer with a hostname and ClusterIP; Ready; a chat completion through the service proxy (REST, streamed, MCP)', async () => {
    // The inference operator's add-on brings the AWS Load Balancer Controller, which gives external endpoints their hostname.
    await operationOk(
      await server.api('PATCH', `/api/v1/clusters/${CLUSTER}/features`, { 'inference-operator': true }),
    );
    for (const [name, variant] of [
      ['chat-ext', 'external'],
      ['chat-int', 'internal'],
    ] as const) {
      const r = await server.api('POST', `${endpoints}/container`, vllm(name, variant));
      assert.equal(r.status, 201, JSON.stringify(r.body));
      assert.equal(r.body.kind, 'container');
      assert.equal(r.body.variant, variant);
    }
    const ext = await kubectlJson(['get', 'service', 'chat-ext']);
    const int = await kubectlJson(['get', 'service', 'chat-int']);
    assert.equal(ext.spec.type, 'LoadBalancer');
    assert.equal(int.spec.type, 'ClusterIP');
    assert.equal(ext.spec.ports[0].port, 80);
    const extReady = await ready('chat-ext');
    await ready('chat-int');
    const withHost = await until(
      async () => ((v) => (v.urls.loadBalancer ? v : undefined))(await view('chat-ext')),
      'a load-balancer hostname',
    );
    assert.match(withHost.urls.loadBalancer, /^k8s-default-chat-ext-.*\.elb\.us-west-2\.amazonaws\.com$/);
    assert.equal(extReady.replicas.ready, 1);

    const answer = await server.api('POST', `${endpoint('chat-int')}/invoke`, chat);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.ok(answer.body.content.length > 0);
    assert.equal(answer.body.truncated, false);
    assert.equal(answer.body.model, 'Qwen/Qwen3-0.6B');
    // Which pod answered: the model server's x-served-by, carried through the service proxy.
    const podsOf = async (name: string) =>
      (await kubectlJson(['get', 'pods', '-l', `instantstart.io/endpoint=${name}`])).items.map(
        (p: { metadata: { name: string } }) => p.metadata.name,
      );
    assert.ok((await podsOf('chat-int')).includes(answer.body.servedBy), `servedBy ${answer.body.servedBy}`);

    const res = await fetch(`${server.url}${endpoint('chat-ext')}/invoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...chat, stream: true }),
    });
    assert.equal(res.status, 200, res.status === 200 ? '' : await res.text());
    assert.match(res.headers.get('content-type') ?? '', /text\/event-stream/);
    assert.ok((await podsOf('chat-ext')).includes(res.headers.get('x-served-by')), 'x-served-by on the stream');
    const events = (await res.text()).split('\n').filter((l) => l.startsWith('data: '));
    assert.ok(events.length > 2, `several events: ${events.join(' | ')}`);
    assert.equal(events.at(-1), 'data: [DONE]');
    const pieces = events
      .slice(0, -1)
      .map((e) => JSON.parse(e.slice(6)).choices?.[0]?.delta?.content ?? '')
      .join('');
    assert.ok(pieces.length > 0);

    const viaMcp = await call(mcp, 'invoke_endpoint', { cluster: CLUSTER, endpoint: 'chat-int', ...chat });
    assert.ok(!viaMcp.isError, viaMcp.text);
    assert.equal((viaMcp.structuredContent as any).content, answer.body.content, 'deterministic text');
    assert.match(viaMcp.text, /served by chat-int-/);
    const listed = await call(mcp, 'list_endpoints', { cluster: CLUSTER });
    assert.match(listed.text, /default\/chat-ext \(vllm, external\) Ready/);

    // The logs followed live over the WebSocket training's logs use: each pod's tail, tail-end, then a pod that
    // starts later (a replacement) followed from its first line.
    const ws = new WebSocket(`${server.url.replace(/^http/, 'ws')}${endpoint('chat-int')}/logs/follow?tailLines=50`, {
      origin: server.url,
    });
    const messages: any[] = [];
    ws.on('message', (data) => messages.push(JSON.parse(String(data))));
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    try {
      const [first] = await podsOf('chat-int');
      const tailEnd = await until(async () => messages.find((m) => m.type === 'tail-end'), 'tail-end');
      assert.deepEqual(tailEnd.ranks, [{ rank: 0, pod: first }]);
      assert.ok(
        messages.some((m) => m.type === 'line' && m.pod === first && /Application startup complete/.test(m.text)),
        'the tail came first',
      );
      // Its pod replaced (the group has no room for a second GPU pod): the old one's end said, the new one followed.
      await kube.kubectl(['delete', 'pod', first, '--wait=false']);
      const started = await until(async () => messages.find((m) => m.type === 'rank-started'), 'the new pod');
      assert.notEqual(started.pod, first);
      await until(async () => messages.find((m) => m.type === 'rank-ended' && m.pod === first), 'the old pod ended');
      await until(
        async () =>
          messages.some(
            (m) => m.type === 'line' && m.pod === started.pod && /Application startup complete/.test(m.text),
          ),
        "the new pod's lines as it starts",
      );
    } finally {
      ws.terminate();
    }
    const notWs = await server.api('GET', `${endpoint('chat-int')}/logs/follow`);
    assert.equal(notWs.status, 426, 'the follow path without an upgrade says it is a WebSocket');
    assert.equal((await server.api('GET', `${endpoint('nope')}/logs/follow`)).status, 404);
  });

  it('delete removes exactly the objects the deploy made (kubectl), and nothing of another endpoint or writer', async () => {
    await kube.kubectl(['create', 'service', 'clusterip', 'chat-ext-keep', '--tcp=80:8000']);
    const before = (await view('chat-ext')).objects;
    const r = await server.api('DELETE', `${endpoint('chat-ext')}?confirm=true`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body.deleted, before);
    const left = await kubectlJson([
      'get',
      'deployments,services,scaledobjects',
      '-l',
      'instantstart.io/endpoint=chat-ext',
    ]);
    assert.deepEqual(left.items, []);
    assert.equal(
      (await kube.kubectl(['get', 'service', 'chat-ext-keep', '-o', 'name'])).stdout.trim(),
      'service/chat-ext-keep',
    );
    assert.equal((await view('chat-int')).state, 'Ready');
    const gone = await server.api('GET', endpoint('chat-ext'));
    assert.equal(gone.status, 404);
    const unconfirmed = await server.api('DELETE', endpoint('chat-int'));
    assert.equal(unconfirmed.status, 400);
    assert.equal(unconfirmed.body.errors[0].path, 'confirm');
    const viaMcp = await call(mcp, 'delete_endpoint', { cluster: CLUSTER, endpoint: 'chat-int', confirm: true });
    assert.ok(!viaMcp.isError, viaMcp.text);
  });

  it('managed: an InferenceEndpointConfig with KV cache L1+L2 and prefix-aware routing reaches DeploymentComplete and answers; a routing change is a 422 that changes nothing', async () => {
    const body = {
      name: 'qwen-managed',
      model: { source: 'storage', storage: 'shared-s3', path: 'models/Qwen3-0.6B' },
      instanceTypes: ['ml.g5.xlarge'],
      // The operator mounts the model at /opt/ml/model and sends invocations to the worker's port.
      worker: {
        image: 'vllm/vllm-openai:v0.10.1',
        gpus: 1,
        port: 8080,
        args: ['--model', '/opt/ml/model', '--port', '8080', '--max-model-len', '4096'],
      },
      kvCache: { l1: true, l2: { backend: 'tieredstorage' } },
      routing: { strategy: 'prefixaware' },
    };
    const wrongType = await server.api('POST', `${endpoints}/managed`, { ...body, instanceTypes: ['ml.p5.48xlarge'] });
    assert.equal(wrongType.status, 422, JSON.stringify(wrongType.body));
    assert.equal(wrongType.body.errors[0].path, 'instanceTypes.0');
    const r = await server.api('POST', `${endpoints}/managed`, body);
    assert.equal(r.status, 201, JSON.stringify(r.body));
    assert.equal(r.body.kind, 'managed');
    const yaml = parse(
      (await kube.kubectl(['get', 'inferenceendpointconfig', 'qwen-managed', '-o', 'yaml'])).stdout,
    ) as any;
    assert.equal(yaml.metadata.labels['app.kubernetes.io/managed-by'], 'instantstart');
    const done = await until(
      async () => ((v) => (v.operatorState === 'DeploymentComplete' ? v : undefined))(await view('qwen-managed')),
      'DeploymentComplete',
    );
    assert.equal(done.state, 'Ready');
    assert.equal(done.routing, 'prefixaware');
    assert.ok(done.pods.length >= 1, 'the operator-made pods are listed');
    const answer = await server.api('POST', `${endpoint('qwen-managed')}/invoke`, chat);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.ok(answer.body.content.length > 0);

    // What the user owns (spec and its generation), read just before; the operator keeps writing status as it will.
    const before = await kubectlJson(['get', 'inferenceendpointconfig', 'qwen-managed']);
    const seq = await lastSeq();
    const change = await server.api('POST', `${endpoints}/managed`, { ...body, routing: { strategy: 'kvaware' } });
    assert.equal(change.status, 422, JSON.stringify(change.body));
    assert.equal(change.body.errors[0].path, 'routing.strategy');
    assert.deepEqual(await kubeWrites(seq), []);
    const after = await kubectlJson(['get', 'inferenceendpointconfig', 'qwen-managed']);
    assert.deepEqual(after.spec, before.spec, 'nothing changed');
    assert.equal(after.metadata.generation, before.metadata.generation);

    const scaled = await server.api('PUT', `${endpoint('qwen-managed')}/scale`, { replicas: 2 });
    assert.equal(scaled.status, 200, JSON.stringify(scaled.body));
    assert.equal((await kubectlJson(['get', 'inferenceendpointconfig', 'qwen-managed'])).spec.replicas, 2);

    const js = await server.api('POST', `${endpoints}/managed`, {
      name: 'js',
      model: { source: 'jumpstart', modelId: 'deepseek-llm-r1-distill-qwen-1-5b', acceptEula: true },
      instanceTypes: ['ml.g5.xlarge'],
    });
    assert.equal(js.status, 201, JSON.stringify(js.body));
    assert.equal(js.body.kind, 'jumpstart');
    const jsm = await kubectlJson(['get', 'jumpstartmodel', 'js']);
    assert.match(jsm.spec.server.executionRole, /^arn:aws:iam::000000000000:role\/SageMakerHyperPodInference/);
    const jsGone = await server.api('DELETE', `${endpoint('js')}?confirm=true`);
    assert.deepEqual(jsGone.body.deleted, [{ kind: 'JumpStartModel', name: 'js' }]);

    const deleted = await call(mcp, 'delete_endpoint', { cluster: CLUSTER, endpoint: 'qwen-managed', confirm: true });
    assert.ok(!deleted.isError, deleted.text);
    assert.deepEqual((deleted.structuredContent as any).deleted, [
      { kind: 'InferenceEndpointConfig', name: 'qwen-managed' },
    ]);
    await until(
      async () =>
        (await kube.kubectl(['get', 'inferenceendpointconfigs', '-o', 'name'])).stdout.trim() === '' ? true : undefined,
      'the InferenceEndpointConfig gone',
    );
  });

  it('SGLang behind its router with KEDA: up when the sandbox metric rises, back after the cooldown; scale refused while KEDA scales; preview; logs; delete takes the router and its RBAC', async () => {
    const r = await server.api('POST', `${endpoints}/container`, {
      name: 'sg',
      engine: 'sglang',
      model: 'Qwen/Qwen3-0.6B',
      instanceGroup: group,
      gpus: 1,
      router: {},
      autoscaling: {
        min: 1,
        max: 2,
        threshold: 5,
        cooldownSeconds: 30,
        prometheusUrl: 'http://prometheus-server.monitoring.svc.cluster.local',
      },
    });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    const sg = await ready('sg');
    assert.equal(sg.router.service, 'sg-router');
    assert.equal(sg.router.policy, 'cache_aware');
    assert.equal(sg.autoscaling.scaledObject, 'sg');
    assert.deepEqual(sg.objects.map((o: { kind: string; name: string }) => `${o.kind}/${o.name}`).sort(), [
      'Deployment/sg',
      'Deployment/sg-router',
      'Role/sg-router',
      'RoleBinding/sg-router',
      'ScaledObject/sg',
      'Service/sg',
      'Service/sg-router',
      'ServiceAccount/sg-router',
    ]);
    const answer = await server.api('POST', `${endpoint('sg')}/invoke`, chat);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));

    const refused = await server.api('PUT', `${endpoint('sg')}/scale`, { replicas: 2 });
    assert.equal(refused.status, 422, JSON.stringify(refused.body));
    assert.equal(refused.body.errors[0].path, 'replicas');

    const metric = (value: number) =>
      sb.admin(`/_sandbox/kube/${CLUSTER}-eks/metrics`, {
        method: 'POST',
        body: { name: 'sglang:num_queue_reqs', value },
      });
    const replicas = async (n: number) =>
      until(async () => {
        await sb.advance(15);
        const v = await view('sg');
        return v.replicas.desired === n && v.replicas.ready === n ? v : undefined;
      }, `${n} replicas of sg`);
    await metric(10);
    await replicas(2);
    await metric(0);
    await replicas(1);

    const preview = await server.api(
      'GET',
      `${endpoint('sg')}/autoscaling?max=3&threshold=2&prometheusUrl=${encodeURIComponent('http://prom.monitoring.svc:9090')}`,
    );
    assert.equal(preview.status, 200, JSON.stringify(preview.body));
    assert.equal(preview.body.scaledObject.kind, 'ScaledObject');
    assert.equal(preview.body.scaledObject.spec.maxReplicaCount, 3);
    assert.equal(
      (await kubectlJson(['get', 'scaledobject', 'sg'])).spec.maxReplicaCount,
      2,
      'a preview applies nothing',
    );

    const removed = await call(mcp, 'set_endpoint_autoscaling', {
      cluster: CLUSTER,
      endpoint: 'sg',
      autoscaling: null,
    });
    assert.ok(!removed.isError, removed.text);
    assert.equal((await kube.kubectl(['get', 'scaledobjects', '-o', 'name'])).stdout.trim(), '');
    const scaled = await call(mcp, 'scale_endpoint', { cluster: CLUSTER, endpoint: 'sg', replicas: 2 });
    assert.ok(!scaled.isError, scaled.text);
    assert.equal((await kubectlJson(['get', 'deployment', 'sg'])).spec.replicas, 2);
    await replicas(2);

    const logs = await server.api('GET', `${endpoint('sg')}/logs?tailLines=5`);
    assert.equal(logs.status, 200, JSON.stringify(logs.body));
    assert.ok(logs.body.pods.length >= 3, 'two servers and the router');
    assert.ok(logs.body.pods.every((p: { lines: string[] }) => p.lines.length <= 5));

    const deleted = await server.api('DELETE', `${endpoint('sg')}?confirm=true`);
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    const left = await kubectlJson([
      'get',
      'deployments,services,scaledobjects,serviceaccounts,roles,rolebindings',
      '-l',
      'instantstart.io/endpoint=sg',
    ]);
    assert.deepEqual(left.items, []);
  });

  it('a model pool: workers assigned by label to two pool endpoints; reassigning one moves its traffic (MCP)', async () => {
    const pool = await server.api('POST', `/api/v1/clusters/${CLUSTER}/model-pools`, {
      name: 'p',
      engine: 'vllm',
      model: 'Qwen/Qwen3-0.6B',
      instanceGroup: group,
      gpus: 1,
      workers: 2,
    });
    assert.equal(pool.status, 201, JSON.stringify(pool.body));
    for (const name of ['alpha', 'beta']) {
      const r = await server.api('POST', `${endpoints}/container`, {
        name,
        engine: 'vllm',
        model: 'Qwen/Qwen3-0.6B',
        instanceGroup: group,
        gpus: 1,
        service: { variant: 'pool', pool: 'p' },
      });
      assert.equal(r.status, 201, JSON.stringify(r.body));
      assert.equal(r.body.variant, 'pool');
      // What it serves is the pool's (read from its Deployment), not "pool p".
      assert.deepEqual([r.body.engine, r.body.model], ['vllm', 'Qwen/Qwen3-0.6B']);
    }
    const workers = await until(async () => {
      const listed = await call(mcp, 'list_model_pool', { cluster: CLUSTER, namespace: 'default', pool: 'p' });
      const w = (listed.structuredContent as any).pools[0].workers;
      return w.length === 2 && w.every((x: { ready: boolean }) => x.ready) ? w : undefined;
    }, 'two ready workers');
    const [w0, w1] = workers.map((w: { pod: string }) => w.pod);
    for (const [pod, ep] of [
      [w0, 'alpha'],
      [w1, 'beta'],
    ]) {
      const a = await call(mcp, 'assign_pool_worker', { cluster: CLUSTER, pool: 'p', pod, endpoint: ep });
      assert.ok(!a.isError, a.text);
    }
    assert.equal((await ready('alpha')).replicas.ready, 1);
    assert.equal((await ready('beta')).replicas.ready, 1);
    // The endpoints controller lists a relabelled pod behind its new Service a moment later (as on a real cluster).
    const first = await until(async () => {
      const r = await server.api('POST', `${endpoint('beta')}/invoke`, chat);
      return r.status === 200 ? r : undefined;
    }, 'beta answering');
    assert.equal(first.status, 200, JSON.stringify(first.body));

    const moved = await call(mcp, 'assign_pool_worker', { cluster: CLUSTER, pool: 'p', pod: w1, endpoint: 'alpha' });
    assert.ok(!moved.isError, moved.text);
    const pod = await kubectlJson(['get', 'pod', w1]);
    assert.equal(pod.metadata.labels['instantstart.io/model'], 'alpha');
    const beta = await server.api('POST', `${endpoint('beta')}/invoke`, chat);
    assert.equal(
      beta.status,
      422,
      `the old endpoint no longer routes to the moved worker: ${JSON.stringify(beta.body)}`,
    );
    const alpha = await server.api('POST', `${endpoint('alpha')}/invoke`, chat);
    assert.equal(alpha.status, 200, JSON.stringify(alpha.body));
    assert.equal((await view('alpha')).replicas.ready, 2);

    const busy = await server.api('DELETE', `/api/v1/clusters/${CLUSTER}/model-pools/default/p?confirm=true`);
    assert.equal(busy.status, 409, 'endpoints still select the pool');
    const unknown = await call(mcp, 'assign_pool_worker', { cluster: CLUSTER, pool: 'p', pod: w1, endpoint: 'nope' });
    assert.ok(unknown.isError);
    assert.match(unknown.text, /- endpoint: /);
  });

  it('turning the inference operator off while an endpoint uses it is refused, naming the endpoint; nothing changes', async () => {
    const r = await server.api('POST', `${endpoints}/container`, { ...vllm('keep-ext', 'external'), gpus: 0 });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    const seq = await lastSeq();
    const off = await server.api('PATCH', `/api/v1/clusters/${CLUSTER}/features`, { 'inference-operator': false });
    assert.equal(off.status, 422, JSON.stringify(off.body));
    assert.equal(off.body.errors[0].path, 'inference-operator');
    assert.match(
      off.body.errors[0].message,
      /while Service default\/keep-ext .*uses it: without it nothing deletes their load balancers/,
    );
    assert.deepEqual(await kubeWrites(seq), [], 'no Kubernetes write');
    const viaMcp = await call(mcp, 'set_features', { cluster: CLUSTER, changes: { 'inference-operator': false } });
    assert.ok(viaMcp.isError);
    assert.match(viaMcp.text, /Service default\/keep-ext/);
    const features = (await server.api('GET', `/api/v1/clusters/${CLUSTER}/features`)).body.features as any[];
    assert.equal(features.find((f) => f.id === 'inference-operator').state, 'on');
    const gone = await server.api('DELETE', `${endpoint('keep-ext')}?confirm=true`);
    assert.equal(gone.status, 200, JSON.stringify(gone.body));
  });
});
