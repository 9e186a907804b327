import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

describe('sandbox admin API', () => {
  let sb: TestSandbox;
  before(async () => {
    sb = await startTestSandbox();
  });
  after(async () => sb.dispose());

  it('logs every AWS call with service, operation, digest and outcome', async () => {
    await new STSClient({}).send(new GetCallerIdentityCommand({}));
    const calls = await sb.calls({ service: 'sts', operation: 'GetCallerIdentity' });
    assert.ok(calls.length >= 1);
    const last = calls.at(-1)!;
    assert.equal(last.status, 200);
    assert.equal(last.mutating, false);
    assert.match((last as any).paramsDigest, /^[0-9a-f]{16}$/);
  });

  it('throttles a fraction of calls with the protocol’s real throttling code', async () => {
    const res = await sb.admin('/_sandbox/faults', {
      method: 'POST',
      body: { type: 'throttle', service: 'sts', rate: 0.5 },
    });
    assert.equal(res.status, 201);
    const client = new STSClient({ maxAttempts: 1 });
    const outcomes = await Promise.all(
      Array.from({ length: 4 }, () =>
        client.send(new GetCallerIdentityCommand({})).then(
          () => 'ok',
          (e: Error) => e.name,
        ),
      ),
    );
    assert.equal(outcomes.filter((o) => o === 'Throttling').length, 2);
    assert.equal(outcomes.filter((o) => o === 'ok').length, 2);
    await sb.admin('/_sandbox/faults', { method: 'DELETE' });
    assert.equal((await client.send(new GetCallerIdentityCommand({}))).Account, '000000000000');
  });

  it('the SDK’s own retries ride out a throttled call', async () => {
    await sb.admin('/_sandbox/faults', {
      method: 'POST',
      body: { type: 'throttle', service: 'sts', rate: 1, count: 1 },
    });
    const out = await new STSClient({ maxAttempts: 3 }).send(new GetCallerIdentityCommand({}));
    assert.equal(out.$metadata.attempts, 2);
  });

  it('fails the next N calls of an operation with a chosen code', async () => {
    await sb.admin('/_sandbox/faults', {
      method: 'POST',
      body: {
        type: 'error',
        service: 'sts',
        operation: 'GetCallerIdentity',
        code: 'ServiceUnavailable',
        status: 503,
        message: 'try later',
        count: 1,
      },
    });
    const client = new STSClient({ maxAttempts: 1 });
    await assert.rejects(
      client.send(new GetCallerIdentityCommand({})),
      (e: Error) => e.name === 'ServiceUnavailable' && e.message === 'try later',
    );
    assert.equal((await client.send(new GetCallerIdentityCommand({}))).Account, '000000000000');
  });

  it('refuses a malformed fault with a message naming the field, and adds nothing', async () => {
    const res = await sb.admin('/_sandbox/faults', {
      method: 'POST',
      body: { type: 'throttle', service: 'sts', rate: 2 },
    });
    assert.equal(res.status, 400);
    assert.match(res.body.error, /rate/);
    assert.deepEqual((await sb.admin('/_sandbox/faults')).body.faults, []);
  });

  it('moves the clock by speed and by jumps, and rejects nonsense', async () => {
    const before = Date.parse((await sb.admin('/_sandbox/clock')).body.now);
    const jumped = await sb.admin('/_sandbox/clock', { method: 'POST', body: { advanceSeconds: 3600 } });
    assert.ok(Date.parse(jumped.body.now) - before >= 3600_000);
    const fast = await sb.admin('/_sandbox/clock', { method: 'POST', body: { speed: 120 } });
    assert.equal(fast.body.speed, 120);
    const bad = await sb.admin('/_sandbox/clock', { method: 'POST', body: { speed: -1 } });
    assert.equal(bad.status, 400);
    assert.match(bad.body.error, /speed/);
    await sb.admin('/_sandbox/clock', { method: 'POST', body: { speed: 1 } });
  });

  it('answers unknown admin routes with 404 and a pointer to the docs', async () => {
    const res = await sb.admin('/_sandbox/nope');
    assert.equal(res.status, 404);
    assert.match(res.body.error, /SANDBOX\.md/);
  });

  it('reset forgets calls', async () => {
    await sb.admin('/_sandbox/reset', { method: 'POST' });
    assert.deepEqual(await sb.calls(), []);
  });
});
