import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DATABASE_FILE, openDatabase, openMemoryDatabase, SCHEMA_VERSION } from '../../src/store/database.js';
import { OperationsStore, type NewOperation } from '../../src/store/operations-store.js';
import { SettingsStore } from '../../src/store/settings-store.js';
import { tempDataDir } from '../engine/helpers.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const at = (s: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, s)).toISOString();
const op = (id: string, extra: Partial<NewOperation> = {}): NewOperation => ({
  id,
  kind: 'create-cluster',
  target: 'cluster/us-west-2/demo',
  status: 'pending',
  input: { name: 'demo', nested: { a: [1, 2] } },
  state: {},
  createdAt: at(0),
  ...extra,
});
const PHASES = [
  { name: 'network', title: 'Network', expectedSeconds: 120 },
  { name: 'cluster', title: 'EKS cluster', expectedSeconds: 600 },
];

describe('operations store', () => {
  it('creates an operation with every phase pending and round-trips JSON', () => {
    const store = new OperationsStore(openMemoryDatabase());
    const created = store.createOperation(op('op-1', { idempotencyKey: 'k' }), PHASES);
    assert.deepEqual(created.input, { name: 'demo', nested: { a: [1, 2] } });
    assert.equal(created.idempotencyKey, 'k');
    assert.deepEqual(
      store.listPhases('op-1').map((p) => [p.index, p.name, p.status, p.attempts, p.acted]),
      [
        [0, 'network', 'pending', 0, false],
        [1, 'cluster', 'pending', 0, false],
      ],
    );
    assert.equal(store.findByIdempotencyKey('k')?.id, 'op-1');
    assert.throws(() => store.createOperation(op('op-2', { idempotencyKey: 'k' }), PHASES), /UNIQUE/);
    assert.equal(store.getOperation('op-2'), undefined, 'a refused insert leaves no phases or row behind');
    assert.equal(store.listPhases('op-2').length, 0);
  });

  it('updates and clears fields, stamping updatedAt', () => {
    const store = new OperationsStore(openMemoryDatabase());
    store.createOperation(op('op-1'), PHASES);
    const failed = store.updateOperation(
      'op-1',
      { status: 'failed', error: { phase: 'network', code: 'X', message: 'm' }, finishedAt: at(5) },
      at(5),
    );
    assert.deepEqual(
      [failed.status, failed.error?.code, failed.updatedAt, failed.finishedAt],
      ['failed', 'X', at(5), at(5)],
    );
    const cleared = store.updateOperation('op-1', { status: 'running', error: null, finishedAt: null }, at(6));
    assert.deepEqual([cleared.error, cleared.finishedAt], [undefined, undefined]);
    const phase = store.updatePhase('op-1', 'network', {
      status: 'acting',
      acted: true,
      attempts: 1,
      startedAt: at(1),
      progress: 'x',
    });
    assert.deepEqual([phase.status, phase.acted, phase.attempts, phase.progress], ['acting', true, 1, 'x']);
    assert.throws(() => store.updatePhase('op-1', 'nope', { status: 'acting' }), /not in the journal/);
  });

  it('finds the newest operation of given kinds on each target in one query', () => {
    const store = new OperationsStore(openMemoryDatabase());
    store.createOperation(op('create-a', { createdAt: at(1), target: 'cluster/us-west-2/a' }), PHASES);
    store.createOperation(
      op('delete-a', { createdAt: at(2), target: 'cluster/us-west-2/a', kind: 'delete-cluster' }),
      PHASES,
    );
    store.createOperation(
      op('group-a', { createdAt: at(3), target: 'cluster/us-west-2/a', kind: 'add-instance-group' }),
      PHASES,
    );
    store.createOperation(op('create-b', { createdAt: at(1), target: 'cluster/us-west-2/b' }), PHASES);
    store.createOperation(op('create-b2', { createdAt: at(1), target: 'cluster/us-west-2/b' }), PHASES); // same instant: the later insert is newer
    assert.deepEqual(
      store
        .latestPerTarget(['create-cluster', 'delete-cluster'])
        .map((o) => o.id)
        .sort(),
      ['create-b2', 'delete-a'],
    );
    assert.deepEqual(
      store
        .latestPerTarget(['create-cluster'])
        .map((o) => o.id)
        .sort(),
      ['create-a', 'create-b2'],
    );
    assert.deepEqual(store.latestPerTarget([]), []);
  });

  it('lists newest first with filters, and the active operations of a target', () => {
    const store = new OperationsStore(openMemoryDatabase());
    store.createOperation(op('op-1', { createdAt: at(1) }), PHASES);
    store.createOperation(op('op-2', { createdAt: at(2), kind: 'delete-cluster' }), PHASES);
    store.createOperation(op('op-3', { createdAt: at(3), target: 'cluster/us-west-2/other' }), PHASES);
    store.updateOperation('op-1', { status: 'succeeded' }, at(4));
    assert.deepEqual(
      store.listOperations().map((o) => o.id),
      ['op-3', 'op-2', 'op-1'],
    );
    assert.deepEqual(
      store.listOperations({ kind: 'create-cluster' }).map((o) => o.id),
      ['op-3', 'op-1'],
    );
    assert.deepEqual(
      store.listOperations({ status: 'succeeded' }).map((o) => o.id),
      ['op-1'],
    );
    assert.deepEqual(
      store.listOperations({ limit: 1 }).map((o) => o.id),
      ['op-3'],
    );
    assert.deepEqual(
      store.listActive('cluster/us-west-2/demo').map((o) => o.id),
      ['op-2'],
    );
    assert.deepEqual(
      store.listActive().map((o) => o.id),
      ['op-2', 'op-3'],
    );
  });

  it('reads operations with their phases in one statement, prepared once', () => {
    const db = openMemoryDatabase();
    const store = new OperationsStore(db);
    store.createOperation(op('op-1', { createdAt: at(1) }), PHASES);
    store.createOperation(op('op-2', { createdAt: at(2), target: 'cluster/us-west-2/other' }), PHASES);
    store.createOperation(op('op-3', { createdAt: at(3), kind: 'noop' }), []);
    store.updatePhase('op-1', 'network', {
      status: 'failed',
      attempts: 2,
      acted: true,
      error: { phase: 'network', code: 'X', message: 'm' },
      progress: 'half',
    });
    store.updateOperation('op-1', { status: 'failed' }, at(4));
    const separately = (o: { id: string }) => ({ operation: store.getOperation(o.id), phases: store.listPhases(o.id) });

    assert.deepEqual(store.readOperation('op-1'), separately({ id: 'op-1' }));
    assert.deepEqual(store.readOperation('op-3')?.phases, [], 'an operation without phases');
    assert.equal(store.readOperation('nope'), undefined);
    assert.deepEqual(store.readOperations(), store.listOperations().map(separately));
    assert.deepEqual(
      store.readOperations({ status: 'failed' }).map((e) => e.operation.id),
      ['op-1'],
    );
    assert.deepEqual(store.readActive(), store.listActive().map(separately));
    assert.deepEqual(
      store.readActive('cluster/us-west-2/other').map((e) => e.operation.id),
      ['op-2'],
    );
    assert.deepEqual(
      store.readLatestPerTarget(['create-cluster']),
      store.latestPerTarget(['create-cluster']).map(separately),
    );

    const work = () => {
      store.readOperation('op-1');
      store.readOperations({ status: 'failed' });
      store.updatePhase('op-2', 'network', { status: 'acting' });
      store.updateOperation('op-2', { status: 'running' }, at(5));
      store.appendLog('op-2', { at: at(5), level: 'info', message: 'x' });
      store.logLines('op-2');
    };
    work();
    // From now on every call reuses a statement prepared before.
    const prepare = db.prepare.bind(db);
    let prepared = 0;
    db.prepare = ((sql: string) => (prepared++, prepare(sql))) as typeof db.prepare;
    for (let i = 0; i < 3; i++) work();
    assert.equal(prepared, 0);
  });

  it('numbers log lines per operation and pages them after a seq', () => {
    const store = new OperationsStore(openMemoryDatabase());
    store.createOperation(op('op-1'), PHASES);
    store.createOperation(op('op-2'), PHASES);
    for (let i = 1; i <= 5; i++)
      store.appendLog('op-1', { at: at(i), phase: 'network', level: 'info', message: `line ${i}` });
    const other = store.appendLog('op-2', { at: at(9), level: 'warn', message: 'elsewhere' });
    assert.equal(other.seq, 1, 'each operation counts from 1');
    assert.deepEqual(
      store.logLines('op-1', 2, 2).map((l) => [l.seq, l.message]),
      [
        [3, 'line 3'],
        [4, 'line 4'],
      ],
    );
    assert.deepEqual(store.logLines('op-2'), [{ seq: 1, at: at(9), level: 'warn', message: 'elsewhere' }]);
  });

  it('keeps operations, phases, log lines and settings on disk across reopening', () => {
    const { dir, cleanup } = tempDataDir();
    try {
      const db = openDatabase(dir);
      assert.ok(existsSync(join(dir, DATABASE_FILE)));
      assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
      const store = new OperationsStore(db);
      store.createOperation(op('op-1'), PHASES);
      store.updatePhase('op-1', 'network', { status: 'awaiting', acted: true });
      store.appendLog('op-1', { at: at(1), level: 'info', message: 'hello' });
      new SettingsStore(db).setSetting('activeCluster', { name: 'demo', region: 'us-west-2' });
      db.close();

      const reopened = openDatabase(dir);
      assert.equal(reopened.pragma('user_version', { simple: true }), SCHEMA_VERSION, 'migrations ran once');
      const again = new OperationsStore(reopened);
      assert.equal(again.getPhase('op-1', 'network')?.status, 'awaiting');
      assert.deepEqual(
        again.logLines('op-1').map((l) => l.message),
        ['hello'],
      );
      assert.equal(again.appendLog('op-1', { at: at(2), level: 'info', message: 'next' }).seq, 2);
      assert.deepEqual(new SettingsStore(reopened).getSetting('activeCluster'), { name: 'demo', region: 'us-west-2' });
      reopened.close();
    } finally {
      cleanup();
    }
  });

  it('records where an operation acts, and reads journals from before that as unknown', () => {
    const { dir, cleanup } = tempDataDir();
    try {
      // A journal as the first schema left it: no cloud, account or Region columns, one operation.
      const old = openDatabase(dir);
      for (const column of ['cloud', 'account_id', 'region']) old.exec(`ALTER TABLE operations DROP COLUMN ${column}`);
      // Nor the tables later schemas added (training templates, each cluster's MLflow link, idempotency keys).
      old.exec(
        'DROP TABLE training_templates; DROP TABLE cluster_mlflow; DROP TABLE idempotency_keys; DROP TABLE kept_storages;',
      );
      // Nor the phases' deadline clocks (issue 27).
      for (const column of ['act_started_at', 'wait_started_at']) old.exec(`ALTER TABLE phases DROP COLUMN ${column}`);
      // Nor the audit timeline (issue 30).
      old.exec('DROP TABLE audit_events; DROP TABLE audit_calls;');
      old.pragma('user_version = 1');
      old
        .prepare(
          `INSERT INTO operations (id, kind, target, status, input, state, created_at, updated_at) VALUES ('op-old', 'k', 't', 'running', '{}', '{}', ?, ?)`,
        )
        .run(at(0), at(0));
      old.close();

      const store = new OperationsStore(openDatabase(dir));
      const legacy = store.getOperation('op-old')!;
      assert.deepEqual(
        [legacy.cloud, legacy.accountId, legacy.region],
        [undefined, undefined, undefined],
        'unknown, not guessed',
      );
      const placed = store.createOperation(
        op('op-new', { cloud: 'aws', accountId: '123456789012', region: 'eu-west-1' }),
        PHASES,
      );
      assert.deepEqual([placed.cloud, placed.accountId, placed.region], ['aws', '123456789012', 'eu-west-1']);
      store.db.close();
    } finally {
      cleanup();
    }
  });

  it('refuses a database written by a newer schema', () => {
    const { dir, cleanup } = tempDataDir();
    try {
      const db = openDatabase(dir);
      db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
      db.close();
      assert.throws(() => openDatabase(dir), /newer InstantStart/);
    } finally {
      cleanup();
    }
  });
});

describe('settings store', () => {
  it('stores JSON values by key, overwrites, and deletes', () => {
    const settings = new SettingsStore(openMemoryDatabase());
    assert.equal(settings.getSetting('activeCluster'), undefined);
    settings.setSetting('activeCluster', { name: 'a', region: 'us-west-2' });
    settings.setSetting('activeCluster', { name: 'b', region: 'us-east-1' });
    assert.deepEqual(settings.getSetting('activeCluster'), { name: 'b', region: 'us-east-1' });
    settings.setSetting('count', 3);
    assert.equal(settings.getSetting<number>('count'), 3);
    settings.setSetting('activeCluster', undefined);
    assert.equal(settings.getSetting('activeCluster'), undefined);
    assert.equal(settings.deleteSetting('count'), true);
    assert.equal(settings.deleteSetting('count'), false);
  });
});
