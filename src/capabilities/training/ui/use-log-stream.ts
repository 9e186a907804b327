import { type LogStreamMessage, LogStreamMessageSchema } from '@domain/schemas/training.js';
import { apiToken } from '@kit/api/client.js';
import { rest } from '@kit/api/rest.js';
import { useCallback, useEffect, useRef, useState } from 'react';
import { TRAINING_PATHS } from '../paths.js';
import { LogRing } from './log-buffer.js';

/** Lines the viewer keeps (the newest); the UI says so. */
export const LOG_CAPACITY = 50_000;
/** Lines asked for before following (per rank). */
export const TAIL_LINES = 1000;

export type StreamStatus =
  | { state: 'connecting' }
  | { state: 'tail' }
  | { state: 'following' }
  | { state: 'dropped'; reason: string }
  | { state: 'closed'; reason?: string }
  | { state: 'error'; message: string };

/** What waits for the next frame: the server's messages, and the socket's close in its place among them. */
type Queued = LogStreamMessage | { type: 'closed'; reason?: string };

export interface StreamOptions {
  cluster: string;
  region: string;
  namespace: string;
  job: string;
  rank: 'all' | number;
  /** Server-side filter, applied when the stream (re)opens. */
  grep?: string;
}

function followUrl(o: StreamOptions): string {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const path = rest(TRAINING_PATHS.jobLogsFollow, { name: o.cluster, namespace: o.namespace, job: o.job }).url({
    region: o.region,
    rank: String(o.rank),
    tailLines: String(TAIL_LINES),
    grep: o.grep,
    token: apiToken(),
  });
  return `${proto}//${location.host}${path}`;
}

/**
 * One WebSocket per stream (the job's logs follow path): the capped tail, then new lines. Messages
 * are queued and applied once per animation frame, so a burst of thousands of lines costs one render;
 * while paused they wait in the queue (bounded like the buffer). `reconnect` opens a new stream,
 * e.g. after the server dropped a slow client.
 */
export function useLogStream(options: StreamOptions) {
  const ring = useRef(new LogRing(LOG_CAPACITY));
  const queue = useRef<Queued[]>([]);
  const paused = useRef(false);
  const [version, setVersion] = useState(0);
  const [status, setStatus] = useState<StreamStatus>({ state: 'connecting' });
  const [pending, setPending] = useState(0);
  const [attempt, setAttempt] = useState(0);
  const { cluster, region, namespace, job, rank, grep } = options;

  const flush = useCallback(() => {
    if (paused.current) {
      if (queue.current.length > LOG_CAPACITY) queue.current.splice(0, queue.current.length - LOG_CAPACITY);
      setPending(queue.current.length);
      return;
    }
    const batch = queue.current;
    queue.current = [];
    let next: StreamStatus | undefined;
    for (const m of batch) {
      if (m.type === 'line') ring.current.push({ rank: m.rank, text: m.text });
      else if (m.type === 'tail-end') next = { state: 'following' };
      else if (m.type === 'rank-started') ring.current.push({ rank: m.rank, text: `— ${m.pod} started`, note: true });
      else if (m.type === 'rank-ended')
        ring.current.push({ rank: m.rank, text: `— ${m.pod} ended: ${m.reason}`, note: true });
      else if (m.type === 'dropped') next = { state: 'dropped', reason: m.reason };
      else if (m.type === 'error') next = { state: 'error', message: m.message };
      else if (m.type === 'closed') next = { state: 'closed', reason: m.reason };
    }
    if (next) setStatus(next);
    setPending(0);
    setVersion((v) => v + 1);
  }, []);

  useEffect(() => {
    ring.current.clear();
    queue.current = [];
    setVersion((v) => v + 1);
    setStatus({ state: 'connecting' });
    let frame: number | undefined;
    let ended = false;
    const schedule = () => {
      if (frame === undefined)
        frame = requestAnimationFrame(() => {
          frame = undefined;
          flush();
        });
    };
    const ws = new WebSocket(followUrl({ cluster, region, namespace, job, rank, grep }));
    ws.onopen = () => setStatus({ state: 'tail' });
    ws.onmessage = (event) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(String(event.data));
      } catch {
        return;
      }
      const m = LogStreamMessageSchema.safeParse(parsed);
      if (!m.success) return;
      if (m.data.type === 'dropped' || m.data.type === 'error') ended = true;
      queue.current.push(m.data);
      schedule();
    };
    ws.onclose = (event) => {
      // A dropped or failed stream already said why; otherwise the close is news, in its turn after the lines before
      // it.
      if (!ended) queue.current.push({ type: 'closed', reason: event.reason || undefined });
      schedule();
    };
    return () => {
      ended = true;
      ws.onclose = null;
      ws.onmessage = null;
      ws.close();
      if (frame !== undefined) cancelAnimationFrame(frame);
    };
  }, [cluster, region, namespace, job, rank, grep, attempt, flush]);

  const setPaused = useCallback(
    (p: boolean) => {
      paused.current = p;
      if (!p) flush();
      else setPending(queue.current.length);
    },
    [flush],
  );

  return { ring: ring.current, version, status, pending, setPaused, reconnect: () => setAttempt((a) => a + 1) };
}
