import type { LogLine } from '../../domain/schemas/training.js';

/**
 * The pure pieces of job logs: a kubelet line split into its time and text, the plain-text grep,
 * a tail kept within a line count and a byte cap (the oldest lines go first), the merge of every
 * rank's tail by time, and the `[rank N]` prefix every face shows. No I/O: pod-reads.ts and follow.ts feed them.
 */

/** A line longer than this is cut: one runaway line must not grow the server's memory. */
export const MAX_LINE_CHARS = 64 * 1024;

/** `2026-06-01T12:00:05.123456789Z text` as the kubelet writes it with `timestamps=true`. */
const STAMPED = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})) (.*)$/s;

/** A kubelet line's time (when it carries one) and its text. */
export function parseStampedLine(raw: string): { time?: string; text: string } {
  const m = STAMPED.exec(raw);
  return m ? { time: m[1]!, text: m[2]! } : { text: raw };
}

/** Plain, case-sensitive substring: what a user types into a search box, never a regular expression. */
export const matchesGrep = (text: string, grep: string | undefined): boolean =>
  grep === undefined || text.includes(grep);

/** What a line costs in an answer: its text and the newline that ends it. */
export const lineBytes = (line: { text: string }): number => Buffer.byteLength(line.text) + 1;

/** The line as the UI, the MCP tool and the download show it. */
export const prefixedLine = (line: { rank: number; text: string }): string => `[rank ${line.rank}] ${line.text}`;

/**
 * Splits a text stream into lines: chunks may end mid-line, so the rest waits for the next chunk
 * (cut at MAX_LINE_CHARS, so a line without an end cannot hold memory).
 */
export class LineSplitter {
  private rest = '';

  /** The complete lines of this chunk (and what was left over before it). */
  push(chunk: string): string[] {
    const parts = (this.rest + chunk).split('\n');
    this.rest = parts.pop()!;
    if (this.rest.length > MAX_LINE_CHARS) {
      parts.push(this.rest.slice(0, MAX_LINE_CHARS));
      this.rest = '';
    }
    return parts.map((p) => (p.endsWith('\r') ? p.slice(0, -1) : p));
  }

  /** The last line, when the stream ended without a newline. */
  end(): string[] {
    const last = this.rest;
    this.rest = '';
    return last ? [last] : [];
  }
}

/**
 * The newest lines of one rank within `maxLines` and `maxBytes`: lines are added oldest first and
 * the oldest are dropped when either cap is passed, so memory never exceeds the caps however long
 * the log is. `truncated` says that something was dropped.
 */
export class TailBuffer {
  private lines: LogLine[] = [];
  private head = 0;
  private bytes = 0;
  truncated = false;

  constructor(
    private readonly maxLines: number,
    private readonly maxBytes: number,
  ) {}

  add(line: LogLine): void {
    this.lines.push(line);
    this.bytes += lineBytes(line);
    while (
      this.lines.length - this.head > this.maxLines ||
      (this.bytes > this.maxBytes && this.lines.length - this.head > 0)
    ) {
      this.bytes -= lineBytes(this.lines[this.head]!);
      this.head++;
      this.truncated = true;
    }
    // Compact now and then: a long scan must not keep every dropped line reachable.
    if (this.head > 1024 && this.head * 2 > this.lines.length) {
      this.lines = this.lines.slice(this.head);
      this.head = 0;
    }
  }

  /** Marks the tail as cut: the source held more than was asked for. */
  cut(): void {
    this.truncated = true;
  }

  get size(): number {
    return this.lines.length - this.head;
  }

  /** The kept lines, oldest first. */
  toArray(): LogLine[] {
    return this.lines.slice(this.head);
  }
}

/** Orders two RFC 3339 times (both UTC, as the kubelet writes them); a line without a time sorts first. */
export function compareTimes(a: string | undefined, b: string | undefined): number {
  if (a === b) return 0;
  if (a === undefined) return -1;
  if (b === undefined) return 1;
  const [da, fa] = splitFraction(a);
  const [db, fb] = splitFraction(b);
  if (da !== db) return da < db ? -1 : 1;
  // Fractions of different lengths compare as numbers once padded (".5" is ".500000000").
  const width = Math.max(fa.length, fb.length);
  const pa = fa.padEnd(width, '0');
  const pb = fb.padEnd(width, '0');
  return pa === pb ? 0 : pa < pb ? -1 : 1;
}

function splitFraction(time: string): [string, string] {
  const m = /^([^.]*?)(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})$/.exec(time);
  return m ? [m[1]! + m[3]!, m[2] ?? ''] : [time, ''];
}

/**
 * Every rank's lines in one list by time. Each rank's list is already in order, so this is a k-way
 * merge; lines of the same instant keep rank order (rank 0 first), and a rank's own order is kept.
 */
export function mergeByTime(perRank: readonly (readonly LogLine[])[]): LogLine[] {
  const cursors = perRank.map(() => 0);
  const total = perRank.reduce((n, l) => n + l.length, 0);
  const out: LogLine[] = [];
  while (out.length < total) {
    let best = -1;
    for (let r = 0; r < perRank.length; r++) {
      const line = perRank[r]![cursors[r]!];
      if (!line) continue;
      if (best < 0 || compareTimes(line.time, perRank[best]![cursors[best]!]!.time) < 0) best = r;
    }
    out.push(perRank[best]![cursors[best]!]!);
    cursors[best]!++;
  }
  return out;
}

/**
 * The newest of merged lines whose `[rank N] …` text fits in `limit` bytes, and whether older ones
 * were cut. Each rank is capped on its own first; all ranks of a large job merged could still be
 * ranks × limit — more than a client (an agent's context above all) should take in one answer.
 */
export function newestWithin(lines: LogLine[], limit: number): { lines: LogLine[]; cut: boolean } {
  let bytes = 0;
  let first = lines.length;
  while (first > 0) {
    const size = Buffer.byteLength(prefixedLine(lines[first - 1]!)) + 1;
    if (bytes + size > limit) break;
    bytes += size;
    first--;
  }
  return { lines: first === 0 ? lines : lines.slice(first), cut: first > 0 };
}
