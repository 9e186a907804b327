import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import Header from '@cloudscape-design/components/header';
import { ProblemText } from '@kit/hooks/notifications.js';
import { type EndpointRef, useEndpointLogs } from './api.js';

/** The capped tail of the endpoint's pods' logs, each line with its pod, read again every 10 s. */
export function EndpointLogs({
  cluster,
  region,
  endpoint,
}: {
  cluster: string;
  region: string;
  endpoint: EndpointRef;
}) {
  const logs = useEndpointLogs(cluster, region, endpoint);
  const lines = logs.data ?? [];
  return (
    <Container
      data-testid="inference-logs"
      header={
        <Header
          variant="h2"
          description="The last lines of each pod, refreshed every 10 seconds."
          actions={
            <Button
              iconName="refresh"
              ariaLabel="Refresh logs"
              loading={logs.isFetching}
              onClick={() => void logs.refetch()}
            />
          }
        >
          Logs
        </Header>
      }
    >
      {logs.error ? (
        <Box color="text-status-error">
          <ProblemText error={logs.error} />
        </Box>
      ) : lines.length === 0 ? (
        <Box color="text-status-inactive">{logs.isLoading ? 'Loading logs…' : 'No log lines yet.'}</Box>
      ) : (
        <pre
          data-testid="inference-log-lines"
          data-count={lines.length}
          style={{
            margin: 0,
            maxHeight: 360,
            overflow: 'auto',
            fontSize: 12,
            whiteSpace: 'pre-wrap',
            overflowWrap: 'anywhere',
          }}
        >
          {lines.map((l) => (l.pod ? `[${l.pod}] ${l.text}` : l.text)).join('\n')}
        </pre>
      )}
    </Container>
  );
}
