import Box from '@cloudscape-design/components/box';
import Container from '@cloudscape-design/components/container';
import Header from '@cloudscape-design/components/header';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import Toggle from '@cloudscape-design/components/toggle';
import type { LogLine } from '@kit/api/types.js';
import { useLiveStatus } from '@kit/hooks/live-context.js';
import { ProblemText } from '@kit/hooks/notifications.js';
import { formatClock } from '@kit/lib/format.js';
import { memo, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { getOperationEvents } from './api.js';

/** Only the newest lines stay in the page (SkyPilot's dashboard froze on huge logs). */
export const LOG_TAIL = 500;

const LEVEL_COLOR: Record<LogLine['level'], string> = { info: 'inherit', warn: '#8d6605', error: '#d91515' };

// Wrapped, a long line (a URL, a JSON body) breaks anywhere to show whole; unwrapped it stays one row and the log
// scrolls sideways.
const WRAPPED = { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' } as const;
const UNWRAPPED = { whiteSpace: 'pre', width: 'max-content', minWidth: '100%' } as const;

const LogRow = memo(function LogRow({ line, wrap }: { line: LogLine; wrap: boolean }) {
  return (
    <div
      data-testid="log-line"
      data-seq={line.seq}
      style={{ color: LEVEL_COLOR[line.level], ...(wrap ? WRAPPED : UNWRAPPED) }}
    >
      <span style={{ opacity: 0.6 }}>{formatClock(line.at)} </span>
      {line.phase && <span style={{ opacity: 0.75 }}>[{line.phase}] </span>}
      {line.level !== 'info' && <b>{line.level.toUpperCase()} </b>}
      {line.message}
    </div>
  );
});

/**
 * The operation's log: pages `GET …/events?after=` to the end keeping a capped tail, then appends
 * lines pushed over the WebSocket. Incoming lines are buffered and flushed once per animation frame;
 * rows are memoized by seq, so a line renders once instead of re-rendering the whole log.
 */
export function LogViewer({ operationId, live }: { operationId: string; live: boolean }) {
  const { connected, subscribeLogs } = useLiveStatus();
  const lines = useRef<LogLine[]>([]);
  const lastSeq = useRef(0);
  const dropped = useRef(0);
  const [version, setVersion] = useState(0);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(true);
  const [follow, setFollow] = useState(true);
  const [wrap, setWrap] = useState(true);
  const scroller = useRef<HTMLDivElement>(null);
  const frame = useRef<number | null>(null);

  const scheduleFlush = useCallback(() => {
    if (frame.current !== null) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = null;
      setVersion((v) => v + 1);
    });
  }, []);

  const append = useCallback(
    (incoming: LogLine[]) => {
      const fresh = incoming.filter((l) => l.seq > lastSeq.current).sort((a, b) => a.seq - b.seq);
      if (fresh.length === 0) return;
      lastSeq.current = fresh[fresh.length - 1]!.seq;
      const all = lines.current.concat(fresh);
      const excess = all.length - LOG_TAIL;
      if (excess > 0) dropped.current += excess;
      lines.current = excess > 0 ? all.slice(excess) : all;
      scheduleFlush();
    },
    [scheduleFlush],
  );

  // Fetch everything after the last line we hold; one fetch at a time, repeated if asked meanwhile.
  const fetching = useRef(false);
  const again = useRef(false);
  // Pushed lines that arrive while a fetch runs wait for it: appending them first would move
  // lastSeq past lines the fetch has not returned yet.
  const pending = useRef<LogLine[]>([]);
  const catchUp = useCallback(async () => {
    if (fetching.current) {
      again.current = true;
      return;
    }
    fetching.current = true;
    try {
      do {
        again.current = false;
        for (;;) {
          const page = await getOperationEvents(operationId, lastSeq.current, 1000);
          append(page.lines);
          if (page.lines.length < 1000) break;
        }
      } while (again.current);
      setError(null);
    } catch (err) {
      setError(err);
    } finally {
      fetching.current = false;
      append(pending.current);
      pending.current = [];
      setLoading(false);
    }
  }, [operationId, append]);

  const onLine = useCallback(
    (line: LogLine) => {
      if (fetching.current) pending.current.push(line);
      else if (line.seq > lastSeq.current + 1) {
        // A gap (seq numbers are consecutive per operation): fetch the missing lines first.
        pending.current.push(line);
        void catchUp();
      } else append([line]);
    },
    [append, catchUp],
  );

  useEffect(() => {
    lines.current = [];
    lastSeq.current = 0;
    dropped.current = 0;
    pending.current = [];
    setLoading(true);
    setVersion((v) => v + 1);
    void catchUp();
    const unsubscribe = subscribeLogs(operationId, { onLine, onResync: () => void catchUp() });
    return () => {
      unsubscribe();
      if (frame.current !== null) cancelAnimationFrame(frame.current);
      frame.current = null;
    };
  }, [operationId, subscribeLogs, onLine, catchUp]);

  // Without the socket, a running operation's log is polled like everything else.
  useEffect(() => {
    if (connected || !live) return;
    const t = setInterval(() => void catchUp(), 5000);
    return () => clearInterval(t);
  }, [connected, live, catchUp]);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (el && follow) el.scrollTop = el.scrollHeight;
  }, [version, follow]);

  // Only a person scrolling up stops following; layout shifts and our own scrolling do not.
  const lastGesture = useRef(0);
  const onGesture = () => {
    lastGesture.current = Date.now();
  };
  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
    if (atBottom && !follow) setFollow(true);
    else if (!atBottom && follow && Date.now() - lastGesture.current < 1000) setFollow(false);
  };

  return (
    <Container
      data-testid="operation-log"
      header={
        <Header
          variant="h2"
          description={
            dropped.current > 0
              ? `Showing the last ${LOG_TAIL} lines; ${dropped.current} earlier lines are not shown.`
              : undefined
          }
          actions={
            <SpaceBetween direction="horizontal" size="m">
              <Toggle checked={wrap} onChange={(e) => setWrap(e.detail.checked)} data-testid="operation-log-wrap">
                Wrap lines
              </Toggle>
              <Toggle checked={follow} onChange={(e) => setFollow(e.detail.checked)}>
                Follow
              </Toggle>
            </SpaceBetween>
          }
        >
          Log
        </Header>
      }
    >
      {error ? (
        <Box color="text-status-error">
          <ProblemText error={error} />
        </Box>
      ) : null}
      <div
        ref={scroller}
        onScroll={onScroll}
        onWheel={onGesture}
        onTouchMove={onGesture}
        onKeyDown={onGesture}
        onPointerDown={onGesture}
        tabIndex={0}
        role="log"
        aria-label="Operation log"
        style={{
          maxHeight: 420,
          overflowY: 'auto',
          overflowX: 'auto',
          overflowAnchor: 'none',
          fontFamily: 'Monaco, Menlo, Consolas, monospace',
          fontSize: 12,
          lineHeight: '18px',
        }}
      >
        {loading && lines.current.length === 0 ? (
          <StatusIndicator type="loading">Loading log</StatusIndicator>
        ) : lines.current.length === 0 ? (
          <Box color="text-body-secondary">No log lines yet.</Box>
        ) : (
          lines.current.map((l) => <LogRow key={l.seq} line={l} wrap={wrap} />)
        )}
      </div>
    </Container>
  );
}
