/**
 * The JSON Schemas a `tools/list` answer sends: shorter forms of the tools' zod schemas. An agent reads the
 * whole list in every conversation (67 tools cost ≈ 105k tokens with the full schemas), so the list says what
 * an agent needs to call a tool right and leaves the rest to the server, which validates every call with the
 * full zod schema (tool-set.ts → call, and the REST API behind it). Budget and figures: docs/MCP.md → Tool list
 * size; test/mcp/tool-list-budget.test.ts keeps the list under it.
 *
 * - Input: the tool's fields and their fields (an object deeper down is `{type: object}`): the tool's fields with
 *   type, `required`, `enum`/`const`, `default`, `format` and numeric bounds, their fields with type and `enum`/`const`; each top-level field's description, its first
 *   sentence (the fields most tools share, {@link SHARED_FIELDS}, none: the server instructions say them once). Left out: nested fields'
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

/** What a field's own fields keep (their defaults and bounds are the server's to apply and check). */
const NESTED_KEYS = new Set(['type', 'enum', 'const']);

/** How deep fields are listed: a tool's fields (1) and their fields (2); deeper objects are `{type: object}`. */
const FIELD_DEPTH = 2;

/**
 * Fields most tools share, listed without a description: what each means is said once, in the server instructions
 * (server.ts builds that line from this map), not 60 times over in `tools/list`. A tool that creates one (create_cluster,
 * add_instance_group, submit_training_job, deploy_*) names the new one in the same field.
 */
export const SHARED_FIELDS: ReadonlyMap<string, string> = new Map([
  ['cluster', "a HyperPod cluster's name (list_clusters)"],
  ['group', "an instance group's name (list_instance_groups)"],
  ['job', "a training job's name (list_jobs)"],
  ['endpoint', "an inference endpoint's name (list_endpoints)"],
  ['operationId', "an operation's id (a mutating tool's answer, list_operations)"],
  ['namespace', 'the Kubernetes namespace of the job, endpoint or storage (and of what they mount)'],
  ['region', "the AWS Region (default: the server's)"],
  ['idempotencyKey', "a mutating tool's retry key: a repeat with it answers the first call"],
]);

/**
 * The listed form of a tool's input schema; `describeFields: false` for a tool that takes another's arguments word for
 * word (their descriptions are listed once, on that tool).
 */
export function listedInputSchema(schema: JsonSchema, { describeFields = true } = {}): JsonSchema {
  return inputNode(schema, 0, undefined, false, describeFields);
}

/** One schema whose fields are at `depth` + 1 (`depth` 0 is the tool's arguments). */
function inputNode(schema: JsonSchema, depth: number, name?: string, isItems = false, describe = true): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties') {
      if (depth < FIELD_DEPTH)
        out.properties = mapEntries(value as Record<string, JsonSchema>, (field, child) =>
          inputNode(child, depth + 1, field, false, describe),
        );
    } else if (key === 'items' && isSchema(value)) {
      // An array's items, a record's values and a union's variants are the same field (described once, on it).
      out.items = inputNode(value, depth, name, true, describe);
    } else if (key === 'additionalProperties' && isSchema(value)) {
      // A record (`{key: value}`) keeps its value type; `false` is noise the server enforces anyway.
      if (Object.keys(value).length > 0) out.additionalProperties = inputNode(value, depth, undefined, false, describe);
    } else if ((key === 'anyOf' || key === 'oneOf' || key === 'allOf') && Array.isArray(value)) {
      const variants = (value as JsonSchema[]).map((variant) => inputNode(variant, depth, undefined, false, describe));
      const compact = key !== 'allOf' ? compactUnion(variants) : undefined;
      if (compact) Object.assign(out, compact);
      else out[key] = variants;
    } else if (key === 'required' && Array.isArray(value)) {
      if (value.length > 0 && depth < FIELD_DEPTH) out.required = value;
    } else if (key === 'description') {
      // Described once, on the tool's own fields; their fields, the variants and items are named and typed.
      if (
        describe &&
        depth === 1 &&
        !isItems &&
        typeof value === 'string' &&
        !(name !== undefined && SHARED_FIELDS.has(name))
      )
        out.description = firstSentence(value);
    } else if ((key === 'minimum' && value === -SAFE_INTEGER) || (key === 'maximum' && value === SAFE_INTEGER)) {
      // zod's safe-integer bounds
    } else if (INPUT_KEYS.has(key) && (depth < FIELD_DEPTH || NESTED_KEYS.has(key))) {
      out[key] = value;
    }
  }
  return out;
}

/**
 * The hints a client would not assume: MCP's defaults are readOnlyHint false, destructiveHint true, idempotentHint
 * false, openWorldHint true, and destructive/idempotent mean something only for a tool that is not read-only
 * (MCP 2025-06-18, ToolAnnotations). A client reads the same hints from the shorter object.
 */
export function listedAnnotations(hints: ToolHints): ToolHints {
  const out: ToolHints = {};
  if (hints.readOnlyHint === true) out.readOnlyHint = true;
  else {
    if (hints.destructiveHint === false) out.destructiveHint = false;
    if (hints.idempotentHint === true) out.idempotentHint = true;
  }
  if (hints.openWorldHint === false) out.openWorldHint = false;
  return out;
}

/** The four behaviour hints of a tool. */
export interface ToolHints {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/**
 * A union that says no more than a type list or an enum (`z.union([z.literal(1), z.literal(2)])` → `enum: [1, 2]`) as
 * that; other unions keep their variants.
 */
function compactUnion(variants: JsonSchema[]): JsonSchema | undefined {
  // Variants that are bare types (`boolean | object`) are one type list.
  if (variants.every((v) => typeof v.type === 'string' && Object.keys(v).length === 1))
    return { type: variants.map((v) => v.type) };
  if (!variants.every((v) => v.const !== undefined && Object.keys(v).every((k) => k === 'const' || k === 'type')))
    return undefined;
  const types = new Set(variants.map((v) => v.type ?? typeOfValue(v.const)));
  if (types.size !== 1) return undefined;
  return { type: [...types][0], enum: variants.map((v) => v.const) };
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
