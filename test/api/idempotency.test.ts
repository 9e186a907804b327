import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { z } from 'zod';
import { Replays, requestFingerprint } from '../../src/api/idempotency.js';
import { sendProblem } from '../../src/api/problem.js';
import { RouteRegistry } from '../../src/api/route.js';
import type { OperationView } from '../../src/domain/schemas/operations.js';
import { openMemoryDatabase } from '../../src/store/database.js';
import { IdempotencyStore } from '../../src/store/idempotency-store.js';

/** An operation view as the engine would give it (only what the replay reads matters). */
const operation = (id: string, status: string): OperationView =>
  ({
    id,
    kind: 'add-storage',
    target: 't',
    status,
    phases: [],
    statusUrl: `/api/v1/operations/${id}`,
    statusTool: 'wait_for_operation',
  }) as unknown as OperationView;

/**
 * The Idempotency-Key layer on routes of a bare Fastify app: a mutating route that answers at once, one
 * that starts an "operation", a read-only check. Counts how often each handler really ran.
 */
describe('Idempotency-Key on every mutating route', () => {
  let app: FastifyInstance;
  let keys: IdempotencyStore;
  const ran = { jobs: 0, storage: 0, check: 0 };
  const operations = new Map<string, OperationView>();
  let byKey: Record<string, string> = {};
  let gate: Promise<void> | undefined;
  let failNext = false;

  before(async () => {
    keys = new IdempotencyStore(openMemoryDatabase());
    const replays = new Replays({
      idempotencyKeys: keys,
      operations: {
        get: (id: string) => operations.get(id)!,
        byIdempotencyKey: (key: string) => (byKey[key] ? operations.get(byKey[key]!) : undefined),
      } as never,
    });
    app = Fastify();
    app.setErrorHandler((err, request, reply) => sendProblem(reply, request, err));
    const routes = new RouteRegistry(replays);
    routes.define(
      app,
      {
        method: 'POST',
        url: '/jobs',
        operationId: 'submit',
        summary: 's',
        tags: [],
        body: z.object({ name: z.string() }),
        responses: { 201: { description: 'job' } },
      },
      async ({ body }) => {
        ran.jobs += 1;
        await gate;
        if (failNext) {
          failNext = false;
          throw new Error('the cloud failed');
        }
        return { job: { name: body.name, n: ran.jobs } };
      },
    );
    routes.define(
      app,
      {
        method: 'DELETE',
        url: '/storage/{storage}',
        operationId: 'remove',
        summary: 'r',
        tags: [],
        params: z.object({ storage: z.string() }),
        responses: { 202: { description: 'op' } },
      },
      async ({ params }) => {
        ran.storage += 1;
        const op = operation(`op-${params.storage}-${ran.storage}`, 'pending');
        operations.set(op.id, op);
        return { operation: op, statusUrl: op.statusUrl, statusTool: op.statusTool, existing: false };
      },
    );
    routes.define(
      app,
      {
        method: 'POST',
        url: '/check',
        operationId: 'check',
        readOnly: true,
        summary: 'c',
        tags: [],
        body: z.object({ n: z.number() }),
        responses: { 200: { description: 'ok' } },
      },
      async () => ({ ok: true, n: ++ran.check }),
    );
    await app.ready();
  });
  after(() => app.close());
  beforeEach(() => {
    Object.assign(ran, { jobs: 0, storage: 0, check: 0 });
    byKey = {};
  });

  const send = (method: string, url: string, key: string | undefined, body?: unknown) =>
    app.inject({
      method: method as 'POST',
      url,
      headers: { ...(key ? { 'idempotency-key': key } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { payload: JSON.stringify(body) } : {}),
    });

  it('answers a repeat of an answered request with the first answer, marked replayed, without running it again', async () => {
    const first = await send('POST', '/jobs', 'k-job', { name: 'a' });
    const again = await send('POST', '/jobs', 'k-job', { name: 'a' });
    assert.equal(first.statusCode, 201);
    assert.deepEqual([again.statusCode, again.json()], [201, first.json()]);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(first.headers['idempotent-replayed'], undefined);
    assert.equal(ran.jobs, 1);
    assert.equal(
      (await send('POST', '/jobs', undefined, { name: 'a' })).statusCode,
      201,
      'without a key, a request is a new one',
    );
    assert.equal(ran.jobs, 2);
  });

  it('refuses the same key with another body, or another route or target, as 409 naming Idempotency-Key and the first request', async () => {
    assert.equal((await send('DELETE', '/storage/sx', 'k-rm')).statusCode, 202);
    for (const [method, url, body] of [
      ['DELETE', '/storage/sy'],
      ['POST', '/jobs', { name: 'a' }],
    ] as const) {
      const other = await send(method, url, 'k-rm', body);
      assert.equal(other.statusCode, 409, other.body);
      assert.match(String(other.headers['content-type']), /^application\/problem\+json/);
      assert.equal(other.json().errors[0].path, 'Idempotency-Key');
      assert.match(other.json().detail, /DELETE \/storage\/sx/);
    }
    assert.equal(ran.storage, 1, 'sy was never acted on');
    await send('POST', '/jobs', 'k-body', { name: 'a' });
    assert.equal((await send('POST', '/jobs', 'k-body', { name: 'b' })).statusCode, 409);
    assert.equal(ran.jobs, 1);
  });

  it('answers a repeat of a request that started an operation with that operation as it is now (existing: true)', async () => {
    const first = await send('DELETE', '/storage/s1', 'k-op');
    const id = first.json().operation.id;
    operations.set(id, operation(id, 'succeeded'));
    const again = (await send('DELETE', '/storage/s1', 'k-op')).json();
    assert.deepEqual([again.operation.id, again.operation.status, again.existing], [id, 'succeeded', true]);
    assert.equal(ran.storage, 1);
  });

  it('holds a duplicate that arrives while the first is under way, then answers it the first answer', async () => {
    let open!: () => void;
    gate = new Promise((r) => (open = r));
    const first = send('POST', '/jobs', 'k-slow', { name: 'slow' });
    await new Promise((r) => setTimeout(r, 20));
    const duplicate = send('POST', '/jobs', 'k-slow', { name: 'slow' });
    const other = await send('POST', '/jobs', 'k-slow', { name: 'other' });
    assert.equal(other.statusCode, 409, 'another body under a key in use is refused at once');
    open();
    gate = undefined;
    const [a, b] = await Promise.all([first, duplicate]);
    assert.deepEqual(b.json(), a.json());
    assert.equal(ran.jobs, 1);
  });

  it('records no failure: the same key may be sent again and then runs', async () => {
    failNext = true;
    assert.equal((await send('POST', '/jobs', 'k-fail', { name: 'a' })).statusCode, 500);
    assert.equal((await send('POST', '/jobs', 'k-fail', { name: 'a' })).statusCode, 201);
    assert.equal(ran.jobs, 2);
  });

  it('after a crash (a key begun, never answered): answers the operation started under the key, else runs the request again', async () => {
    // What a crash between the start and the recorded answer leaves: the key begun, and (maybe) its operation.
    const remove = requestFingerprint({
      method: 'DELETE',
      route: '/storage/{storage}',
      params: { storage: 'sz' },
      query: {},
      body: undefined,
    });
    keys.begin({ key: 'k-crash', fingerprint: remove, request: 'DELETE /storage/sz' });
    operations.set('op-made', operation('op-made', 'running'));
    byKey['k-crash'] = 'op-made';
    const after = await send('DELETE', '/storage/sz', 'k-crash');
    assert.deepEqual([after.statusCode, after.json().operation.id, after.json().existing], [202, 'op-made', true]);
    assert.equal(ran.storage, 0, 'the operation of the key answers: nothing started again');
    assert.equal(
      (await send('DELETE', '/storage/sz', 'k-crash')).json().operation.id,
      'op-made',
      'and that answer is now recorded',
    );

    const submit = requestFingerprint({ method: 'POST', route: '/jobs', params: {}, query: {}, body: { name: 'a' } });
    keys.begin({ key: 'k-crash-job', fingerprint: submit, request: 'POST /jobs' });
    assert.equal(
      (await send('DELETE', '/storage/sz', 'k-crash-job')).statusCode,
      409,
      'the interrupted request is still the only one the key names',
    );
    const rerun = await send('POST', '/jobs', 'k-crash-job', { name: 'a' });
    assert.equal(
      rerun.statusCode,
      201,
      'no operation under the key: the request runs again (the route finds what it made)',
    );
    assert.equal(ran.jobs, 1);
  });

  it('ignores the key on a route that changes nothing', async () => {
    await send('POST', '/check', 'k-check', { n: 1 });
    assert.equal((await send('POST', '/check', 'k-check', { n: 2 })).statusCode, 200);
    assert.equal(ran.check, 2);
    assert.equal(keys.find('k-check'), undefined);
  });
});
