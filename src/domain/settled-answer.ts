/**
 * Answers that will never change: a finished operation's view, a list assembled from one cached read.
 * Whoever builds such an object marks it; the HTTP layer then turns it into JSON once and sends that
 * text to every later caller handed the same object (src/api/answer-json.ts). A marked object is
 * frozen, deeply: code that tried to change it would throw instead of sending stale JSON.
 */
const settled = new WeakSet<object>();

/** Marks `value` as never changing again, and freezes it (deeply) so that the promise holds; returns it. */
export function settledAnswer<T extends object>(value: T): T {
  deepFreeze(value);
  settled.add(value);
  return value;
}

function deepFreeze(value: object): void {
  if (Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const inner of Object.values(value)) if (typeof inner === 'object' && inner !== null) deepFreeze(inner);
}

export function isSettledAnswer(value: unknown): value is object {
  return typeof value === 'object' && value !== null && settled.has(value);
}
