import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openMemoryDatabase, type Database } from '../../src/store/database.js';
import { IdempotencyStore } from '../../src/store/idempotency-store.js';
import { OperationsStore, type NewOperation } from '../../src/store/operations-store.js';
import {
  checkRetentionPolicy,
  DEFAULT_RETENTION,
  OperationsRetention,
  type RetentionPolicy,
} from '../../src/store/retention.js';
import { RetentionSchedule } from '../../src/store/retention-schedule.js';

const NOW = new Date(Date.UTC(2025, 6, 1));
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 86_400_000).toISOString();
const PHASES = [{ name: 'network', title: 'Network', expectedSeconds: 120 }];

interface Seed {
  id: string;
  kind?: string;
  target?: string;
  /** Days before NOW the operation was created; it ends `ran` days later when it has a final status. */
  created: number;
  status?: 'succeeded' | 'failed' | 'cancelled' | 'running';
  ran?: number;
  lines?: number;
}

/** A journal with the given operations, each with one phase and `lines` log lines. */
function journal(seeds: Seed[]): { db: Database; store: OperationsStore } {
  const db = openMemoryDatabase();
  const store = new OperationsStore(db);
  for (const s of seeds) {
    const op: NewOperation = {
      id: s.id,
      kind: s.kind ?? 'create-cluster',
      target: s.target ?? `cluster/us-west-2/${s.id}`,
      status: 'pending',
      input: {},
      state: {},
      createdAt: daysAgo(s.created),
    };
    store.createOperation(op, PHASES);
    for (let i = 0; i < (s.lines ?? 1); i++)
      store.appendLog(s.id, { at: op.createdAt, level: 'info', message: `line ${i + 1}` });
    const status = s.status ?? 'succeeded';
    const ended = daysAgo(s.created - (s.ran ?? 0));
    store.updateOperation(s.id, { status, ...(status === 'running' ? {} : { finishedAt: ended }) }, ended);
  }
  return { db, store };
}

const ids = (store: OperationsStore) =>
  store
    .listOperations({ limit: 1000 })
    .map((o) => o.id)
    .sort();
