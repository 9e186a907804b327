import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { inProcessFetch } from '../../src/api/in-process-fetch.js';

/** The MCP endpoint's tools reach REST through this fetch: it must behave as the real one does for them. */
describe('inProcessFetch', () => {
  const app = Fastify();
  app.post('/echo', async (request, reply) =>
    reply.code(201).header('x-seen-host', request.headers.host).send({ got: request.body, query: request.query }),
  );
  app.delete('/thing', async (_request, reply) => reply.code(204).send());
  app.get('/slow', () => new Promise(() => undefined));
  const fetchHere = inProcessFetch(() => app);

  it('sends method, headers, body and query to the route, with the URL’s host as Host, and returns status, headers and body', async () => {
    const res = await fetchHere('http://127.0.0.1:3099/echo?x=1', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer t' },
      body: JSON.stringify({ a: 1 }),
    });
    assert.equal(res.status, 201);
    assert.equal(res.headers.get('x-seen-host'), '127.0.0.1:3099');
    assert.deepEqual(await res.json(), { got: { a: 1 }, query: { x: '1' } });
  });

  it('answers 204 without a body', async () => {
    const res = await fetchHere('http://127.0.0.1:3099/thing', { method: 'DELETE' });
    assert.equal(res.status, 204);
    assert.equal(await res.text(), '');
  });

  it('gives up when its signal aborts, as fetch does', async () => {
    const controller = new AbortController();
    const pending = fetchHere('http://127.0.0.1:3099/slow', { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await assert.rejects(pending);
    await assert.rejects(fetchHere('http://127.0.0.1:3099/echo', { signal: AbortSignal.abort() }));
  });
});
