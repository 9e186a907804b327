import Button from '@cloudscape-design/components/button';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import type { StreamStatus } from '@kit/hooks/use-log-stream.js';

/** Where a live log stream is (connecting, reading the tail, following, paused, ended), with a way back when it ended. */
export function LogStreamStatus({
  testId,
  status,
  pending,
  onReconnect,
}: {
  /** Prefix of the test ids: `<testId>-status` (with data-state) and `<testId>-reconnect`. */
  testId: string;
  status: StreamStatus;
  /** Lines waiting while the viewer is paused. */
  pending: number;
  onReconnect(): void;
}) {
  const reconnect = (
    <Button variant="inline-link" onClick={onReconnect} data-testid={`${testId}-reconnect`}>
      Reconnect
    </Button>
  );
  const body = (() => {
    switch (status.state) {
      case 'connecting':
        return <StatusIndicator type="loading">Connecting</StatusIndicator>;
      case 'tail':
        return <StatusIndicator type="loading">Reading the tail</StatusIndicator>;
      case 'following':
        return pending > 0 ? (
          <StatusIndicator type="stopped">{`Paused — ${pending} new lines waiting`}</StatusIndicator>
        ) : (
          <StatusIndicator type="success">Following</StatusIndicator>
        );
      case 'dropped':
        return <StatusIndicator type="warning">{`Dropped: ${status.reason}`}</StatusIndicator>;
      case 'error':
        return <StatusIndicator type="error">{status.message}</StatusIndicator>;
      case 'closed':
        return (
          <StatusIndicator type="stopped">{`Stream ended${status.reason ? `: ${status.reason}` : ''}`}</StatusIndicator>
        );
    }
  })();
  const canReconnect = status.state === 'dropped' || status.state === 'error' || status.state === 'closed';
  return (
    <span data-testid={`${testId}-status`} data-state={status.state}>
      <SpaceBetween direction="horizontal" size="xs">
        {body}
        {canReconnect && reconnect}
      </SpaceBetween>
    </span>
  );
}
