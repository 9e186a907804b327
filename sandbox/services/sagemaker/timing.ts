import { unitHash } from '../../core/ids.js';

/**
 * How long HyperPod's steps take, in sandbox milliseconds. AWS's durations vary from node to
 * node, so each comes from a stable hash of what it is about (the same node boots in the same time
 * after a sandbox restart): `between(key, lowSeconds, highSeconds)`.
 */
function between(key: string, lowSeconds: number, highSeconds: number): number {
  return Math.round((lowSeconds + unitHash(key) * (highSeconds - lowSeconds)) * 1000);
}

export const durations = {
  /** Cluster-level setup (networking, access entries) before the first instances launch. */
  clusterSetup: (clusterArn: string) => between(`${clusterArn}:setup`, 60, 120),
  /** An instance boots, joins EKS and runs its lifecycle scripts. */
  nodeBoot: (key: string) => between(`${key}:boot`, 240, 420),
  /** OnStartDeepHealthChecks / StartClusterHealthCheck: InstanceStress and InstanceConnectivity. */
  deepHealthCheck: (key: string, checks: number) => between(`${key}:dhc`, 180, 300) * Math.max(1, checks),
  reboot: (key: string) => between(`${key}:reboot`, 90, 180),
  shutdown: (key: string) => between(`${key}:shutdown`, 60, 120),
  /** NodeRecovery Automatic: delay between the fault label and HyperPod's action. */
  recoveryDelay: (key: string) => between(`${key}:recover`, 30, 90),
  /** A replacement waits this long before launching the new instance. */
  replaceLaunch: (key: string) => between(`${key}:replace`, 20, 40),
  /** Minimum time a cluster spends Updating / RollingBack. */
  updateSettle: (key: string) => between(`${key}:update`, 30, 90),
  rollback: (key: string) => between(`${key}:rollback`, 120, 240),
  /** Cluster record disappears this long after its last node is gone. */
  deleteFinish: (key: string) => between(`${key}:delete`, 20, 60),
  /** Continuous mode: retry after a capacity shortfall, backing off to 15 minutes. */
  capacityRetry: (attempt: number) => Math.min(15 * 60_000, 120_000 * 2 ** Math.min(attempt, 4)),
};
