import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AwaitOutcome, PhaseDefinition } from '../../src/engine/workflow.js';
import { openDatabase, openMemoryDatabase } from '../../src/store/database.js';
import {
  deferred,
  FAST_POLLING,
  newEngine,
  phaseReaches,
  tempDataDir,
  viewWhere,
  workflow,
  type Input,
  type State,
} from './helpers.js';

/** A widget whose create is accepted and then never finishes (unless `ready`): the wait that never settles. */
class StuckWidget {
  exists = false;
  ready = false;
  acts = 0;
  phase(deadline: PhaseDefinition<Input, State>['deadline']): PhaseDefinition<Input, State> {
    return {
      name: 'widget',
      title: 'Create the widget',
      expectedSeconds: 0.1,
      deadline,
      observe: async () => (!this.exists ? 'needs-act' : this.ready ? 'done' : 'in-progress'),
      act: async () => {
        this.acts++;
        this.exists = true;
      },
      await: async (): Promise<AwaitOutcome> => ({
        done: this.ready,
        progress: this.ready ? 'Widget READY' : 'Widget CREATING (3 of 4 parts)',
      }),
    };
  }
}

/** These tests' deadlines are fractions of a second: no one-minute floor (PollingOptions.minDeadlineMs). */
const NO_FLOOR = { polling: { ...FAST_POLLING, minDeadlineMs: 0 } };

const failedWidget = (engine: ReturnType<typeof newEngine>['engine'], id: string) =>
  viewWhere(engine, id, (v) => v.status === 'failed', 10_000);

