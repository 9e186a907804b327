/**
 * The terminal's log format: one short line per entry, from the JSON line pino wrote (after
 * redaction). Small on purpose — pino-pretty is not a dependency — and only ever run for lines that
 * passed the level check, so it costs nothing on a quiet request.
 *
 *   14:03:07.123 INFO  POST /api/v1/clusters 202 35 ms  reqId=req-1a2b3c4d
 *   14:03:09.002 WARN  [engine] transient cloud error, retrying  operationId=op-… code=Throttling
 */

const LEVELS: ReadonlyMap<number, { name: string; color: string }> = new Map([
  [10, { name: 'TRACE', color: '90' }],
  [20, { name: 'DEBUG', color: '90' }],
  [30, { name: 'INFO ', color: '32' }],
  [40, { name: 'WARN ', color: '33' }],
  [50, { name: 'ERROR', color: '31' }],
  [60, { name: 'FATAL', color: '31' }],
]);
/** Fields every entry has, or that the line shows in its own place. */
const SHOWN_ELSEWHERE = new Set([
  'level',
  'time',
  'msg',
  'pid',
  'hostname',
  'v',
  'component',
  'method',
  'url',
  'status',
  'ms',
  'err',
]);
/** One value never takes over the terminal. */
const MAX_VALUE_CHARS = 300;

/** `jsonLine` (one pino entry, newline-terminated) as one pretty line (newline-terminated). */
export function prettyLine(jsonLine: string, color: boolean): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(jsonLine) as Record<string, unknown>;
  } catch {
    return jsonLine.endsWith('\n') ? jsonLine : `${jsonLine}\n`; // not ours to reformat
  }
  const paint = (code: string, text: string) => (color ? `\u001b[${code}m${text}\u001b[0m` : text);
  const level = LEVELS.get(entry.level as number) ?? { name: String(entry.level).toUpperCase().padEnd(5), color: '0' };
  const parts = [paint('90', clock(entry.time)), paint(level.color, level.name)];
  if (typeof entry.component === 'string') parts.push(paint('36', `[${entry.component}]`));
  if (typeof entry.method === 'string' && typeof entry.url === 'string') {
    // A request line says what happened in the message's place: method, URL, status, duration.
    parts.push(
      `${entry.method} ${entry.url} ${String(entry.status ?? '')}${typeof entry.ms === 'number' ? ` ${entry.ms} ms` : ''}`,
    );
    if (typeof entry.msg === 'string' && entry.msg !== 'request completed') parts.push(`(${entry.msg})`);
  } else if (typeof entry.msg === 'string') {
    parts.push(entry.msg);
  }
  const fields = Object.entries(entry)
    .filter(([key, value]) => !SHOWN_ELSEWHERE.has(key) && value !== undefined)
    .map(
      ([key, value]) =>
        paint('90', `${key}=`) +
        clip(typeof value === 'string' && /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value)),
    );
  const err = entry.err as { type?: string; message?: string; stack?: string } | undefined;
  if (err) fields.push(paint('90', 'err=') + clip(JSON.stringify(err.message ?? err.type ?? err)));
  let line = parts.join(' ') + (fields.length ? `  ${fields.join(' ')}` : '');
  // The stack helps only for what failed unexpectedly (error and above).
  if (err?.stack && (entry.level as number) >= 50) line += `\n${err.stack.split('\n').slice(1, 8).join('\n')}`;
  return `${line}\n`;
}

function clock(time: unknown): string {
  const date = new Date(typeof time === 'number' ? time : Date.now());
  return date.toTimeString().slice(0, 8) + `.${String(date.getMilliseconds()).padStart(3, '0')}`;
}

function clip(text: string): string {
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS)}…` : text;
}
