import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { matchServe, serveDirect } from '../../sandbox/admin-serve.js';
import {
  json,
  modelDeployment,
  pieces,
  servingWorld,
  sse,
  vllmContainer,
  type ServingWorld,
} from './serving-fixtures.js';

/**
 * The sandbox devices the inference bench uses: `/_sandbox/kube/<cluster>/pods/<ns>/<pod>[:<port>]/serve/<path>`
 * sends a request straight to a pod's simulated server and streams the answer back, and the pod annotation
 * `sandbox.instantstart.dev/answer-tokens` makes answers that long (still cut at max_tokens).
 */
describe('straight to a pod’s model server (sandbox admin device)', () => {
  let w: ServingWorld;
  let server: Server;
  let url: string;
  let pod: string;
  before(async () => {
    w = await servingWorld();
    const d = modelDeployment('long', 1, vllmContainer('Qwen/Qwen3-0.6B')) as any;
    d.spec.template.metadata.annotations = { 'sandbox.instantstart.dev/answer-tokens': '300' };
    w.create('deployments', d);
    // A pull of 2–6 s (by pod uid), vLLM's 6 s to listen, 1 s for the probe: 15 s covers the slowest.
    w.advance(15);
    pod = w.pods('app', 'long')[0]!.metadata.name!;
    server = createServer((req, res) => {
      const route = matchServe((req.url ?? '/').split('?')[0]!);
      if (!route) return void res.writeHead(404).end();
      void serveDirect(route, new URL(req.url!, 'http://x').search, req, res, (name) =>
        name === 'c1' ? w.cluster : undefined,
      );
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise<void>((r) => server.close(() => r()));
    await w.close();
  });

  const chat = (path: string, extra: Record<string, unknown> = {}) =>
    fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ role: 'user', content: 'hello' }], ...extra }),
    });

  it('parses the route, with and without a port', () => {
    assert.deepEqual(matchServe('/_sandbox/kube/c1/pods/default/p-1:8000/serve/v1/models'), {
      cluster: 'c1',
      namespace: 'default',
      pod: 'p-1',
      port: 8000,
      path: '/v1/models',
    });
    assert.equal(matchServe('/_sandbox/kube/c1/pods/default/p-1/serve')?.path, '/');
    assert.equal(matchServe('/_sandbox/kube/c1/metrics'), undefined);
  });

  it('streams an answer of the annotated length, chunk by chunk; max_tokens still cuts', async () => {
    const res = await chat(`/_sandbox/kube/c1/pods/default/${pod}/serve/v1/chat/completions`, {
      stream: true,
      stream_options: { include_usage: true },
    });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /^text\/event-stream/);
    const got = await pieces(res);
    assert.ok(got.length > 10, `chunks arrive apart (${got.length} reads)`);
    const s = sse(got.join(''));
    assert.ok(s.done);
    assert.equal(s.content.split(' ').length, 300);
    assert.equal(s.events.at(-1).usage.completion_tokens, 300);
    const cut = await json(
      await chat(`/_sandbox/kube/c1/pods/default/${pod}:8000/serve/v1/chat/completions`, { max_tokens: 7 }),
    );
    assert.equal(cut.usage.completion_tokens, 7);
    assert.equal(cut.choices[0].finish_reason, 'length');
  });

  it('answers 404 for an unknown cluster or pod and 503 for a port nobody listens on', async () => {
    assert.equal((await fetch(`${url}/_sandbox/kube/nope/pods/default/${pod}/serve/health`)).status, 404);
    assert.equal((await fetch(`${url}/_sandbox/kube/c1/pods/default/nope/serve/health`)).status, 404);
    const refused = await fetch(`${url}/_sandbox/kube/c1/pods/default/${pod}:9999/serve/health`);
    assert.equal(refused.status, 503);
    assert.match((await json(refused)).error, /connection refused/);
  });
});
