import { deref, isPlainObject, setField, type Resolver, type Schema } from './walk.js';

/**
 * Structural defaulting, as the API server applies the `default`s of a CRD's schema: a field that
 * is absent (or null where the schema does not allow null) takes its default, and defaults apply
 * inside defaulted values, array items and map values too. Returns a new value.
 */
export function applyDefaults(value: unknown, raw: Schema, resolve: Resolver): unknown {
  const s = deref(raw, resolve);
  if (Array.isArray(value))
    return isPlainObject(s.items) ? value.map((item) => applyDefaults(item, s.items, resolve)) : value;
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = { ...value };
  const properties = (isPlainObject(s.properties) ? s.properties : {}) as Record<string, Schema>;
  for (const [key, sub] of Object.entries(properties)) {
    const field = deref(sub, resolve);
    const missing = out[key] === undefined || (out[key] === null && !field.nullable);
    if (missing && field.default !== undefined) out[key] = structuredClone(field.default);
    if (out[key] !== undefined) out[key] = applyDefaults(out[key], sub, resolve);
  }
  if (isPlainObject(s.additionalProperties)) {
    for (const key of Object.keys(out))
      if (!Object.hasOwn(properties, key)) setField(out, key, applyDefaults(out[key], s.additionalProperties, resolve));
  }
  return out;
}
