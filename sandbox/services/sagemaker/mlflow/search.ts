import { invalidParameter } from './errors.js';

/**
 * MLflow's search grammar, the subset SearchRuns and SearchExperiments clients use:
 * `filter` is comparisons joined by AND — `<entity>.<key> <op> <value>` where entity is
 * `attributes`/`attribute`/`attr`/`run` (or none), `tags`/`tag`, `params`/`param`,
 * `metrics`/`metric`; a key may be quoted with "…" or `…` (`tags."user-name"`); ops are
 * = != < <= > >= LIKE ILIKE; values are '…' / "…" strings or numbers. `order_by` entries are
 * `<entity>.<key> [ASC|DESC]`. Anything else is INVALID_PARAMETER_VALUE, as MLflow answers.
 */

export type Entity = 'attribute' | 'tag' | 'param' | 'metric';
export interface Comparison {
  entity: Entity;
  key: string;
  op: '=' | '!=' | '<' | '<=' | '>' | '>=' | 'LIKE' | 'ILIKE';
  value: string | number;
}
export interface OrderBy {
  entity: Entity;
  key: string;
  ascending: boolean;
}

const ENTITIES: Record<string, Entity> = {
  attributes: 'attribute',
  attribute: 'attribute',
  attr: 'attribute',
  run: 'attribute',
  tags: 'tag',
  tag: 'tag',
  params: 'param',
  param: 'param',
  metrics: 'metric',
  metric: 'metric',
};

class Cursor {
  i = 0;
  constructor(readonly text: string) {}
  skipSpace(): void {
    while (this.i < this.text.length && /\s/.test(this.text[this.i]!)) this.i++;
  }
  done(): boolean {
    this.skipSpace();
    return this.i >= this.text.length;
  }
  /** Reads a quoted string starting at the current quote character. */
  quoted(): string {
    const q = this.text[this.i]!;
    const end = this.text.indexOf(q, this.i + 1);
    if (end < 0) throw invalidParameter(`Invalid filter '${this.text}': unterminated quote.`);
    const out = this.text.slice(this.i + 1, end);
    this.i = end + 1;
    return out;
  }
  match(re: RegExp): string | undefined {
    this.skipSpace();
    const m = re.exec(this.text.slice(this.i));
    if (!m || m.index !== 0) return undefined;
    this.i += m[0].length;
    return m[0];
  }
}

function identifier(c: Cursor, what: string): { entity: Entity; key: string } {
  c.skipSpace();
  const ch = c.text[c.i];
  if (ch === '"' || ch === '`') return { entity: 'attribute', key: c.quoted() };
  const head = c.match(/^[A-Za-z_][\w]*/);
  if (!head) throw invalidParameter(`Invalid ${what} '${c.text}': expected an identifier at position ${c.i}.`);
  if (c.text[c.i] !== '.') return { entity: 'attribute', key: head };
  const entity = ENTITIES[head.toLowerCase()];
  if (!entity)
    throw invalidParameter(`Invalid ${what} '${c.text}': '${head}' is not one of attributes, tags, params, metrics.`);
  c.i++;
  const q = c.text[c.i];
  if (q === '"' || q === '`') return { entity, key: c.quoted() };
  const key = c.match(/^[\w.\-/:]+/);
  if (!key) throw invalidParameter(`Invalid ${what} '${c.text}': expected a key after '${head}.'.`);
  return { entity, key };
}

export function parseFilter(filter: string | undefined): Comparison[] {
  if (!filter || filter.trim() === '') return [];
  const c = new Cursor(filter);
  const out: Comparison[] = [];
  for (;;) {
    const { entity, key } = identifier(c, 'filter');
    const op = c.match(/^(!=|<=|>=|=|<|>|ILIKE\b|LIKE\b)/i)?.toUpperCase() as Comparison['op'] | undefined;
    if (!op) throw invalidParameter(`Invalid filter '${filter}': expected a comparison operator after '${key}'.`);
    c.skipSpace();
    const ch = c.text[c.i];
    let value: string | number;
    if (ch === "'" || ch === '"') value = c.quoted();
    else {
      const num = c.match(/^-?\d+(\.\d+)?([eE][-+]?\d+)?/);
      if (num === undefined)
        throw invalidParameter(`Invalid filter '${filter}': expected a quoted string or a number after '${op}'.`);
      value = Number(num);
    }
    out.push({ entity, key, op, value });
    if (c.done()) return out;
    if (!c.match(/^AND\b/i)) throw invalidParameter(`Invalid filter '${filter}': only AND joins comparisons.`);
  }
}

export function parseOrderBy(orderBy: string[] | undefined): OrderBy[] {
  return (orderBy ?? []).map((text) => {
    const c = new Cursor(text);
    const { entity, key } = identifier(c, 'order_by');
    const dir = c.match(/^(ASC|DESC)\b/i)?.toUpperCase();
    if (!c.done()) throw invalidParameter(`Invalid order_by clause '${text}'.`);
    return { entity, key, ascending: dir !== 'DESC' };
  });
}

/** SQL LIKE: `%` any run of characters, `_` one character. */
function like(pattern: string, value: string, insensitive: boolean): boolean {
  const re = pattern
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    .replace(/%/g, '.*')
    .replace(/_/g, '.');
  return new RegExp(`^${re}$`, insensitive ? 'is' : 's').test(value);
}

/** Whether `actual` satisfies one comparison; a missing value never matches (as in MLflow's SQL store). */
export function compare(cmp: Comparison, actual: string | number | undefined): boolean {
  if (actual === undefined) return false;
  if (cmp.op === 'LIKE' || cmp.op === 'ILIKE')
    return typeof actual === 'string' && typeof cmp.value === 'string' && like(cmp.value, actual, cmp.op === 'ILIKE');
  const [a, b] = typeof actual === 'number' ? [actual, Number(cmp.value)] : [actual, String(cmp.value)];
  switch (cmp.op) {
    case '=':
      return a === b;
    case '!=':
      return a !== b;
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '>':
      return a > b;
    default:
      return a >= b;
  }
}

/** Sorts by the clauses in turn, missing values last, then by `tiebreak`. */
export function orderItems<T>(
  items: T[],
  clauses: OrderBy[],
  valueOf: (item: T, clause: OrderBy) => string | number | undefined,
  tiebreak: (a: T, b: T) => number,
): T[] {
  return [...items].sort((x, y) => {
    for (const clause of clauses) {
      const a = valueOf(x, clause);
      const b = valueOf(y, clause);
      if (a === b) continue;
      if (a === undefined) return 1;
      if (b === undefined) return -1;
      return (a < b ? -1 : 1) * (clause.ascending ? 1 : -1);
    }
    return tiebreak(x, y);
  });
}
