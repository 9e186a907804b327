import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { T } from '../../sandbox/kube/controllers/util.js';
import {
  modelDeployment,
  json,
  pieces,
  RBAC,
  service,
  servingWorld,
  sse,
  vllmContainer,
  type ServingWorld,
} from './serving-fixtures.js';

/**
 * The API server's service and pod proxy in front of simulated vLLM servers, on an in-memory
 * cluster with the real authorizer: readiness after loading, chat completions (JSON and SSE),
 * /v1/models, /metrics, the upstream errors (404, 503), RBAC on services/proxy, logs.
 */
describe('service proxy to simulated vLLM servers', () => {
  let w: ServingWorld;
  const proxy = '/api/v1/namespaces/default/services/llm:80/proxy';
  before(async () => {
    w = await servingWorld();
    w.create(
      'deployments',
      modelDeployment('llm', 2, vllmContainer('Qwen/Qwen3-0.6B', ['--served-model-name', 'qwen'])),
    );
    w.create('services', service('llm', { app: 'llm' }));
  });
  after(() => w.close());

  it('answers 503 while the servers load, then serves once their readiness probes pass', async () => {
    w.advance(5);
    const loading = await w.chat(`${proxy}/v1/chat/completions`, 'hello');
    assert.equal(loading.status, 503);
    const status = await json(loading);
    assert.equal(status.kind, 'Status');
    assert.equal(status.reason, 'ServiceUnavailable');
    assert.equal(status.message, 'no endpoints available for service "llm:80"');
    // Each pod pulls for 2–6 s (by its uid), then vLLM takes 6 s to listen and the probe 1 s to see it.
    w.advance(10);
    const pods = w.pods('app', 'llm');
    assert.ok(pods.every((p: any) => p.status.conditions.find((c: any) => c.type === 'Ready').status === 'True'));
    assert.match(w.logs(pods[0]!.metadata.name!), /Starting vLLM API server on http:\/\/0\.0\.0\.0:8000/);
  });

  it('answers a chat completion deterministically, naming the pod that served it; max_tokens cuts with length', async () => {
    const a = await w.chat(`${proxy}/v1/chat/completions`, 'What is a GPU?', { model: 'qwen' });
    assert.equal(a.status, 200);
    const served = a.headers.get('x-served-by');
    assert.ok(w.pods('app', 'llm').some((p) => p.metadata.name === served));
    const body = await json(a);
    assert.equal(body.object, 'chat.completion');
    assert.equal(body.model, 'qwen');
    assert.equal(body.choices[0].finish_reason, 'stop');
    assert.equal(body.usage.completion_tokens, body.choices[0].message.content.split(' ').length);
    assert.equal(body.usage.prompt_tokens, 4);
    const again = await json(await w.chat(`${proxy}/v1/chat/completions`, 'What is a GPU?'));
    assert.equal(again.choices[0].message.content, body.choices[0].message.content, 'same prompt, same text');
    const cut = await json(await w.chat(`${proxy}/v1/chat/completions`, 'What is a GPU?', { max_tokens: 4 }));
    assert.equal(cut.choices[0].finish_reason, 'length');
    assert.equal(cut.usage.completion_tokens, 4);
    const wrong = await w.chat(`${proxy}/v1/chat/completions`, 'hi', { model: 'other' });
    assert.equal(wrong.status, 404);
    assert.equal((await json(wrong)).message, 'The model `other` does not exist.');
  });

  it('streams SSE chunks as they come, ending with [DONE], the same text as without streaming', async () => {
    const plain = await json(await w.chat(`${proxy}/v1/chat/completions`, 'Tell me about pools'));
    const res = await w.chat(`${proxy}/v1/chat/completions`, 'Tell me about pools', {
      stream: true,
      stream_options: { include_usage: true },
    });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /^text\/event-stream/);
    const got = await pieces(res);
    assert.ok(got.length > 2, `chunks arrive apart (${got.length} reads)`);
    const stream = sse(got.join(''));
    assert.ok(stream.done);
    assert.equal(stream.content, plain.choices[0].message.content);
    assert.equal(stream.events.at(-1).usage.completion_tokens, plain.usage.completion_tokens);
    assert.equal(stream.events.at(-2).choices[0].finish_reason, 'stop');
  });

  it('lists the served model, answers /health and /metrics, through the http: form and the pod proxy', async () => {
    const models = await json(await w.call('/api/v1/namespaces/default/services/http:llm:http/proxy/v1/models'));
    assert.deepEqual(
      models.data.map((m: { id: string }) => m.id),
      ['qwen'],
    );
    const pod = w.pods('app', 'llm')[0]!.metadata.name!;
    const health = await w.call(`/api/v1/namespaces/default/pods/${pod}:8000/proxy/health`);
    assert.equal(health.status, 200);
    assert.equal(health.headers.get('x-served-by'), pod);
    const metrics = await (await w.call(`/api/v1/namespaces/default/pods/${pod}/proxy/metrics`)).text();
    assert.match(metrics, /^vllm:num_requests_running\{engine="0",model_name="qwen"\} 0\.0$/m);
    assert.match(metrics, /^vllm:num_requests_waiting\{/m);
    assert.match(metrics, /^vllm:request_success_total\{engine="0",model_name="qwen"\} \d+\.0$/m);
    const refused = await w.call(`/api/v1/namespaces/default/pods/${pod}:9999/proxy/health`);
    assert.equal(refused.status, 503);
    assert.match(
      (await json(refused)).message,
      /^error trying to reach service: dial tcp [\d.]+:9999: connect: connection refused$/,
    );
  });

  it('answers upstream errors for unknown services and ports', async () => {
    const byPort = await w.call('/api/v1/namespaces/default/services/nope:80/proxy/v1/models');
    assert.equal(byPort.status, 404);
    assert.equal((await json(byPort)).message, 'services "nope" not found');
    const byName = await w.call('/api/v1/namespaces/default/services/nope/proxy/v1/models');
    assert.equal((await json(byName)).message, 'endpoints "nope" not found');
    const port = await w.call('/api/v1/namespaces/default/services/llm:81/proxy/');
    assert.equal(port.status, 503);
    assert.equal((await json(port)).message, 'no service port 81 found for service "llm"');
    const bad = await w.call('/api/v1/namespaces/default/services/ftp:llm:80/proxy/');
    assert.equal(bad.status, 400);
  });

  it('authorises services/proxy by RBAC with the verb of the method', async () => {
    const as = { user: 'dev', groups: ['devs'] };
    w.create('roles', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'svc-read', namespace: 'default' },
      rules: [{ apiGroups: [''], resources: ['services'], verbs: ['get'] }],
    });
    w.create('rolebindings', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'devs', namespace: 'default' },
      subjects: [{ kind: 'Group', name: 'devs', apiGroup: 'rbac.authorization.k8s.io' }],
      roleRef: { kind: 'Role', name: 'svc-read', apiGroup: 'rbac.authorization.k8s.io' },
    });
    const refused = await w.call(`${proxy}/v1/models`, as);
    assert.equal(refused.status, 403);
    assert.match(
      (await json(refused)).message,
      /User "dev" cannot get resource "services\/proxy" in API group "" in the namespace "default"/,
    );
    const role = w.cluster.objects.get(RBAC.roles, 'default', 'svc-read')!;
    w.cluster.objects.update(RBAC.roles, {
      ...role,
      rules: [{ apiGroups: [''], resources: ['services/proxy'], verbs: ['get'] }],
    });
    assert.equal((await w.call(`${proxy}/v1/models`, as)).status, 200);
    const post = await w.call(`${proxy}/v1/chat/completions`, {
      ...as,
      method: 'POST',
      body: JSON.stringify({ messages: [{ role: 'user', content: 'hi' }] }),
    });
    assert.equal(post.status, 403, 'POST needs create on services/proxy');
    assert.match((await json(post)).message, /cannot create resource "services\/proxy"/);
  });

  it('answers 503 naming the service when no pod is left', async () => {
    const d = w.cluster.objects.get(T.deployments, 'default', 'llm')!;
    w.cluster.objects.update(T.deployments, { ...d, spec: { ...(d.spec as object), replicas: 0 } });
    w.advance(40);
    const res = await w.chat(`${proxy}/v1/chat/completions`, 'anyone?');
    assert.equal(res.status, 503);
    assert.equal((await json(res)).message, 'no endpoints available for service "llm"');
  });
});
