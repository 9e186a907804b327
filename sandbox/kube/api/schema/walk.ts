/**
 * What the schema validator and the pruner share: the schema shape (the OpenAPI v3 subset
 * Kubernetes uses, `x-kubernetes-*` extensions included), reference resolution, and field paths
 * written the way the API server writes them (`spec.containers[0].image`, `spec.selector.matchLabels.app`).
 */

// Schemas are JSON documents of many optional keywords; a loose record keeps the walkers readable.
export type Schema = Record<string, any>;

/** Where OpenAPI v3 documents keep their schemas; /openapi/v2 rewrites it to `#/definitions/`. */
export const REF = '#/components/schemas/';

/** Turns a `$ref` into the schema it names (undefined when the document has no such schema). */
export type Resolver = (ref: string) => Schema | undefined;

/** Resolves nothing: custom resource schemas have no references. */
export const noRefs: Resolver = () => undefined;

/**
 * The schema itself, its `$ref` target, or the single schema of an `allOf` wrapper (how the API
 * documents a referenced field: `{allOf: [{$ref}], description}`), with the wrapper's own keywords kept.
 */
export function deref(schema: Schema, resolve: Resolver): Schema {
  let s = schema;
  for (let depth = 0; depth < 32; depth++) {
    if (typeof s.$ref === 'string') {
      const target = resolve(s.$ref);
      if (!target) return {};
      s = target;
    } else if (Array.isArray(s.allOf) && s.allOf.length === 1 && s.type === undefined && s.properties === undefined) {
      const { allOf, ...own } = s;
      s = { ...own, ...(allOf[0] as Schema) };
    } else {
      return s;
    }
  }
  return s;
}

export const joinPath = (path: string, key: string | number): string =>
  typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key;

/** The JSON type of a value as OpenAPI names it (`integer` for whole numbers). */
export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

export const isPlainObject = (value: unknown): value is Record<string, any> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The schema of field `key` among `properties`. Objects' keys come from the request, and a key such
 * as `constructor` must not find Object.prototype's member and pass for a known field.
 */
export const fieldOf = (properties: unknown, key: string): Schema | undefined =>
  isPlainObject(properties) && Object.hasOwn(properties, key) ? (properties[key] as Schema) : undefined;

/** Sets `key` on `out` as plain data (a `__proto__` key too, which assignment would turn into a prototype). */
export function setField(out: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true });
}

/** How the API server prints a value inside `Invalid value: …` (strings quoted, numbers bare, the rest as JSON). */
export function shown(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null || value === undefined)
    return String(value);
  return JSON.stringify(value);
}
