/**
 * Small statistics and printing helpers. The machine is shared and noisy, so every figure is a
 * median (or a percentile) of several samples, and every comparison is a ratio of samples taken
 * side by side.
 */

/** The p-th percentile (0–100) by nearest rank; NaN for no samples. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export const median = (values: readonly number[]): number => percentile(values, 50);

/** Milliseconds, with precision that suits the size. */
export function ms(value: number): string {
  if (!Number.isFinite(value)) return '–';
  if (value >= 10_000) return `${(value / 1000).toFixed(1)} s`;
  if (value >= 100) return `${Math.round(value)} ms`;
  if (value >= 10) return `${value.toFixed(1)} ms`;
  return `${value.toFixed(2)} ms`;
}

export function ratio(value: number): string {
  if (!Number.isFinite(value)) return '–';
  return value >= 10 ? `${value.toFixed(1)}×` : value >= 0.1 ? `${value.toFixed(2)}×` : `${value.toFixed(3)}×`;
}

export const mb = (kb: number): string => (Number.isFinite(kb) ? `${Math.round(kb / 1024)} MB` : '–');

export const int = (value: number): string =>
  Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : '–';

/** Prints rows as an aligned plain-text table (first row: the header). */
export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) =>
    r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  return [line(rows[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n');
}

/** A section heading and its body, written to stdout at once so the report reads in order. */
export function report(title: string, body: string): void {
  process.stdout.write(`\n## ${title}\n${body}\n`);
}

/** Progress for the person waiting; stderr, so `npm run bench > file` keeps only the figures. */
export function progress(message: string): void {
  process.stderr.write(`  … ${message}\n`);
}