describe('phase deadlines', () => {
  it('a wait that never settles fails its phase past the wait deadline, naming what it waited for; a retry runs it again with a fresh clock', async () => {
    const { engine } = newEngine(openMemoryDatabase(), NO_FLOOR);
    const widget = new StuckWidget();
    engine.register(workflow('make', [widget.phase({ actSeconds: 5, waitSeconds: 0.4 })]));
    const { operation } = engine.start('make', { name: 'a' });

    const failed = await failedWidget(engine, operation.id);
    const phase = failed.phases[0]!;
    assert.equal(phase.status, 'failed');
    assert.equal(phase.error?.code, 'PhaseDeadlineExceeded');
    assert.match(phase.error!.message, /Create the widget: still not finished after 0\.4 s of waiting/);
    assert.match(phase.error!.message, /Last seen: Widget CREATING \(3 of 4 parts\)/, 'what it waited for');
    assert.deepEqual(failed.error, phase.error, "the operation's error is the phase's");
    assert.equal(phase.retryable, true);
    const logged = engine.events(operation.id).lines.find((l) => l.level === 'error');
    assert.equal(logged?.phase, 'widget');
    assert.match(logged!.message, /^PhaseDeadlineExceeded: .*Last seen: Widget CREATING/);
    assert.ok(phase.durationMs! >= 400, `waited its deadline (${phase.durationMs} ms)`);

    // A retry observes first (the widget exists: no second act) and waits again for a whole deadline.
    const retriedAt = Date.now();
    engine.retryPhase(operation.id, 'widget');
    const again = await viewWhere(engine, operation.id, (v) => v.status === 'failed' && v.phases[0]!.attempts === 2);
    assert.equal(again.phases[0]!.error?.code, 'PhaseDeadlineExceeded');
    assert.ok(Date.now() - retriedAt >= 380, 'the retry reset the clock: it waited a whole deadline again');
    assert.equal(widget.acts, 1, 'the retry observed first and did not act again');

    engine.retryPhase(operation.id, 'widget');
    widget.ready = true;
    const done = await engine.waitFor(operation.id, 5000);
    assert.equal(done.status, 'succeeded');
    assert.equal(done.phases[0]!.attempts, 3);
    await engine.stop();
  });

  it('an act that does not return fails its phase past the act deadline, and what it does afterwards writes nothing', async () => {
    const { engine } = newEngine(openMemoryDatabase(), NO_FLOOR);
    const hang = deferred();
    let wroteLate: unknown;
    engine.register(
      workflow('make', [
        {
          name: 'widget',
          title: 'Create the widget',
          expectedSeconds: 0.1,
          deadline: { actSeconds: 0.3, waitSeconds: 5 },
          observe: async () => 'needs-act',
          act: async (ctx) => {
            await hang.promise;
            try {
              ctx.setState({ late: 'yes' });
            } catch (err) {
              wroteLate = err;
            }
          },
        },
      ]),
    );
    const { operation } = engine.start('make', { name: 'a' });
    const failed = await failedWidget(engine, operation.id);
    assert.equal(failed.error?.code, 'PhaseDeadlineExceeded');
    assert.match(failed.error!.message, /did not return within 0\.3 s \(the act's deadline\)/);
    hang.resolve();
    await new Promise((r) => setTimeout(r, 20));
    assert.ok(wroteLate, 'the abandoned act cannot change the state');
    assert.equal(engine.get(operation.id).status, 'failed');
    await engine.stop();
  });

  it('counts from the journal: after a restart the wait fails when its deadline from the first wait passes, not a whole deadline later', async () => {
    const { dir, cleanup } = tempDataDir();
    try {
      const first = newEngine(openDatabase(dir), NO_FLOOR);
      const widget = new StuckWidget();
      const deadline = { actSeconds: 5, waitSeconds: 1.5 };
      first.engine.register(workflow('make', [widget.phase(deadline)]));
      const { operation } = first.engine.start('make', { name: 'a' });
      await phaseReaches(first.engine, operation.id, 'widget', 'awaiting');
      const waitStartedAt = first.store.getPhase(operation.id, 'widget')!.waitStartedAt!;
      assert.ok(waitStartedAt, 'the start of the wait is journaled');
      await new Promise((r) => setTimeout(r, 900));
      await first.engine.stop(); // as a crash leaves it
      first.db.close();

      const second = newEngine(openDatabase(dir), NO_FLOOR);
      second.engine.register(workflow('make', [widget.phase(deadline)]));
      const resumedAt = Date.now();
      second.engine.resume();
      const failed = await viewWhere(second.engine, operation.id, (v) => v.status === 'failed', 10_000);
      const failedAt = Date.now();
      assert.equal(failed.error?.code, 'PhaseDeadlineExceeded');
      assert.equal(failed.phases[0]!.attempts, 1, 'a resume is no new attempt');
      assert.equal(second.store.getPhase(operation.id, 'widget')!.waitStartedAt, waitStartedAt, 'the clock kept');
      assert.ok(
        Date.parse(failed.phases[0]!.finishedAt!) - Date.parse(waitStartedAt) >= 1500,
        'not before the deadline',
      );
      assert.ok(
        failedAt - resumedAt < 1300,
        `failed ${failedAt - resumedAt} ms after the restart: the deadline counted from the journaled wait, not from the restart`,
      );
      await second.engine.stop();
      second.db.close();
    } finally {
      cleanup();
    }
  });

  it('scales a wait deadline with the time scale, but never below the real-time floor', async () => {
    const { engine } = newEngine(openMemoryDatabase(), {
      polling: { ...FAST_POLLING, timeScale: 0.001, minDeadlineMs: 400 },
    });
    const widget = new StuckWidget();
    engine.register(workflow('make', [widget.phase({ actSeconds: 60, waitSeconds: 2 })])); // 2 ms of real time
    const { operation } = engine.start('make', { name: 'a' });
    const failed = await failedWidget(engine, operation.id);
    assert.equal(failed.error?.code, 'PhaseDeadlineExceeded');
    assert.ok(failed.phases[0]!.durationMs! >= 400, `not before the floor (${failed.phases[0]!.durationMs} ms)`);
    await engine.stop();
  });

  it('refuses at registration a phase without a usable deadline', () => {
    const { engine } = newEngine(openMemoryDatabase(), NO_FLOOR);
    const widget = new StuckWidget();
    const missing = { ...widget.phase({ actSeconds: 1, waitSeconds: 1 }), deadline: undefined } as never;
    assert.throws(() => engine.register(workflow('a', [missing])), /Phase 'widget' of workflow 'a' needs deadline/);
    const endless = widget.phase({ actSeconds: 60, waitSeconds: Number.POSITIVE_INFINITY });
    assert.throws(() => engine.register(workflow('b', [endless])), /finite and positive/);
    const short = { ...widget.phase({ actSeconds: 60, waitSeconds: 60 }), expectedSeconds: 600 };
    assert.throws(() => engine.register(workflow('c', [short])), /at least its expectedSeconds \(600\)/);
  });
});
