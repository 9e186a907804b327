import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PhaseDefinition } from '../../src/engine/workflow.js';
import { newEngine, workflow, type Input, type State } from './helpers.js';

const check = (verdict?: string): PhaseDefinition<Input, State> => ({
  name: 'verify',
  title: 'Verify nothing remains',
  expectedSeconds: 1,
  deadline: { actSeconds: 60, waitSeconds: 600 },
  ...(verdict ? { verdict } : {}),
  observe: async () => 'done',
});

describe('a phase that only checks reads as its verdict, not as "already done"', () => {
  it('succeeds with the verdict as its note and log line', async () => {
    const { engine } = newEngine();
    engine.register(workflow('checked', [check('Verified: nothing tagged remains')]));
    const { operation } = engine.start('checked', { name: 'x' });
    const done = await engine.waitFor(operation.id, 3000);
    const verify = done.phases.find((p) => p.name === 'verify')!;
    assert.deepEqual([verify.status, verify.progress], ['succeeded', 'Verified: nothing tagged remains']);
    const lines = engine.events(operation.id).lines.map((l) => l.message);
    assert.ok(lines.includes('Verified: nothing tagged remains'), lines.join('\n'));
    assert.ok(!lines.some((l) => /Already in place/.test(l)), lines.join('\n'));
  });

  it('without a verdict, a phase found done is still skipped ("already in place")', async () => {
    const { engine } = newEngine();
    engine.register(workflow('plain', [check()]));
    const { operation } = engine.start('plain', { name: 'y' });
    const done = await engine.waitFor(operation.id, 3000);
    assert.equal(done.phases[0]!.status, 'skipped');
  });
});
