/** Kubernetes resource quantities ("100m", "2", "64Mi", "1Gi", "1e3") as numbers of base units. */
const SUFFIX: Record<string, number> = {
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  '': 1,
  k: 1e3,
  K: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

export function parseQuantity(value: unknown): number {
  if (typeof value === 'number') return value;
  const m = /^([+-]?\d*\.?\d+(?:[eE][+-]?\d+)?)([a-zA-Z]*)$/.exec(String(value ?? '0').trim());
  if (!m) return 0;
  return Number(m[1]) * (SUFFIX[m[2]!] ?? 1);
}
