import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import type { KubePort } from '../../cloud/ports.js';
import { KubeNotFound } from '../../domain/kube/errors.js';
import type { LogLine } from '../../domain/schemas/training.js';
import { unreadableReason, type RankedPod } from './pod-runs.js';
import { LineSplitter, matchesGrep, parseStampedLine, TailBuffer } from './lines.js';

/**
 * Reading one rank's log from the kubelet: as lines (the download's stream), or as a capped tail
 * with where it ended (so a follow can go on from exactly there). Memory stays within the caps
 * whatever the log's length: lines are filtered and dropped as they arrive.
 */

/** With grep, how far back each rank is searched: a tail of matches, but never a whole huge log read per request. */
export const GREP_SCAN_LINES = 100_000;

export interface RankReadOptions {
  tailLines?: number;
  sinceSeconds?: number;
  previous: boolean;
  grep?: string;
}

/** The lines of a text stream (a chunk may end mid-line); the stream is read only as fast as lines are taken. */
export async function* linesOf(stream: Readable): AsyncGenerator<string> {
  const splitter = new LineSplitter();
  for await (const chunk of textChunks(stream)) yield* splitter.push(chunk);
  yield* splitter.end();
}

/** The stream's text, chunk by chunk; a character split across two chunks is decoded whole. */
export async function* textChunks(stream: Readable): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  for await (const chunk of stream as AsyncIterable<string | Buffer>) {
    const text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
    if (text) yield text;
  }
  const rest = decoder.end();
  if (rest) yield rest;
}

/** What a failed read of a rank's log says: the pod went away, or the API's own words. */
export function readFailure(err: unknown): string {
  if (err instanceof KubeNotFound) return 'the pod is gone (it was deleted or replaced)';
  return err instanceof Error ? err.message : String(err);
}

/** The rank's log lines (grep applied), oldest first, timestamped by the kubelet. */
export async function* rankLines(
  kube: KubePort,
  ranked: RankedPod,
  options: RankReadOptions,
  signal: AbortSignal,
): AsyncGenerator<LogLine> {
  const { pod } = ranked;
  const stream = await kube.logs(
    { name: pod.metadata.name, namespace: pod.metadata.namespace ?? 'default' },
    {
      ...(options.tailLines !== undefined ? { tailLines: options.tailLines } : {}),
      ...(options.sinceSeconds !== undefined ? { sinceSeconds: options.sinceSeconds } : {}),
      previous: options.previous,
      timestamps: true,
      signal,
    },
  );
  for await (const raw of linesOf(stream)) {
    const { time, text } = parseStampedLine(raw);
    if (matchesGrep(text, options.grep))
      yield { rank: ranked.rank, pod: pod.metadata.name, ...(time ? { time } : {}), text };
  }
}

/** One rank's capped tail, and where its log stood when read (the follow resumes after that). */
export interface RankTail {
  rank: number;
  pod: string;
  lines: LogLine[];
  truncated: boolean;
  error?: string;
  /** The time of the last line read (grep or not) and how many lines had that very time. */
  resume?: { time: string; linesAtTime: number };
}

export async function readRankTail(
  kube: KubePort,
  ranked: RankedPod,
  options: RankReadOptions & { tailLines: number; limitBytes: number },
  signal: AbortSignal,
): Promise<RankTail> {
  const { pod } = ranked;
  const base = { rank: ranked.rank, pod: pod.metadata.name };
  const reason = unreadableReason(pod, options.previous);
  if (reason) return { ...base, lines: [], truncated: false, error: reason };
  // Without grep one line more than asked tells whether older lines were cut; with grep the scan window does.
  const scan = options.grep !== undefined ? Math.max(options.tailLines, GREP_SCAN_LINES) : options.tailLines + 1;
  const buffer = new TailBuffer(options.tailLines, options.limitBytes);
  let read = 0;
  let resume: RankTail['resume'];
  try {
    const stream = await kube.logs(
      { name: pod.metadata.name, namespace: pod.metadata.namespace ?? 'default' },
      {
        tailLines: scan,
        ...(options.sinceSeconds !== undefined ? { sinceSeconds: options.sinceSeconds } : {}),
        previous: options.previous,
        timestamps: true,
        signal,
      },
    );
    for await (const raw of linesOf(stream)) {
      read++;
      const { time, text } = parseStampedLine(raw);
      if (time)
        resume = resume?.time === time ? { time, linesAtTime: resume.linesAtTime + 1 } : { time, linesAtTime: 1 };
      if (matchesGrep(text, options.grep)) buffer.add({ ...base, ...(time ? { time } : {}), text });
    }
  } catch (err) {
    return { ...base, lines: buffer.toArray(), truncated: buffer.truncated, error: readFailure(err) };
  }
  if (options.grep !== undefined && read >= scan) buffer.cut();
  return { ...base, lines: buffer.toArray(), truncated: buffer.truncated, ...(resume ? { resume } : {}) };
}
