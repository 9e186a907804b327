import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RestApiError, RestClient, RestUnreachableError } from '../../src/mcp/rest-client.js';
import { closedPort, problem, startFakeRest, type FakeRest } from './fake-rest.js';

describe('RestClient', () => {
  let rest: FakeRest;
  before(async () => {
    rest = await startFakeRest({
      'POST /api/v1/things': (req) => ({ status: 202, body: { echo: req.body } }),
      'GET /api/v1/bad': () => problem(422, 'storage.fsxLustre.storageCapacityGiB', 'must be a multiple of 1200 GiB'),
      'GET /api/v1/html': () => ({ status: 502, contentType: 'text/html', body: '<html>Bad Gateway</html>' }),
      'DELETE /api/v1/empty': () => ({ status: 204, body: '' }),
    });
  });
  after(() => rest.close());

  it('sends JSON, the bearer token, the idempotency key and the query (skipping undefined)', async () => {
    const api = new RestClient({ baseUrl: `${rest.url}/`, token: 'tkn' });
    const out = await api.post<{ echo: unknown }>('/api/v1/things', {
      body: { a: 1 },
      idempotencyKey: 'k-1',
      query: { region: 'us-west-2', zone: undefined, n: 3 },
    });
    assert.deepEqual(out, { echo: { a: 1 } });
    const req = rest.requests.at(-1)!;
    assert.equal(req.headers.authorization, 'Bearer tkn');
    assert.equal(req.headers['idempotency-key'], 'k-1');
    assert.equal(req.headers['content-type'], 'application/json');
    assert.equal(req.headers.origin, undefined);
    assert.deepEqual(req.query, { region: 'us-west-2', n: '3' });
  });

  it('turns problem+json into a RestApiError with status, title, detail and field errors', async () => {
    const api = new RestClient({ baseUrl: rest.url });
    const err = await api.get('/api/v1/bad').then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(err instanceof RestApiError);
    assert.equal(err.status, 422);
    assert.equal(err.title, 'Invalid request');
    assert.match(err.detail ?? '', /multiple of 1200/);
    assert.deepEqual(err.errors, [
      { path: 'storage.fsxLustre.storageCapacityGiB', message: 'must be a multiple of 1200 GiB' },
    ]);
  });

  it('keeps a non-JSON error page as a short detail, and accepts empty bodies', async () => {
    const api = new RestClient({ baseUrl: rest.url });
    const err = await api.get('/api/v1/html').then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(err instanceof RestApiError);
    assert.equal(err.status, 502);
    assert.equal(err.detail, '<html>Bad Gateway</html>');
    assert.equal(await api.delete('/api/v1/empty'), undefined);
  });

  it('reports an unreachable server and a timeout as RestUnreachableError', async () => {
    const down = new RestClient({ baseUrl: `http://127.0.0.1:${await closedPort()}` });
    const err = await down.get('/healthz').then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(err instanceof RestUnreachableError);
    assert.match(err.message, /ECONNREFUSED/);

    rest.routes.set('GET /slow', () => new Promise((resolve) => setTimeout(() => resolve({ body: {} }), 500)));
    const hasty = new RestClient({ baseUrl: rest.url, timeoutMs: 50 });
    const slow = await hasty.get('/slow').then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(slow instanceof RestUnreachableError);
    assert.equal(slow.timedOut, true);
  });

  it('refuses a base URL that is not http(s)', () => {
    assert.throws(() => new RestClient({ baseUrl: 'file:///etc/passwd' }), /http\(s\)/);
  });
});