const count = (db: Database, table: string) =>
  (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
const policy = (p: Partial<RetentionPolicy>): RetentionPolicy => ({ ...DEFAULT_RETENTION, ...p });

describe('retention', () => {
  it('removes finished operations older than the limit, with their phases and log lines', () => {
    const { db, store } = journal([
      { id: 'old', created: 45, lines: 3 },
      { id: 'old-failed', created: 40, status: 'failed', lines: 2 },
      { id: 'recent', created: 10 },
      // Started 50 days ago, ended 25 days ago: age counts from the end.
      { id: 'long', created: 50, ran: 25 },
      // Each is not the newest of its kind on its target (the *-next operations are).
      ...['old', 'old-failed', 'recent', 'long'].map((id) => ({
        id: `${id}-next`,
        target: `cluster/us-west-2/${id}`,
        created: 1,
      })),
    ]);
    const removed = new OperationsRetention(db, policy({ maxAgeDays: 30 })).pruneBatch(NOW);
    assert.deepEqual(removed, { operations: 2, logLines: 5, idempotencyKeys: 0, auditEvents: 0, more: false });
    assert.deepEqual(ids(store), ['long', 'long-next', 'old-failed-next', 'old-next', 'recent', 'recent-next']);
    assert.equal(count(db, 'phases'), 6, 'the phases of removed operations went with them');
    assert.equal(count(db, 'operation_log'), 6);
  });

  it('never removes an unfinished operation, or the newest of a kind on a target (a half-made cluster stays listed)', () => {
    const { db, store } = journal([
      { id: 'running', created: 400, status: 'running' },
      // The cluster "half" failed to create 90 days ago; nothing happened to it since.
      { id: 'half-create', target: 'cluster/us-west-2/half', created: 90, status: 'failed' },
      // "gone": a failed create, a create that worked, a delete 60 days ago; only the first is not the newest of its
      // kind.
      { id: 'gone-create-1', target: 'cluster/us-west-2/gone', created: 85, status: 'failed' },
      { id: 'gone-create', target: 'cluster/us-west-2/gone', created: 80 },
      { id: 'gone-delete', kind: 'delete-cluster', target: 'cluster/us-west-2/gone', created: 60 },
      // Two group additions to "half": only the newer must stay.
      { id: 'group-1', kind: 'add-instance-group', target: 'cluster/us-west-2/half', created: 70 },
      { id: 'group-2', kind: 'add-instance-group', target: 'cluster/us-west-2/half', created: 65, status: 'failed' },
    ]);
    const clusterKinds = ['create-cluster', 'delete-cluster'];
    const before = store.latestPerTarget(clusterKinds);
    const removed = new OperationsRetention(db, policy({ maxAgeDays: 30, maxOperations: 1 })).pruneBatch(NOW);
    assert.equal(removed.operations, 2);
    assert.deepEqual(ids(store), ['gone-create', 'gone-delete', 'group-2', 'half-create', 'running']);
    assert.deepEqual(store.latestPerTarget(clusterKinds), before, 'the latest create/delete per cluster is unchanged');
    assert.deepEqual(new OperationsRetention(db, policy({ maxAgeDays: 30, maxOperations: 1 })).pruneBatch(NOW), {
      operations: 0,
      logLines: 0,
      idempotencyKeys: 0,
      auditEvents: 0,
      more: false,
    });
  });

  it('keeps at most maxOperations finished operations, removing the oldest first', () => {
    const seeds: Seed[] = [1, 2, 3, 4, 5].map((n) => ({
      id: `op-${n}`,
      target: 'cluster/us-west-2/demo',
      created: 10 - n,
    }));
    const { db, store } = journal([
      ...seeds,
      { id: 'active', target: 'cluster/us-west-2/demo', kind: 'delete-cluster', created: 20, status: 'running' },
    ]);
    const removed = new OperationsRetention(db, policy({ maxOperations: 2 })).pruneBatch(NOW);
    assert.equal(removed.operations, 3);
    assert.deepEqual(ids(store), ['active', 'op-4', 'op-5'], 'the two newest finished ones, and the running one');
  });

  it('caps the log lines of every operation at its newest ones; numbering goes on', () => {
    const { db, store } = journal([
      { id: 'chatty', created: 1, lines: 10 },
      { id: 'quiet', created: 1, lines: 2 },
    ]);
    const removed = new OperationsRetention(db, policy({ maxLogLinesPerOperation: 3 })).pruneBatch(NOW);
    assert.deepEqual(removed, { operations: 0, logLines: 7, idempotencyKeys: 0, auditEvents: 0, more: false });
    assert.deepEqual(
      store.logLines('chatty').map((l) => l.message),
      ['line 8', 'line 9', 'line 10'],
    );
    assert.equal(store.logLines('quiet').length, 2);
    assert.equal(store.appendLog('chatty', { at: NOW.toISOString(), level: 'info', message: 'later' }).seq, 11);
  });

  it('works in bounded batches; a scheduled pass stops at its bound and the next goes on', async () => {
    const seeds: Seed[] = [1, 2, 3, 4, 5].map((n) => ({
      id: `op-${n}`,
      target: 'cluster/us-west-2/demo',
      created: 100 - n,
    }));
    const { db, store } = journal([...seeds, { id: 'newest', target: 'cluster/us-west-2/demo', created: 1 }]);
    const retention = new OperationsRetention(db, policy({ maxAgeDays: 30 }), 2);
    assert.deepEqual(retention.pruneBatch(NOW), {
      operations: 2,
      logLines: 2,
      idempotencyKeys: 0,
      auditEvents: 0,
      more: true,
    });
    assert.deepEqual(ids(store), ['newest', 'op-3', 'op-4', 'op-5'], 'the oldest went first');

    const logged: string[] = [];
    const schedule = new RetentionSchedule({
      retention,
      maxBatchesPerPass: 1,
      now: () => NOW,
      logger: { info: (_o, msg) => logged.push(msg), warn: (_o, msg) => logged.push(msg) },
    });
    assert.deepEqual(await schedule.runPass(), {
      operations: 2,
      logLines: 2,
      idempotencyKeys: 0,
      auditEvents: 0,
      more: true,
    });
    assert.deepEqual(await schedule.runPass(), {
      operations: 1,
      logLines: 1,
      idempotencyKeys: 0,
      auditEvents: 0,
      more: false,
    });
    assert.deepEqual(ids(store), ['newest']);
    assert.equal(logged.length, 2, 'each pass that removed something says so');
    await schedule.stop();
    assert.deepEqual(
      await schedule.runPass(),
      { operations: 0, logLines: 0, idempotencyKeys: 0, auditEvents: 0, more: false },
      'nothing runs after stop',
    );
  });

  it('a failed pass is reported, not thrown, and the next pass tries again', async () => {
    const { db } = journal([{ id: 'a', created: 1 }]);
    const retention = new OperationsRetention(db);
    const warnings: string[] = [];
    const schedule = new RetentionSchedule({
      retention,
      now: () => NOW,
      logger: { info() {}, warn: (_o, msg) => warnings.push(msg) },
    });
    db.close();
    assert.deepEqual(await schedule.runPass(), {
      operations: 0,
      logLines: 0,
      idempotencyKeys: 0,
      auditEvents: 0,
      more: false,
    });
    assert.match(warnings[0] ?? '', /could not prune/);
  });

  it('forgets idempotency keys older than the limit, and beyond the newest maxOperations', () => {
    const { db } = journal([]);
    const keys = new IdempotencyStore(db);
    for (const [key, days] of [
      ['old', 45],
      ['recent-1', 3],
      ['recent-2', 2],
      ['recent-3', 1],
    ] as const) {
      new IdempotencyStore(db, () => new Date(daysAgo(days))).begin({
        key,
        fingerprint: 'f',
        request: 'POST /api/v1/clusters',
      });
    }
    keys.answer('recent-1', 202, '{}', 'op-1');
    const removed = new OperationsRetention(db, policy({ maxAgeDays: 30, maxOperations: 2 })).pruneBatch(NOW);
    assert.equal(removed.idempotencyKeys, 2);
    assert.equal(keys.find('old'), undefined, 'a key older than maxAgeDays is forgotten');
    assert.equal(keys.find('recent-1'), undefined, 'beyond the newest two');
    assert.deepEqual([keys.find('recent-2')?.key, keys.find('recent-3')?.key], ['recent-2', 'recent-3']);
  });

  it('refuses a policy that makes no sense', () => {
    assert.throws(() => checkRetentionPolicy(policy({ maxAgeDays: 0 })), /greater than 0/);
    assert.throws(() => checkRetentionPolicy(policy({ maxOperations: 0.5 })), /whole number/);
    assert.throws(
      () => new OperationsRetention(openMemoryDatabase(), policy({ maxLogLinesPerOperation: Number.NaN })),
      /whole number/,
    );
  });
});
