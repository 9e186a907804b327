import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConflictError } from '../../src/domain/errors.js';
import type { CloudIdentity } from '../../src/domain/operation-owner.js';
import { openMemoryDatabase } from '../../src/store/database.js';
import { FakeResource, newEngine, phaseReaches, workflow } from './helpers.js';

const SANDBOX: CloudIdentity = { cloud: 'sandbox', accountId: '000000000000', region: 'us-west-2' };
const AWS_A: CloudIdentity = { cloud: 'aws', accountId: '111111111111', region: 'us-east-1' };
const AWS_B: CloudIdentity = { cloud: 'aws', accountId: '222222222222', region: 'us-east-1' };

/** Collects warn lines, as the server's pino logger would print them. */
function recordingLogger() {
  const warnings: Array<{ fields: Record<string, unknown>; message: string }> = [];
  return {
    warnings,
    logger: {
      info() {},
      error() {},
      warn: (fields: Record<string, unknown>, message: string) => void warnings.push({ fields, message }),
    },
  };
}

/** An operation left running in the journal (as a crash leaves it) by a server acting as `owner`. */
async function leftRunningBy(owner: CloudIdentity | undefined, res = new FakeResource()) {
  const db = openMemoryDatabase();
  const first = newEngine(db, owner ? { owner } : {});
  first.engine.register(workflow('make', [res.phase('build')]));
  const { operation } = first.engine.start('make', { name: 'a', region: 'eu-west-1' });
  await phaseReaches(first.engine, operation.id, 'build', 'awaiting');
  await first.engine.stop();
  return { db, id: operation.id, res };
}

describe('operations belong to one cloud and account', () => {
  it("records the cloud, account and Region (the input's, else the server's default) on every new operation", () => {
    const { engine } = newEngine(openMemoryDatabase(), { owner: AWS_A });
    engine.register(workflow('make', [new FakeResource().phase('build')]));
    const withRegion = engine.start('make', { name: 'a', region: 'eu-west-1' }).operation;
    const withoutRegion = engine.start('make', { name: 'b' }).operation;
    assert.deepEqual([withRegion.cloud, withRegion.accountId, withRegion.region], ['aws', '111111111111', 'eu-west-1']);
    assert.deepEqual(
      [withoutRegion.cloud, withoutRegion.accountId, withoutRegion.region],
      ['aws', '111111111111', 'us-east-1'],
    );
    assert.equal(engine.get(withRegion.id).accountId, '111111111111', 'read back from the journal');
    return engine.stop();
  });

  it('does not resume an operation of another account, says why once, and refuses its cancel and retry with 409', async () => {
    const { db, id, res } = await leftRunningBy(AWS_A);
    const { warnings, logger } = recordingLogger();
    const other = newEngine(db, { owner: AWS_B, logger });
    other.engine.register(workflow('make', [res.phase('build')]));
    const observes = res.observeCalls;

    assert.deepEqual(other.engine.resume(), [], 'nothing resumed');
    assert.equal(res.observeCalls, observes, "the other account's cloud was not even read");
    assert.equal(other.store.getOperation(id)!.status, 'running', 'left untouched');
    const notResumed = warnings.filter((w) => w.fields.operationId === id);
    assert.equal(notResumed.length, 1);
    assert.match(notResumed[0]!.message, /AWS account 111111111111 .*this server acts on AWS account 222222222222/);

    assert.throws(
      () => other.engine.cancel(id),
      (err: unknown) => err instanceof ConflictError && /belongs to AWS account 111111111111/.test(err.message),
    );
    assert.equal(other.store.getOperation(id)!.status, 'running', 'cancel changed nothing');

    // A failed operation of account A cannot be retried from account B either.
    other.store.updatePhase(id, 'build', {
      status: 'failed',
      error: { phase: 'build', code: 'Boom', message: 'boom' },
    });
    other.store.updateOperation(
      id,
      { status: 'failed', error: { phase: 'build', code: 'Boom', message: 'boom' } },
      new Date().toISOString(),
    );
    assert.throws(
      () => other.engine.retryPhase(id, 'build'),
      (err: unknown) => err instanceof ConflictError && /belongs to AWS account 111111111111/.test(err.message),
    );
    assert.equal(other.store.getPhase(id, 'build')!.attempts, 1, 'retry changed nothing');
    await other.engine.stop();
  });

  it('never resumes a sandbox operation on a server acting on real AWS', async () => {
    const { db, id } = await leftRunningBy(SANDBOX);
    const aws = newEngine(db, { owner: AWS_A, logger: recordingLogger().logger });
    aws.engine.register(workflow('make', [new FakeResource().phase('build')]));
    assert.deepEqual(aws.engine.resume(), []);
    assert.equal(aws.store.getOperation(id)!.status, 'running');
    await aws.engine.stop();
  });

  it('lets a sandbox server adopt operations of unknown cloud (journaled by older versions), but never an AWS server', async () => {
    const legacy = await leftRunningBy(undefined);
    assert.equal(
      legacy.db.prepare('SELECT cloud FROM operations WHERE id = ?').pluck().get(legacy.id),
      null,
      'legacy rows record no cloud',
    );
    const aws = newEngine(legacy.db, { owner: AWS_A, logger: recordingLogger().logger });
    aws.engine.register(workflow('make', [legacy.res.phase('build')]));
    assert.deepEqual(aws.engine.resume(), [], 'an AWS server leaves it alone');
    await aws.engine.stop();

    const sandbox = newEngine(legacy.db, { owner: SANDBOX });
    sandbox.engine.register(workflow('make', [legacy.res.phase('build')]));
    assert.deepEqual(
      sandbox.engine.resume().map((v) => v.id),
      [legacy.id],
    );
    legacy.res.ready = true;
    assert.equal((await sandbox.engine.waitFor(legacy.id, 3000)).status, 'succeeded');
    assert.equal(sandbox.engine.get(legacy.id).cloud, null, 'still shown as unknown');
    await sandbox.engine.stop();
  });
});
