import { Environment } from '@marcbachmann/cel-js';
import { Quantity } from './cel-quantity.js';

/**
 * The CEL environment CRD validation rules compile in: standard CEL (@marcbachmann/cel-js: macros
 * `has`/`all`/`exists`/`exists_one`/`map`/`filter`, `size`, `matches`, `startsWith`, `endsWith`,
 * `contains`, conversions, `timestamp`, `duration`, and of the strings extension `lowerAscii`,
 * `upperAscii`, `trim`, `indexOf`, `lastIndexOf`, `substring`, `split`, `join`) plus the Kubernetes
 * libraries rules use (kubernetes.io/docs/reference/using-api/cel → "Kubernetes CEL libraries"):
 * - regex: `find`, `findAll` (NodePool's label-domain rules use `find`);
 * - the rest of the strings extension: `charAt`, `replace`, `reverse`;
 * - lists: `isSorted`, `sum`, `min`, `max`, `indexOf`, `lastIndexOf`;
 * - quantity: `quantity`, `isQuantity` and its methods (`isInteger`, `asInteger`,
 *   `asApproximateFloat`, `sign`, `add`, `sub`, `isGreaterThan`, `isLessThan`, `compareTo`).
 * Variables: `self` and `oldSelf`, both dynamically typed (the API server types them from the
 * schema; the sandbox checks functions and macros at compile time, argument types at evaluation).
 * Not provided: the url, ip/cidr, semver and format libraries — a rule using one does not compile,
 * so its CRD is refused rather than accepted unchecked.
 */

/** A JavaScript regular expression for an RE2 pattern (the subset rules use compiles the same). */
const regex = (pattern: string, flags = ''): RegExp => {
  try {
    return new RegExp(pattern, `u${flags}`);
  } catch {
    return new RegExp(pattern, flags);
  }
};

const compare = (a: unknown, b: unknown): number => {
  if (a instanceof Quantity && b instanceof Quantity) return Number(a.compareTo(b));
  return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
};

function extremum(list: unknown[], want: number): unknown {
  if (list.length === 0) throw new Error(`${want < 0 ? 'min' : 'max'}() called on empty list`);
  return list.reduce((best, x) => (compare(x, best) === want ? x : best));
}

function sum(list: unknown[]): unknown {
  if (list.length === 0) return 0n;
  if (typeof list[0] === 'bigint') return (list as bigint[]).reduce((a, b) => a + b, 0n);
  if (list[0] instanceof Quantity) return (list as Quantity[]).reduce((a, b) => a.plus(b));
  return (list as number[]).reduce((a, b) => a + b, 0);
}

const sameValue = (a: unknown, b: unknown): boolean =>
  a === b ||
  JSON.stringify(a, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v)) ===
    JSON.stringify(b, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v));

function quantityOf(text: string): Quantity {
  const q = Quantity.parse(text);
  if (!q)
    throw new Error(`quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`);
  return q;
}

let environment: Environment | undefined;

/** The one environment every rule compiles in (built once). */
export function celEnvironment(): Environment {
  if (environment) return environment;
  const env = new Environment({ homogeneousAggregateLiterals: false })
    .registerVariable('self', 'dyn')
    .registerVariable('oldSelf', 'dyn')
    .registerType('Quantity', Quantity)
    // regex
    .registerFunction('string.find(string): string', (s: string, p: string) => regex(p).exec(s)?.[0] ?? '')
    .registerFunction('string.findAll(string): list<string>', (s: string, p: string) =>
      [...s.matchAll(regex(p, 'g'))].map((m) => m[0]),
    )
    .registerFunction('string.findAll(string, int): list<string>', (s: string, p: string, n: bigint) => {
      const all = [...s.matchAll(regex(p, 'g'))].map((m) => m[0]);
      return n < 0n ? all : all.slice(0, Number(n));
    })
    // strings extension
    .registerFunction('string.charAt(int): string', (s: string, i: bigint) => {
      const chars = [...s];
      if (i < 0n || i > BigInt(chars.length)) throw new Error(`index out of range: ${i}`);
      return chars[Number(i)] ?? '';
    })
    .registerFunction('string.replace(string, string): string', (s: string, from: string, to: string) =>
      s.split(from).join(to),
    )
    .registerFunction(
      'string.replace(string, string, int): string',
      (s: string, from: string, to: string, n: bigint) => {
        if (n < 0n) return s.split(from).join(to);
        let out = s;
        let at = 0;
        for (let k = 0n; k < n; k++) {
          const i = out.indexOf(from, at);
          if (i < 0) break;
          out = `${out.slice(0, i)}${to}${out.slice(i + from.length)}`;
          at = i + to.length;
        }
        return out;
      },
    )
    .registerFunction('string.reverse(): string', (s: string) => [...s].reverse().join(''))
    // lists
    .registerFunction('list.isSorted(): bool', (l: unknown[]) =>
      l.every((x, i) => i === 0 || compare(l[i - 1], x) <= 0),
    )
    .registerFunction('list.sum(): dyn', (l: unknown[]) => sum(l))
    .registerFunction('list.min(): dyn', (l: unknown[]) => extremum(l, -1))
    .registerFunction('list.max(): dyn', (l: unknown[]) => extremum(l, 1))
    .registerFunction('list.indexOf(dyn): int', (l: unknown[], x: unknown) =>
      BigInt(l.findIndex((y) => sameValue(x, y))),
    )
    .registerFunction('list.lastIndexOf(dyn): int', (l: unknown[], x: unknown) => {
      for (let i = l.length - 1; i >= 0; i--) if (sameValue(x, l[i])) return BigInt(i);
      return -1n;
    })
    // quantity
    .registerFunction('quantity(string): Quantity', (s: string) => quantityOf(s))
    .registerFunction('isQuantity(string): bool', (s: string) => Quantity.parse(s) !== undefined)
    .registerFunction('Quantity.isInteger(): bool', (q: Quantity) => q.isInteger())
    .registerFunction('Quantity.asInteger(): int', (q: Quantity) => q.asInteger())
    .registerFunction('Quantity.asApproximateFloat(): double', (q: Quantity) => q.asApproximateFloat())
    .registerFunction('Quantity.sign(): int', (q: Quantity) => q.sign())
    .registerFunction('Quantity.add(Quantity): Quantity', (q: Quantity, o: Quantity) => q.plus(o))
    .registerFunction('Quantity.add(int): Quantity', (q: Quantity, o: bigint) => q.plus(o))
    .registerFunction('Quantity.sub(Quantity): Quantity', (q: Quantity, o: Quantity) => q.minus(o))
    .registerFunction('Quantity.sub(int): Quantity', (q: Quantity, o: bigint) => q.minus(o))
    .registerFunction('Quantity.isGreaterThan(Quantity): bool', (q: Quantity, o: Quantity) => q.compareTo(o) > 0n)
    .registerFunction('Quantity.isLessThan(Quantity): bool', (q: Quantity, o: Quantity) => q.compareTo(o) < 0n)
    .registerFunction('Quantity.compareTo(Quantity): int', (q: Quantity, o: Quantity) => q.compareTo(o));
  environment = env;
  return env;
}
