import Box from '@cloudscape-design/components/box';
import StatusIndicator, { type StatusIndicatorProps } from '@cloudscape-design/components/status-indicator';
import type { NodeHealthState, NodeView } from '@kit/api/types.js';

/** The one health verdict the server gives each node, drawn the same way everywhere in the UI. */

export const HEALTH_STATES: readonly NodeHealthState[] = ['healthy', 'degraded', 'failed', 'transitional'];

const INDICATOR: Record<NodeHealthState, StatusIndicatorProps.Type> = {
  healthy: 'success',
  degraded: 'warning',
  failed: 'error',
  transitional: 'in-progress',
};

export const HEALTH_LABEL: Record<NodeHealthState, string> = {
  healthy: 'Healthy',
  degraded: 'Degraded',
  failed: 'Failed',
  transitional: 'Transitional',
};

const SUGGESTED: Record<NodeView['health']['suggestedAction'], string> = {
  investigate: 'Investigate',
  reboot: 'Reboot',
  replace: 'Replace',
  none: '—',
};

export function NodeHealthIndicator({ state }: { state: NodeHealthState }) {
  return <StatusIndicator type={INDICATOR[state] ?? 'info'}>{HEALTH_LABEL[state] ?? state}</StatusIndicator>;
}

export const suggestedActionLabel = (a: NodeView['health']['suggestedAction']) => SUGGESTED[a] ?? a;

/**
 * The escalation order of node remedies, with the step at hand in bold:
 * investigate → reboot → replace (delete only gives capacity back).
 */
export function EscalationOrder({
  current,
}: {
  current?: 'investigate' | 'reboot' | 'replace' | 'delete' | 'deep-health-check';
}) {
  const step = current === 'deep-health-check' ? 'investigate' : current;
  const steps = ['investigate', 'reboot', 'replace'] as const;
  return (
    <Box variant="p" data-testid="node-escalation">
      Escalate in order:{' '}
      {steps.map((s, i) => (
        <span key={s}>
          {i > 0 && ' → '}
          {s === step ? <b>{s}</b> : s}
        </span>
      ))}
      . Investigate first (node detail, events); reboot keeps the instance and its volumes; replace only when a reboot
      did not help.
      {current === 'delete' && ' Delete heals nothing: it only gives capacity back.'}
    </Box>
  );
}
