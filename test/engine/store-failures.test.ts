import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StoreUnavailableError } from '../../src/domain/errors.js';
import type { EngineLogger } from '../../src/engine/engine.js';
import { openDatabase } from '../../src/store/database.js';
import { FakeResource, newEngine, phaseReaches, tempDataDir, viewWhere, workflow } from './helpers.js';

/** A logger that keeps what it was told, to count lines. */
function recordingLogger() {
  const lines: Array<{ level: string; msg: string }> = [];
  const logger: EngineLogger = {
    info: (_o, msg = '') => void lines.push({ level: 'info', msg }),
    warn: (_o, msg = '') => void lines.push({ level: 'warn', msg }),
    error: (_o, msg = '') => void lines.push({ level: 'error', msg }),
  };
  return { logger, lines };
}

const PROBE = { minIntervalMs: 5, maxIntervalMs: 20 };

describe('a store that cannot be written pauses operations and resumes them by observing', () => {
  it('SQLITE_FULL while a phase awaits: paused (visible, logged once), not failed; resumes and succeeds once the disk has room, acting once', async () => {
    const { dir, cleanup } = tempDataDir();
    const db = openDatabase(dir);
    const { logger, lines } = recordingLogger();
    const { engine } = newEngine(db, { logger, storeProbe: PROBE });
    try {
      const res = new FakeResource();
      // Every poll journals a long progress line, so a full disk is hit while awaiting.
      engine.register(
        workflow('make', [
          res.phase('build', {
            await: async (ctx) => {
              res.awaitCalls++;
              ctx.log(`poll ${'x'.repeat(3000)}`);
              return { done: res.ready };
            },
          }),
        ]),
      );
      const { operation } = engine.start('make', { name: 'a' });
      await phaseReaches(engine, operation.id, 'build', 'awaiting');

      // "The disk is full": this connection may not grow the file by a single page.
      db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
      const paused = await viewWhere(engine, operation.id, (v) => v.paused !== undefined);
      assert.equal(paused.status, 'running', 'not failed, not finished: paused');
      assert.equal(paused.paused!.code, 'SQLITE_FULL');
      assert.ok(paused.paused!.reason.includes(dir), `the reason names the data directory: ${paused.paused!.reason}`);
      assert.match(paused.paused!.reason, /disk is full.*Free space.*resumes by itself/);

      await new Promise((r) => setTimeout(r, 150)); // many probes (and relaunches that fail again) later…
      assert.equal(engine.get(operation.id).status, 'running');
      assert.equal(
        lines.filter((l) => l.level === 'error').length,
        1,
        `said once, not in a loop: ${JSON.stringify(lines)}`,
      );
      assert.ok(lines.filter((l) => /can be written again/.test(l.msg)).length <= 1);
      assert.equal(res.actCalls, 1);

      db.pragma('max_page_count = 1073741823'); // space freed
      res.ready = true;
      const done = await engine.waitFor(operation.id, 5000);
      assert.equal(done.status, 'succeeded', JSON.stringify(done));
      assert.equal(done.paused, undefined);
      assert.equal(res.actCalls, 1, 'the mutation was not repeated: the resumed phase began by observing');
      assert.deepEqual(
        done.phases.map((p) => [p.status, p.attempts]),
        [['succeeded', 1]],
      );
      const messages = engine.events(operation.id, 0, 1000).lines.map((l) => l.message);
      assert.ok(
        messages.some((m) => /Resumed: the journal could not be written for \d+s \(SQLITE_FULL\)/.test(m)),
        'the journal tells the pause afterwards',
      );
      assert.equal(lines.filter((l) => l.level === 'error').length, 1);
    } finally {
      await engine.stop();
      db.close();
      cleanup();
    }
  });

  it('a failure that cannot be journaled pauses instead of leaving a zombie; the failure is journaled on resume', async () => {
    const { dir, cleanup } = tempDataDir();
    const db = openDatabase(dir);
    const { engine, store } = newEngine(db, { storeProbe: PROBE });
    let full = false;
    const original = store.transaction.bind(store);
    // The write that records the failure is the one that fails (as when failOperation hit SQLITE_FULL).
    const diskFull = () =>
      new StoreUnavailableError({
        message: 'InstantStart cannot write its journal: the disk is full (SQLITE_FULL).',
        code: 'SQLITE_FULL',
        file: dir,
        remedy: 'Free space.',
      });
    store.transaction = <T>(fn: () => T): T => {
      if (full) throw diskFull();
      return original(fn);
    };
    const probe = store.probeWrite.bind(store);
    store.probeWrite = () => {
      if (full) throw diskFull();
      probe();
    };
    try {
      const res = new FakeResource();
      engine.register(
        workflow('make', [
          res.phase('build', {
            act: async () => {
              res.actCalls++;
              if (res.actCalls === 1) full = true; // the disk fills just as the act fails
              throw new Error('quota exceeded');
            },
          }),
        ]),
      );
      const { operation } = engine.start('make', { name: 'a' });
      const paused = await viewWhere(engine, operation.id, (v) => v.paused !== undefined);
      assert.equal(paused.status, 'running');
      assert.equal(paused.phases[0]!.status, 'acting', 'the journal still shows the phase in flight');

      full = false;
      const done = await engine.waitFor(operation.id, 5000);
      assert.equal(done.status, 'failed');
      assert.equal(
        done.error?.message,
        'quota exceeded',
        'observe found nothing made; the act ran again and its failure was journaled',
      );
      assert.equal(res.actCalls, 2);
    } finally {
      await engine.stop();
      db.close();
      cleanup();
    }
  });

  it('refuses to start an operation it cannot journal, with StoreUnavailableError naming the file', async () => {
    const { engine, db } = newEngine();
    engine.register(workflow('make', [new FakeResource().phase('build')]));
    db.pragma('query_only = 1'); // as a read-only data directory answers
    assert.throws(
      () => engine.start('make', { name: 'a' }),
      (err: Error) =>
        err instanceof StoreUnavailableError &&
        err.code === 'SQLITE_READONLY' &&
        /cannot be written/.test(err.message) &&
        /writable/.test(err.remedy),
    );
    db.pragma('query_only = 0');
    assert.equal(engine.list().length, 0, 'nothing half-made');
  });
});
