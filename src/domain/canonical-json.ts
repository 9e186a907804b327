/**
 * One spelling per JSON value: object keys sorted at every depth, `undefined` members dropped (as
 * JSON does). Two requests mean the same thing exactly when their canonical forms are equal, e.g.
 * a repeat under the same Idempotency-Key.
 *
 * @example
 * canonicalJson({ b: 1, a: { d: [2], c: undefined } }); // → '{"a":{"d":[2]},"b":1}'
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    // fromEntries defines own members, so a key such as `__proto__` stays a key.
    return Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  });
}
