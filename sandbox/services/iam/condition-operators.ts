/**
 * IAM's condition operators, as the IAM User Guide documents them ("IAM JSON policy elements:
 * Condition operators" and "Set operators for multivalued context keys"):
 * - String (`StringEquals`, `StringNotEquals`, `…IgnoreCase`, `StringLike`, `StringNotLike`), Numeric,
 *   Date, `Bool`, ARN (`ArnEquals`, `ArnLike`, `ArnNotEquals`, `ArnNotLike`) and `Null`;
 * - the `…IfExists` suffix: true when the key is absent, else the operator's answer;
 * - the `ForAnyValue:` / `ForAllValues:` qualifiers over multivalued keys.
 * A key absent from the request makes a condition false — except for the negated operators
 * (`…Not…`), which are true then, `ForAllValues:` (true), `…IfExists` and `Null`.
 * Not modelled (no policy the sandbox evaluates uses them): `BinaryEquals`, `IpAddress`/`NotIpAddress`;
 * an operator the sandbox does not know makes its condition false.
 */

/** A request's condition keys, looked up case-insensitively (IAM's keys are), each one value or many. */
export type ConditionContext = ReadonlyMap<string, string | readonly string[]>;

/** `*` (any run of characters) and `?` (one character), anchored; `ignoreCase` for the case-insensitive matches. */
export function globMatches(pattern: string, value: string, ignoreCase = false): boolean {
  const source = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${source}$`, ignoreCase ? 'is' : 's').test(value);
}

/**
 * ARN matching as `ArnLike` does it: each of the six colon-separated parts is matched on its own
 * (a wildcard does not cross into the next part); the resource part keeps any further colons.
 */
export function arnMatches(pattern: string, arn: string): boolean {
  if (pattern === '*') return true;
  const split = (s: string): string[] | undefined => {
    const parts = s.split(':');
    return parts.length < 6 ? undefined : [...parts.slice(0, 5), parts.slice(5).join(':')];
  };
  const p = split(pattern);
  const a = split(arn);
  // A pattern that is not a whole ARN matches no ARN (IAM refuses such a Resource when the policy is stored).
  if (!a) return globMatches(pattern, arn);
  if (!p) return false;
  return p.every((segment, i) => globMatches(segment, a[i]!));
}

type Compare = (policyValue: string, requestValue: string) => boolean;

const number = (s: string) => (s.trim() === '' ? Number.NaN : Number(s));
const numeric =
  (test: (a: number, b: number) => boolean): Compare =>
  (p, r) => {
    const [a, b] = [number(r), number(p)];
    return !Number.isNaN(a) && !Number.isNaN(b) && test(a, b);
  };
/** Dates as ISO 8601 text or epoch seconds, as IAM accepts both. */
const time = (s: string) => (/^\d+$/.test(s) ? Number(s) * 1000 : Date.parse(s));
const dated =
  (test: (a: number, b: number) => boolean): Compare =>
  (p, r) => {
    const [a, b] = [time(r), time(p)];
    return !Number.isNaN(a) && !Number.isNaN(b) && test(a, b);
  };

/** Each operator's positive match; `negated` operators are true when no policy value matches. */
const OPERATORS: Record<string, { match: Compare; negated: boolean }> = {
  StringEquals: { match: (p, r) => p === r, negated: false },
  StringNotEquals: { match: (p, r) => p === r, negated: true },
  StringEqualsIgnoreCase: { match: (p, r) => p.toLowerCase() === r.toLowerCase(), negated: false },
  StringNotEqualsIgnoreCase: { match: (p, r) => p.toLowerCase() === r.toLowerCase(), negated: true },
  StringLike: { match: (p, r) => globMatches(p, r), negated: false },
  StringNotLike: { match: (p, r) => globMatches(p, r), negated: true },
  NumericEquals: { match: numeric((a, b) => a === b), negated: false },
  NumericNotEquals: { match: numeric((a, b) => a === b), negated: true },
  NumericLessThan: { match: numeric((a, b) => a < b), negated: false },
  NumericLessThanEquals: { match: numeric((a, b) => a <= b), negated: false },
  NumericGreaterThan: { match: numeric((a, b) => a > b), negated: false },
  NumericGreaterThanEquals: { match: numeric((a, b) => a >= b), negated: false },
  DateEquals: { match: dated((a, b) => a === b), negated: false },
  DateNotEquals: { match: dated((a, b) => a === b), negated: true },
  DateLessThan: { match: dated((a, b) => a < b), negated: false },
  DateLessThanEquals: { match: dated((a, b) => a <= b), negated: false },
  DateGreaterThan: { match: dated((a, b) => a > b), negated: false },
  DateGreaterThanEquals: { match: dated((a, b) => a >= b), negated: false },
  Bool: { match: (p, r) => p.toLowerCase() === r.toLowerCase(), negated: false },
  ArnEquals: { match: (p, r) => arnMatches(p, r), negated: false },
  ArnLike: { match: (p, r) => arnMatches(p, r), negated: false },
  ArnNotEquals: { match: (p, r) => arnMatches(p, r), negated: true },
  ArnNotLike: { match: (p, r) => arnMatches(p, r), negated: true },
};

const list = (v: unknown): string[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]).map((x) => String(x));

/** A context value by key, case-insensitively; undefined when the request has no such key. */
export function contextValue(context: ConditionContext, key: string): string[] | undefined {
  const v = context.get(key.toLowerCase());
  return v === undefined ? undefined : typeof v === 'string' ? [v] : [...v];
}

/**
 * Whether one operator's block (`{ "<key>": value | [values] }`) holds: every key in it must hold
 * (AND); a key holds when a policy value matches (OR). `resolve` substitutes policy variables in a
 * policy value (undefined: a variable the request lacks, so that value matches nothing).
 */
export function operatorHolds(
  operator: string,
  block: Record<string, unknown>,
  context: ConditionContext,
  resolve: (v: string) => string | undefined,
): boolean {
  const qualifier = /^(ForAnyValue|ForAllValues):/.exec(operator)?.[1];
  let name = qualifier ? operator.slice(qualifier.length + 1) : operator;
  const ifExists = name.endsWith('IfExists');
  if (ifExists) name = name.slice(0, -'IfExists'.length);
  return Object.entries(block).every(([key, raw]) => {
    const wanted = list(raw).map(resolve);
    const present = contextValue(context, key);
    if (name === 'Null') {
      // Null: "true" asks that the key be absent, "false" that it be present.
      return wanted.some((w) => w !== undefined && (w.toLowerCase() === 'true') === (present === undefined));
    }
    const op = OPERATORS[name];
    if (!op) return false;
    const matchesAny = (value: string) => wanted.some((w) => w !== undefined && op.match(w, value));
    if (present === undefined || present.length === 0) {
      if (ifExists || qualifier === 'ForAllValues') return true;
      if (qualifier === 'ForAnyValue') return false;
      return op.negated;
    }
    if (qualifier === 'ForAllValues') return present.every((v) => (op.negated ? !matchesAny(v) : matchesAny(v)));
    if (qualifier === 'ForAnyValue') return present.some((v) => (op.negated ? !matchesAny(v) : matchesAny(v)));
    return op.negated ? !present.some(matchesAny) : present.some(matchesAny);
  });
}
