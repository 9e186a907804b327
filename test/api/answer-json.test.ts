import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { answerJson } from '../../src/api/answer-json.js';
import { settledAnswer } from '../../src/domain/settled-answer.js';

describe('answerJson', () => {
  it('sends a settled answer as the JSON it had the first time, and refuses changes to it', () => {
    const view = settledAnswer({ id: 'op-1', phases: [{ name: 'a', status: 'succeeded' }] });
    assert.equal(answerJson(view), JSON.stringify(view));
    assert.equal(answerJson(view), '{"id":"op-1","phases":[{"name":"a","status":"succeeded"}]}');
    assert.throws(() => {
      (view.phases[0] as { status: string }).status = 'failed';
    }, TypeError);
  });

  it('writes a plain answer holding a settled part exactly as JSON.stringify would', () => {
    const clusters = settledAnswer([{ name: 'a' }, { name: 'b' }]);
    const answer = { region: 'us-west-2', clusters, skipped: undefined, when: new Date(0), sym: Symbol('x') };
    assert.equal(answerJson(answer), JSON.stringify(answer));
  });

  it('leaves every other answer to Fastify', () => {
    assert.equal(answerJson({ a: 1 }), undefined);
    assert.equal(answerJson([1, 2]), undefined);
    assert.equal(answerJson('text'), undefined);
    assert.equal(answerJson(null), undefined);
  });
});
