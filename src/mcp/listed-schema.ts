/**
 * The JSON Schemas a `tools/list` answer sends: shorter forms of the tools' zod schemas. An agent reads the
 * whole list in every conversation (67 tools cost ≈ 105k tokens with the full schemas), so the list says what
 * an agent needs to call a tool right and leaves the rest to the server, which validates every call with the
 * full zod schema (tool-set.ts → call, and the REST API behind it). Budget and figures: docs/MCP.md → Tool list
 * size; test/mcp/tool-list-budget.test.ts keeps the list under it.
 *
 * - Input: the tool's fields and their fields (an object deeper down is `{type: object}`), with type,
 *   `required`, `enum`/`const`, `default`, `format` and numeric bounds; each top-level field's description, its first
 *   sentence (a few shared fields, {@link SHARED_FIELDS}, in a few words). Left out: nested fields'
 *   descriptions, string patterns and lengths (a value that breaks one is refused naming the field),
 *   `additionalProperties: false` and the safe-integer bounds zod puts on every integer.
 * - Output: the answer's top-level properties with their JSON types; deeper objects and arrays of objects are
 *   `{type: object}` / `{type: array}`. Every answer still validates against it (MCP requires structuredContent
 *   to), because it only drops constraints; the tool's text answer carries what a model reads.
 */

type JsonSchema = Record<string, unknown>;

/** The bounds zod's JSON Schema puts on every `z.number().int()`: no information for an agent. */
const SAFE_INTEGER = Number.MAX_SAFE_INTEGER;

/** Keys of an input schema sent as they are (besides the ones handled below). */
const INPUT_KEYS = new Set([
  'type',
  'enum',
  'const',
  'default',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
]);

/** How deep fields are listed: a tool's fields (1) and their fields (2); deeper objects are `{type: object}`. */
const FIELD_DEPTH = 2;

/**
 * Fields many tools share, described once here in a few words instead of in each tool's own words (the server
 * instructions and docs/MCP.md → Names say more).
 */
const SHARED_FIELDS: ReadonlyMap<string, string> = new Map([
  ['region', "AWS Region; default: the server's."],
  ['idempotencyKey', 'Retry key: a repeat with it answers the first call (docs/MCP.md).'],
]);

/** The listed form of a tool's input schema. */
export function listedInputSchema(schema: JsonSchema): JsonSchema {
  return inputNode(schema, 0);
}

/** One schema whose fields are at `depth` + 1 (`depth` 0 is the tool's arguments). */
function inputNode(schema: JsonSchema, depth: number, name?: string): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties') {
      if (depth < FIELD_DEPTH)
        out.properties = mapEntries(value as Record<string, JsonSchema>, (field, child) =>
          inputNode(child, depth + 1, field),
        );
    } else if (key === 'items' && isSchema(value)) {
      // An array's items, a record's values and a union's variants are the same field.
      out.items = inputNode(value, depth);
    } else if (key === 'additionalProperties' && isSchema(value)) {
      // A record (`{key: value}`) keeps its value type; `false` is noise the server enforces anyway.
      if (Object.keys(value).length > 0) out.additionalProperties = inputNode(value, depth);
    } else if ((key === 'anyOf' || key === 'oneOf' || key === 'allOf') && Array.isArray(value)) {
      out[key] = (value as JsonSchema[]).map((variant) => inputNode(variant, depth));
    } else if (key === 'required' && Array.isArray(value)) {
      if (value.length > 0 && depth < FIELD_DEPTH) out.required = value;
    } else if (key === 'description') {
      // Described once, on the tool's own fields; their fields, the variants and items are named and typed.
      if (depth === 1 && typeof value === 'string')
        out.description = (name !== undefined && SHARED_FIELDS.get(name)) || firstSentence(value);
    } else if ((key === 'minimum' && value === -SAFE_INTEGER) || (key === 'maximum' && value === SAFE_INTEGER)) {
      // zod's safe-integer bounds
    } else if (INPUT_KEYS.has(key)) {
      out[key] = value;
    }
  }
  return out;
}

/** The listed form of a tool's output schema: the top-level properties and their JSON types. */
export function listedOutputSchema(schema: JsonSchema): JsonSchema {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  return { type: 'object', properties: mapValues(properties, (field) => ({ type: jsonTypes(field) })) };
}

/** The JSON type(s) a schema admits: one name, or a list for unions (`["string", "null"]`). */
function jsonTypes(schema: JsonSchema): string | string[] {
  const variants = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  const types = new Set<string>();
  if (variants) for (const variant of variants) for (const t of [jsonTypes(variant)].flat()) types.add(t);
  else if (Array.isArray(schema.type)) for (const t of schema.type as string[]) types.add(t);
  else if (typeof schema.type === 'string') types.add(schema.type);
  else if (schema.const !== undefined) types.add(typeOfValue(schema.const));
  else if (Array.isArray(schema.enum)) for (const v of schema.enum) types.add(typeOfValue(v));
  // No type at all (z.unknown()): any JSON value is allowed.
  if (types.size === 0) return ['string', 'number', 'boolean', 'object', 'array', 'null'];
  // `number` admits every integer: say it once.
  if (types.has('number')) types.delete('integer');
  const list = [...types];
  return list.length === 1 ? (list[0] as string) : list;
}

function typeOfValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'bigint' ? 'integer' : typeof value;
}

/**
 * The first sentence of a field's description: what the field is. Later sentences (examples, edge cases)
 * are in the tool's description where an agent needs them, and in docs/API.md.
 */
export function firstSentence(text: string): string {
  const end = text.search(/[.!?] (?=[A-Z(])/);
  return end < 0 ? text : text.slice(0, end + 1);
}

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function mapValues<T, U>(record: Record<string, T>, f: (value: T) => U): Record<string, U> {
  return mapEntries(record, (_key, value) => f(value));
}

function mapEntries<T, U>(record: Record<string, T>, f: (key: string, value: T) => U): Record<string, U> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, f(key, value)]));
}
