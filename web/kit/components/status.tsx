import StatusIndicator, { type StatusIndicatorProps } from '@cloudscape-design/components/status-indicator';
import type { OperationStatus, PhaseStatus } from '@kit/api/types.js';

type Kind = StatusIndicatorProps.Type;

const CLUSTER: Record<string, Kind> = {
  InService: 'success',
  Creating: 'in-progress',
  Updating: 'in-progress',
  SystemUpdating: 'in-progress',
  Deleting: 'in-progress',
  RollingBack: 'warning',
  Failed: 'error',
  DeleteFailed: 'error',
};

const OPERATION: Record<OperationStatus, Kind> = {
  pending: 'pending',
  running: 'in-progress',
  succeeded: 'success',
  failed: 'error',
  cancelling: 'loading',
  cancelled: 'stopped',
};

const PHASE: Record<PhaseStatus, Kind> = {
  pending: 'pending',
  observing: 'loading',
  acting: 'in-progress',
  awaiting: 'in-progress',
  succeeded: 'success',
  skipped: 'info',
  failed: 'error',
  cancelled: 'stopped',
};

const PHASE_LABEL: Record<PhaseStatus, string> = {
  pending: 'Pending',
  observing: 'Observing',
  acting: 'Acting',
  awaiting: 'Waiting',
  succeeded: 'Succeeded',
  skipped: 'Already done',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

export const isPhaseRunning = (s: PhaseStatus) => s === 'observing' || s === 'acting' || s === 'awaiting';

// wrapText={false}: a status word never breaks mid-word in a narrow column ("InServi/ce").
export function ClusterStatus({ status }: { status: string }) {
  return (
    <StatusIndicator type={CLUSTER[status] ?? 'info'} wrapText={false}>
      {status}
    </StatusIndicator>
  );
}

export function OperationStatusIndicator({ status }: { status: OperationStatus }) {
  return (
    <StatusIndicator type={OPERATION[status] ?? 'info'} wrapText={false}>
      {status[0]!.toUpperCase() + status.slice(1)}
    </StatusIndicator>
  );
}

export function PhaseStatusIndicator({ status }: { status: PhaseStatus }) {
  return (
    <StatusIndicator type={PHASE[status] ?? 'info'} wrapText={false}>
      {PHASE_LABEL[status] ?? status}
    </StatusIndicator>
  );
}
