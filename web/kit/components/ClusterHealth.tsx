import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Popover from '@cloudscape-design/components/popover';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator, { type StatusIndicatorProps } from '@cloudscape-design/components/status-indicator';
import type { ClusterHealth, GroupShortfall } from '@kit/api/types.js';

/**
 * A cluster's rolled-up health (nodes and instance groups), drawn the same way on the clusters list,
 * the cluster header and its overview; and the groups short of their target, with AWS's reason.
 * The verdict is the server's (src/domain/cluster-health.ts): nothing is re-derived here.
 */

const INDICATOR: Record<ClusterHealth['state'], StatusIndicatorProps.Type> = {
  healthy: 'success',
  degraded: 'warning',
  failed: 'error',
  transitional: 'in-progress',
};

const LABEL: Record<ClusterHealth['state'], string> = {
  healthy: 'Healthy',
  degraded: 'Degraded',
  failed: 'Node failed',
  transitional: 'Changing',
};

/** "1 failed · 1 short" — what needs a look, at a glance. */
function shortLabel(h: ClusterHealth): string {
  const parts = [
    h.nodes.failed ? `${h.nodes.failed} failed` : '',
    h.nodes.degraded ? `${h.nodes.degraded} degraded` : '',
    ...h.shortfalls.map((s) => `${s.instanceGroupName} ${s.launched}/${s.targetCount}`),
  ].filter(Boolean);
  return parts.length ? `${LABEL[h.state]} (${parts.join(' · ')})` : LABEL[h.state];
}

/** The health verdict in one word or two, its sentence in a popover. `—` when the server gave none. */
export function ClusterHealthBadge({ health, testId }: { health: ClusterHealth | undefined; testId: string }) {
  if (!health)
    return (
      <span data-testid={testId} data-state="none">
        —
      </span>
    );
  return (
    <span data-testid={testId} data-state={health.state}>
      <Popover
        header="Cluster health"
        content={<ClusterHealthDetails health={health} />}
        dismissButton={false}
        size="large"
      >
        <StatusIndicator type={INDICATOR[health.state]}>{shortLabel(health)}</StatusIndicator>
      </Popover>
    </span>
  );
}

/** The sentence, the node counts and every group short of its target. */
export function ClusterHealthDetails({ health }: { health: ClusterHealth }) {
  const n = health.nodes;
  return (
    <SpaceBetween size="xs">
      <Box data-testid="cluster-health-summary">{health.summary}</Box>
      <Box color="text-body-secondary" fontSize="body-s">
        {`${n.total} nodes: ${n.healthy} healthy, ${n.degraded} degraded, ${n.failed} failed, ${n.transitional} changing`}
      </Box>
      {health.shortfalls.map((s) => (
        <ShortfallLine key={s.instanceGroupName} s={s} />
      ))}
    </SpaceBetween>
  );
}

function ShortfallLine({ s }: { s: GroupShortfall }) {
  return (
    <Box data-testid={`shortfall-${s.instanceGroupName}`} data-state={s.state}>
      <StatusIndicator type={s.state === 'waiting' ? 'warning' : 'in-progress'}>
        {`Group ${s.instanceGroupName}: ${s.launched} of ${s.targetCount} ${s.instanceType} launched, ${s.missing} ${s.state === 'waiting' ? 'waiting' : 'launching'}`}
      </StatusIndicator>
      {s.reason && (
        <Box fontSize="body-s" data-testid={`shortfall-reason-${s.instanceGroupName}`}>
          {s.reason}
        </Box>
      )}
      {s.unlaunched.length > 0 && (
        <Box fontSize="body-s" color="text-body-secondary">
          {`Unlaunched slots: ${s.unlaunched.map((u) => `${u.nodeLogicalId} (${u.status}${u.message ? `: ${u.message}` : ''})`).join('; ')}`}
        </Box>
      )}
    </Box>
  );
}

/** Above a node or group table: the groups short of their target, or nothing. */
export function ShortfallAlert({ shortfalls }: { shortfalls: GroupShortfall[] | undefined }) {
  if (!shortfalls?.length) return null;
  const waiting = shortfalls.some((s) => s.state === 'waiting');
  return (
    <Box margin={{ bottom: 's' }}>
      <Alert
        type={waiting ? 'warning' : 'info'}
        header={waiting ? 'Instances missing: HyperPod cannot launch them now' : 'Instances being launched'}
        data-testid="shortfall-alert"
      >
        <SpaceBetween size="xs">
          {shortfalls.map((s) => (
            <ShortfallLine key={s.instanceGroupName} s={s} />
          ))}
          {waiting && (
            <Box fontSize="body-s">
              HyperPod retries on its own. No node action fixes missing capacity: wait, or scale the group down, or add
              a group in another Availability Zone, with another instance type or on a training plan.
            </Box>
          )}
        </SpaceBetween>
      </Alert>
    </Box>
  );
}

/** In a group's row: how many instances are missing, the reason in a popover. */
export function GroupShortfallNote({ shortfall: s }: { shortfall: GroupShortfall }) {
  const label = `${s.missing} not launched${s.state === 'waiting' ? ' (waiting)' : ''}`;
  return (
    <span data-testid={`group-shortfall-${s.instanceGroupName}`} data-state={s.state}>
      <Popover
        header={`Group ${s.instanceGroupName} is short`}
        content={<ShortfallLine s={s} />}
        dismissButton={false}
        size="large"
      >
        <StatusIndicator type={s.state === 'waiting' ? 'warning' : 'in-progress'}>{label}</StatusIndicator>
      </Popover>
    </span>
  );
}
