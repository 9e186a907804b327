/** Durations as Kubernetes prints them (server-side Table cells: AGE, DURATION, LAST SEEN). */

/** k8s.io/apimachinery's HumanDuration: 45s, 3m20s, 15m, 5h30m, 3d4h, 12d, 2y100d, 9y. */
export function humanDuration(ms: number): string {
  const s = Math.trunc(ms / 1000);
  if (s < -1) return '<invalid>';
  if (s < 0) return '0s';
  if (s < 120) return `${s}s`;
  const m = Math.trunc(s / 60);
  if (m < 10) return s % 60 === 0 ? `${m}m` : `${m}m${s % 60}s`;
  if (m < 180) return `${m}m`;
  const h = Math.trunc(m / 60);
  if (h < 8) return m % 60 === 0 ? `${h}h` : `${h}h${m % 60}m`;
  if (h < 48) return `${h}h`;
  if (h < 24 * 8) return h % 24 === 0 ? `${h / 24}d` : `${Math.trunc(h / 24)}d${h % 24}h`;
  const d = Math.trunc(h / 24);
  if (h < 24 * 365 * 2) return `${d}d`;
  if (h < 24 * 365 * 8) return d % 365 === 0 ? `${Math.trunc(d / 365)}y` : `${Math.trunc(d / 365)}y${d % 365}d`;
  return `${Math.trunc(d / 365)}y`;
}

/** Time since an RFC 3339 timestamp, as the printers' translateTimestampSince. */
export function since(at: unknown, now: number): string {
  if (typeof at !== 'string' || !at) return '<unknown>';
  const t = Date.parse(at);
  return Number.isNaN(t) ? '<invalid>' : humanDuration(now - t);
}
