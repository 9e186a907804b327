/**
 * A recipe's parameters arrive as JSON Schema (GET recipes: zod → JSON Schema on the server). This
 * module reads that schema into form fields and turns what a person typed back into values, so no
 * recipe has a hand-written form: a new recipe, or a new parameter, shows up by itself.
 */

export type FieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'string-list' | 'json';

export interface FormFieldSpec {
  name: string;
  kind: FieldKind;
  required: boolean;
  description?: string;
  /** What the field starts with, as the input shows it (lists: one item per line). */
  initial: string | boolean;
  options?: string[];
  constraint?: string;
}

type JsonSchema = Record<string, unknown>;

const isObject = (v: unknown): v is JsonSchema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The part of the schema that states the type (optional fields may come as anyOf [T, null]). */
function effective(s: JsonSchema): JsonSchema {
  const anyOf = s.anyOf;
  if (Array.isArray(anyOf)) {
    const first = anyOf.find((x) => isObject(x) && x.type !== 'null');
    if (isObject(first)) return { ...first, ...s, anyOf: undefined, type: first.type };
  }
  return s;
}

function kindOf(s: JsonSchema): FieldKind {
  if (Array.isArray(s.enum) && s.enum.every((v) => typeof v === 'string')) return 'enum';
  if (s.type === 'array' && isObject(s.items) && s.items.type === 'string') return 'string-list';
  if (s.type === 'string' || s.type === 'number' || s.type === 'integer' || s.type === 'boolean') return s.type;
  return 'json';
}

/** A bound a person reads: zod's `.int()` writes ±Number.MAX_SAFE_INTEGER (9007199254740991), which bounds nothing. */
function bound(n: unknown): number | undefined {
  return typeof n === 'number' && Math.abs(n) < Number.MAX_SAFE_INTEGER ? n : undefined;
}

function constraintOf(s: JsonSchema, required: boolean): string | undefined {
  const parts: string[] = [];
  const min = bound(s.minimum);
  const max = bound(s.maximum);
  if (min !== undefined && max !== undefined) parts.push(`${min} to ${max}`);
  else if (min !== undefined) parts.push(`at least ${min}`);
  else if (max !== undefined) parts.push(`at most ${max}`);
  else if (typeof s.exclusiveMinimum === 'number') parts.push(`more than ${s.exclusiveMinimum}`);
  if (s.default !== undefined && !Array.isArray(s.default)) parts.push(`Default: ${String(s.default)}`);
  if (kindOf(s) === 'string-list') parts.push('One per line');
  if (!required && s.default === undefined) parts.push('Optional');
  return parts.length ? parts.join(' · ') : undefined;
}

function initialOf(s: JsonSchema, kind: FieldKind): string | boolean {
  const d = s.default;
  if (kind === 'boolean') return d === true;
  if (d === undefined || d === null) return '';
  if (kind === 'string-list' && Array.isArray(d)) return d.join('\n');
  if (kind === 'json') return JSON.stringify(d);
  return String(d);
}

/** The fields of an object schema, in the schema's order. */
export function fieldsOf(schema: JsonSchema): FormFieldSpec[] {
  const props = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(
    Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [],
  );
  return Object.entries(props)
    .filter((e): e is [string, JsonSchema] => isObject(e[1]))
    .map(([name, raw]) => {
      const s = effective(raw);
      const kind = kindOf(s);
      const req = required.has(name) && s.default === undefined;
      return {
        name,
        kind,
        required: req,
        description: typeof s.description === 'string' ? s.description : undefined,
        initial: initialOf(s, kind),
        options: kind === 'enum' ? (s.enum as string[]) : undefined,
        constraint: constraintOf(s, req),
      };
    });
}

export type FormValues = ReadonlyMap<string, string | boolean>;

export const initialValues = (fields: readonly FormFieldSpec[]): Map<string, string | boolean> =>
  new Map(fields.map((f) => [f.name, f.initial]));

/**
 * The params object from the form: empty optional fields are left out (the server fills defaults),
 * numbers parsed, lists split by line. Problems a person can fix before sending are returned by field.
 */
export function paramsOf(
  fields: readonly FormFieldSpec[],
  values: FormValues,
): { params: Record<string, unknown>; problems: Map<string, string> } {
  // Entries first, then one object: names come from the server's schema, never assigned into an object one by one.
  const entries: Array<[string, unknown]> = [];
  const problems = new Map<string, string>();
  for (const f of fields) {
    const v = values.get(f.name) ?? f.initial;
    if (f.kind === 'boolean') {
      entries.push([f.name, v === true]);
      continue;
    }
    const text = String(v).trim();
    if (text === '') {
      if (f.required) problems.set(f.name, 'is required');
      continue;
    }
    if (f.kind === 'number' || f.kind === 'integer') {
      const n = Number(text);
      if (!Number.isFinite(n) || (f.kind === 'integer' && !Number.isInteger(n)))
        problems.set(f.name, f.kind === 'integer' ? 'must be a whole number' : 'must be a number');
      else entries.push([f.name, n]);
    } else if (f.kind === 'string-list') {
      entries.push([
        f.name,
        text
          .split('\n')
          .map((x) => x.trim())
          .filter(Boolean),
      ]);
    } else if (f.kind === 'json') {
      try {
        entries.push([f.name, JSON.parse(text) as unknown]);
      } catch {
        problems.set(f.name, 'must be JSON');
      }
    } else entries.push([f.name, text]);
  }
  return { params: Object.fromEntries(entries), problems };
}

/** A template's saved params back into form values (what the server stored, shown as typed). */
export function valuesFromParams(
  fields: readonly FormFieldSpec[],
  params: Record<string, unknown> | undefined,
): Map<string, string | boolean> {
  const values = initialValues(fields);
  if (!params) return values;
  for (const f of fields) {
    if (!Object.hasOwn(params, f.name)) continue;
    const v = params[f.name];
    if (f.kind === 'boolean') values.set(f.name, v === true);
    else if (f.kind === 'string-list' && Array.isArray(v)) values.set(f.name, v.map(String).join('\n'));
    else if (f.kind === 'json') values.set(f.name, JSON.stringify(v));
    else if (v !== undefined && v !== null) values.set(f.name, String(v));
  }
  return values;
}
