import { type LogStreamMessage, LogStreamMessageSchema } from '@domain/schemas/training.js';
import { apiToken } from '@kit/api/client.js';
import { LogRing } from '@kit/lib/log-buffer.js';
import { useCallback, useEffect, useRef, useState } from 'react';

/** Lines a viewer keeps by default (the newest); the UI says so. */
export const LOG_CAPACITY = 50_000;

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
  /**
   * The follow path with its query (e.g. `rest(TRAINING_PATHS.jobLogsFollow, …).url({ region, … })`); the hook
   * makes it a ws(s) URL on this host and adds the API token. A new path opens a new stream.
   */
  path: string;
  /** Lines kept (the newest); {@link LOG_CAPACITY} unless said. */
  capacity?: number;
}

/** The path as a WebSocket URL on the page's host, with the API token a browser cannot send as a header. */
function socketUrl(path: string): string {
  const url = new URL(path, location.href);
  url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const token = apiToken();
  if (token) url.searchParams.set('token', token);
  return url.toString();
}

/**
 * One WebSocket per stream (a logs follow path: a training job's, an endpoint's; their messages are
 * LogStreamMessage): the capped tail, then new lines. Messages
 * are queued and applied once per animation frame, so a burst of thousands of lines costs one render;
 * while paused they wait in the queue (bounded like the buffer). `reconnect` opens a new stream,
 * e.g. after the server dropped a slow client.
 */
export function useLogStream({ path, capacity = LOG_CAPACITY }: StreamOptions) {
  const ring = useRef(new LogRing(capacity));
  const queue = useRef<Queued[]>([]);
  const paused = useRef(false);
  const [version, setVersion] = useState(0);
  const [status, setStatus] = useState<StreamStatus>({ state: 'connecting' });
  const [pending, setPending] = useState(0);
  const [attempt, setAttempt] = useState(0);

  const flush = useCallback(() => {
    if (paused.current) {
      if (queue.current.length > capacity) queue.current.splice(0, queue.current.length - capacity);
      setPending(queue.current.length);
      return;
    }
    const batch = queue.current;
    queue.current = [];
    let next: StreamStatus | undefined;
    for (const m of batch) {
      if (m.type === 'line') ring.current.push({ rank: m.rank, pod: m.pod, text: m.text });
      else if (m.type === 'tail-end') next = { state: 'following' };
      else if (m.type === 'rank-started')
        ring.current.push({ rank: m.rank, pod: m.pod, text: `— ${m.pod} started`, note: true });
      else if (m.type === 'rank-ended')
        ring.current.push({ rank: m.rank, pod: m.pod, text: `— ${m.pod} ended: ${m.reason}`, note: true });
      else if (m.type === 'dropped') next = { state: 'dropped', reason: m.reason };
      else if (m.type === 'error') next = { state: 'error', message: m.message };
      else if (m.type === 'closed') next = { state: 'closed', reason: m.reason };
    }
    if (next) setStatus(next);
    setPending(0);
    setVersion((v) => v + 1);
  }, [capacity]);

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
    const ws = new WebSocket(socketUrl(path));
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
  }, [path, attempt, flush]);

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
