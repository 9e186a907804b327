import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AwaitOutcome, PhaseDefinition } from '../../src/engine/workflow.js';
import type { OperationSnapshot } from '../../src/domain/schemas/operations.js';
import { newEngine, phaseReaches, viewWhere, workflow, type Input, type State } from './helpers.js';

/**
 * A thing that failed must be deleted before it can be made again (as a failed HyperPod cluster
 * must): act deletes it, await waits until it is gone and hands back to observe, the next act
 * makes it, await waits until it is ready. Both waits are await steps.
 */
class Replaceable {
  status: 'failed' | 'deleting' | 'gone' | 'creating' | 'ready' = 'failed';
  acts: string[] = [];

  phase(): PhaseDefinition<Input, State> {
    return {
      name: 'thing',
      title: 'Thing',
      expectedSeconds: 60,
      deadline: { actSeconds: 60, waitSeconds: 600 },
      observe: async () =>
        this.status === 'ready'
          ? 'done'
          : this.status === 'failed' || this.status === 'gone'
            ? 'needs-act'
            : 'in-progress',
      act: async () => {
        this.acts.push(this.status === 'failed' ? 'delete' : 'create');
        this.status = this.status === 'failed' ? 'deleting' : 'creating';
      },
      await: async (): Promise<AwaitOutcome> => {
        if (this.status === 'deleting') return { done: false, progress: 'Deleting the failed thing' };
        if (this.status === 'gone')
          return { done: false, observeAgain: true, progress: 'The failed thing is gone; making it again' };
        return { done: this.status === 'ready', progress: `Thing ${this.status}` };
      },
    };
  }
}

const statusesOf = (views: OperationSnapshot[]) =>
  views.map((v) => v.phases[0]!.status).filter((s, i, all) => s !== all[i - 1]);

describe('an await step that hands back to observe (act, wait, act, wait in one phase)', () => {
  it('observes again after the first wait, acts once more and awaits the second change', async () => {
    const { engine } = newEngine();
    const thing = new Replaceable();
    engine.register(workflow('replace', [thing.phase()]));
    const seen: OperationSnapshot[] = [];
    engine.on('operation', (v: OperationSnapshot) => seen.push(v));

    const { operation } = engine.start('replace', { name: 'a' });
    await viewWhere(engine, operation.id, (v) => v.phases[0]!.progress === 'Deleting the failed thing');
    thing.status = 'gone';
    await viewWhere(engine, operation.id, (v) => v.phases[0]!.progress === 'Thing creating');
    thing.status = 'ready';
    const done = await engine.waitFor(operation.id, 3000);

    assert.equal(done.status, 'succeeded');
    assert.deepEqual(thing.acts, ['delete', 'create'], 'each act did one change; nothing waited inside act');
    assert.deepEqual(statusesOf(seen), [
      'pending',
      'observing',
      'acting',
      'awaiting',
      'observing',
      'acting',
      'awaiting',
      'succeeded',
    ]);
    assert.equal(done.phases[0]!.attempts, 1, 'one attempt of the phase');
  });

  it('is cancelled at once while it waits for the first change, with that wait shown', async () => {
    const { engine } = newEngine();
    const thing = new Replaceable();
    engine.register(workflow('replace', [thing.phase()]));
    const { operation } = engine.start('replace', { name: 'b' });
    const waiting = await phaseReaches(engine, operation.id, 'thing', 'awaiting');
    await viewWhere(engine, operation.id, (v) => v.phases[0]!.progress === 'Deleting the failed thing');
    assert.equal(waiting.phases[0]!.status, 'awaiting');

    engine.cancel(operation.id);
    const cancelled = await engine.waitFor(operation.id, 3000);
    assert.equal(cancelled.status, 'cancelled');
    assert.equal(cancelled.phases[0]!.status, 'cancelled');
    assert.equal(cancelled.phases[0]!.progress, 'Deleting the failed thing', 'the wait it was in stays visible');
    assert.deepEqual(thing.acts, ['delete']);
  });
});
