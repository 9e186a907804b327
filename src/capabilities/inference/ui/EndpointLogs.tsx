import Box from '@cloudscape-design/components/box';
import Container from '@cloudscape-design/components/container';
import Header from '@cloudscape-design/components/header';
import { LogStreamStatus } from '@kit/components/LogStreamStatus.js';
import { useLogStream } from '@kit/hooks/use-log-stream.js';
import type { ViewLine } from '@kit/lib/log-buffer.js';
import { useLayoutEffect, useMemo, useRef } from 'react';
import { type EndpointRef, endpointLogsFollowPath, LOG_TAIL_LINES } from './api.js';

/**
 * Lines the panel keeps (the newest). A plain <pre> draws them all, so fewer than training's virtualised viewer:
 * an endpoint's logs are start-up lines and requests, read here to see it come up or fail.
 */
const CAPACITY = 5000;

/** Each line with its pod (an endpoint's replicas print the same lines); the viewer's own notes as they are. */
const shown = (l: ViewLine) => (l.note || !l.pod ? l.text : `[${l.pod}] ${l.text}`);

/** The endpoint's pods' logs, followed live: each pod's tail, then new lines as they come, each with its pod. */
export function EndpointLogs({
  cluster,
  region,
  endpoint,
}: {
  cluster: string;
  region: string;
  endpoint: EndpointRef;
}) {
  const path = endpointLogsFollowPath(cluster, region, endpoint);
  const stream = useLogStream({ path, capacity: CAPACITY });
  const { ring, version } = stream;
  // The ring is mutated in place; `version` says it changed.
  const text = useMemo(() => {
    const out: string[] = [];
    for (let i = 0; i < ring.length; i++) {
      const l = ring.at(i);
      if (l) out.push(shown(l));
    }
    return out.join('\n');
  }, [ring, version]);

  // Stay at the bottom as lines come, unless the reader scrolled up to read.
  const pre = useRef<HTMLPreElement>(null);
  const atBottom = useRef(true);
  // Runs when the text grows.
  useLayoutEffect(() => {
    const el = pre.current;
    if (el && atBottom.current) el.scrollTop = el.scrollHeight;
  }, [text]);

  const held = ring.length - ring.notes;
  return (
    <Container
      data-testid="inference-logs"
      header={
        <Header
          variant="h2"
          description={`The last ${LOG_TAIL_LINES} lines of each pod, then new lines live; the newest ${CAPACITY.toLocaleString()} are kept${ring.evicted ? ` (${ring.evicted.toLocaleString()} older dropped)` : ''}.`}
          actions={
            <LogStreamStatus
              testId="inference-logs"
              status={stream.status}
              pending={stream.pending}
              onReconnect={stream.reconnect}
            />
          }
        >
          Logs
        </Header>
      }
    >
      {ring.length === 0 ? (
        <Box color="text-status-inactive">
          {stream.status.state === 'connecting' || stream.status.state === 'tail'
            ? 'Loading logs…'
            : 'No log lines yet.'}
        </Box>
      ) : (
        <pre
          ref={pre}
          data-testid="inference-log-lines"
          data-count={held}
          onScroll={(e) => {
            const el = e.currentTarget;
            atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 8;
          }}
          style={{
            margin: 0,
            maxHeight: 360,
            overflow: 'auto',
            fontSize: 12,
            whiteSpace: 'pre-wrap',
            overflowWrap: 'anywhere',
          }}
        >
          {text}
        </pre>
      )}
    </Container>
  );
}
