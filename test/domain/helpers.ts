import assert from 'node:assert/strict';
import { InputError } from '../../src/domain/errors.js';

/**
 * An `assert.throws` validator: an InputError on `path` whose message matches `pattern` — exactly
 * what a person reading the 400 would see.
 */
export function inputErrorOn(path: string, pattern: RegExp) {
  return (e: unknown): true => {
    assert.ok(e instanceof InputError, `expected InputError, got ${String(e)}`);
    assert.equal(e.problems[0]?.path, path);
    assert.match(e.message, pattern);
    return true;
  };
}
