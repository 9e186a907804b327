/**
 * A deep copy of JSON data (what the sandbox stores: objects, arrays, strings, numbers, booleans, null).
 * About ten times faster than structuredClone on a pod-sized object, which matters because every
 * controller pass reads its objects through copies (sandbox/kube/objects.ts). Keys are copied as own
 * properties, `__proto__` included (a label may be called that); undefined values are kept, as
 * structuredClone keeps them.
 */
export function cloneJson<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const out = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = cloneJson(value[i]);
    return out as T;
  }
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const copy = cloneJson((value as Record<string, unknown>)[key]);
    if (key === '__proto__')
      Object.defineProperty(out, key, { value: copy, enumerable: true, writable: true, configurable: true });
    else out[key] = copy;
  }
  return out as T;
}

/**
 * Whether two JSON values say the same thing, as their JSON texts would (an undefined field is as good as an
 * absent one), without building those texts: controllers compare every object they might save on every tick.
 * Unlike the texts, key order does not count — two orders of the same fields are the same object.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bs = b as unknown[];
    if (a.length !== bs.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i] ?? null, bs[i] ?? null)) return false;
    return true;
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  let defined = 0;
  for (const key of Object.keys(ao)) {
    if (ao[key] === undefined) continue;
    defined++;
    if (!Object.hasOwn(bo, key) || !sameJson(ao[key], bo[key])) return false;
  }
  for (const key of Object.keys(bo)) if (bo[key] !== undefined) defined--;
  return defined === 0;
}
