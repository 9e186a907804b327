import { InputError } from './errors.js';
import {
  NODE_HEALTH_LABEL,
  DEEP_HEALTH_CHECK_LABEL,
  FAULT_TYPE_LABEL,
  FAULT_REASON_LABEL,
  INSTANCE_GROUP_LABEL,
  type NodeHealthState,
  type SuggestedAction,
  type NodeHealth,
  type Timestamp,
  type SageMakerNodeFacts,
  type KubeNodeFacts,
  type NodeHealthInput,
} from './node-health-terms.js';

/**
 * One health view of a HyperPod node, shared by REST, MCP and the UI (Headlamp's `health()` idea):
 * SageMaker's InstanceStatus and the Kubernetes Node HyperPod's agents label (hyperpod-apis.md §4)
 * become a state, one sentence a person understands and the next step of the escalation
 * investigate → reboot → replace. Every face shows this verdict; none re-derives it. The words it is
 * said in (labels, statuses, the verdict's schema, the facts) are in node-health-terms.ts.
 */

/** How long a running instance may take to register as a Node before we call it stuck. */
export const REGISTRATION_GRACE_MS = 15 * 60_000;
/** A launch that still pends after this long deserves a look at the cluster events (capacity, lifecycle script). */
export const LAUNCH_TOO_LONG_MS = 45 * 60_000;

const PRESSURE_CONDITIONS = ['MemoryPressure', 'DiskPressure', 'PIDPressure', 'NetworkUnavailable'];

const verdict = (
  state: NodeHealthState,
  code: string,
  reason: string,
  suggestedAction: SuggestedAction,
): NodeHealth => ({ state, code, reason, suggestedAction });

function ms(t: Timestamp | undefined): number | undefined {
  if (t === undefined) return undefined;
  const n = t instanceof Date ? t.getTime() : typeof t === 'number' ? t : Date.parse(t);
  return Number.isFinite(n) ? n : undefined;
}

/** "12 minutes", "3 hours": how long a state has lasted, for the sentence. */
export function formatDuration(millis: number): string {
  const minutes = Math.max(0, Math.floor(millis / 60_000));
  if (minutes < 1) return 'less than a minute';
  if (minutes < 120) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.floor(minutes / 60);
  return hours < 48 ? `${hours} hours` : `${Math.floor(hours / 24)} days`;
}

/** The fault labels as words: the agent writes label-safe values such as `Xid_79_GPU_fallen_off`. */
function faultOf(labels: Record<string, string>): string | undefined {
  const reason = labels[FAULT_REASON_LABEL]?.replace(/_+/g, ' ').trim();
  const type = labels[FAULT_TYPE_LABEL]?.replace(/_+/g, ' ').trim();
  if (reason && type) return `${type}: ${reason}`;
  return reason || type || undefined;
}

/**
 * The node's health verdict. Order matters: what SageMaker says of the instance first (it is the
 * truth for launches, reboots and replacements), then HyperPod's labels, then Kubernetes' own view.
 *
 * @example
 * nodeHealth({
 *   sagemaker: { instanceId: 'i-0abc', instanceStatus: { status: 'Running' } },
 *   kube: { name: 'hyperpod-i-0abc', labels: { 'sagemaker.amazonaws.com/node-health-status':
 * 'UnschedulablePendingReboot' } },
 *   now: Date.now(),
 * });
 * // → { state: 'failed', code: 'pending-reboot', suggestedAction: 'reboot', reason: 'HyperPod found a fault and marked
 * the node for a reboot; …' }
 */
export function nodeHealth(input: NodeHealthInput): NodeHealth {
  const { sagemaker, kube } = input;
  const now = ms(input.now);
  if (now === undefined) throw InputError.field('now', 'must be a valid time');
  if (!sagemaker && !kube)
    throw new InputError({ message: 'A node needs SageMaker or Kubernetes facts to judge its health.' });
  const labels = kube?.labels ?? {};
  if (sagemaker) {
    const fromInstance = instanceVerdict(sagemaker, labels, now);
    if (fromInstance) return fromInstance;
    if (!kube) return missingInKubernetes(sagemaker, now);
  } else if (
    !input.kubernetesOnly &&
    (labels[NODE_HEALTH_LABEL] !== undefined || labels[INSTANCE_GROUP_LABEL] !== undefined)
  ) {
    // A HyperPod-labelled Node whose instance HyperPod no longer lists: terminated, its Node left behind.
    return verdict(
      'degraded',
      'instance-missing',
      `Kubernetes still has node ${kube!.name}, but HyperPod no longer lists its instance; it was probably terminated and the Node object is left over.`,
      'investigate',
    );
  }
  return labelVerdict(labels, input.nodeRecovery) ?? kubeVerdict(kube!, labels, now);
}

/** SageMaker's InstanceStatus; undefined when the instance runs and the labels/conditions decide. */
function instanceVerdict(sm: SageMakerNodeFacts, labels: Record<string, string>, now: number): NodeHealth | undefined {
  const message = sm.instanceStatus.message?.trim();
  const said = message ? ` (SageMaker: "${message}")` : '';
  const health = labels[NODE_HEALTH_LABEL];
  switch (sm.instanceStatus.status) {
    case 'Running':
      return undefined;
    case 'Pending': {
      if (health === 'UnschedulablePendingReplacement' || /replac/i.test(message ?? '')) {
        return verdict(
          'transitional',
          'replacing',
          `HyperPod is replacing the instance with fresh hardware${said}; it rejoins under a new instance id.`,
          'none',
        );
      }
      if (health === 'UnschedulablePendingReboot' || /reboot/i.test(message ?? '')) {
        return verdict(
          'transitional',
          'rebooting',
          `The instance is rebooting${said}; it takes work again once it is back and Ready.`,
          'none',
        );
      }
      const launched = ms(sm.launchTime);
      if (launched !== undefined && now - launched > LAUNCH_TOO_LONG_MS) {
        return verdict(
          'degraded',
          'launch-slow',
          `The instance has been pending for ${formatDuration(now - launched)}${said}; check the cluster events for capacity or lifecycle-script errors.`,
          'investigate',
        );
      }
      return verdict(
        'transitional',
        'launching',
        `The instance is launching and running its lifecycle script${said}.`,
        'none',
      );
    }
    case 'DeepHealthCheckInProgress':
      return verdict(
        'transitional',
        'deep-health-check-running',
        'Deep health checks (GPU stress, EFA connectivity) are running; the node takes work once they pass.',
        'none',
      );
    case 'SystemUpdating':
      return verdict(
        'transitional',
        'system-updating',
        `HyperPod is updating the node's software (AMI patch)${said}; it takes work again when the update ends.`,
        'none',
      );
    case 'ShuttingDown':
      return verdict(
        'transitional',
        'shutting-down',
        'The instance is shutting down (scale-in, deletion or replacement).',
        'none',
      );
    case 'NotFound':
      return verdict(
        'failed',
        'instance-not-found',
        `SageMaker can no longer find the instance${said}; look at the cluster events before acting.`,
        'investigate',
      );
    case 'Failure': {
      const recovery = recoveryAction(health);
      if (recovery)
        return verdict(
          'failed',
          'instance-failed',
          `The instance failed${said} and HyperPod marked it for a ${recovery}.`,
          recovery,
        );
      return verdict(
        'failed',
        'instance-failed',
        `The instance failed${said}; read the message and the cluster events before rebooting.`,
        'investigate',
      );
    }
    default:
      return verdict(
        'degraded',
        'unknown-instance-status',
        `SageMaker reports an instance status this server does not know: ${sm.instanceStatus.status}${said}.`,
        'investigate',
      );
  }
}

function recoveryAction(health: string | undefined): 'reboot' | 'replace' | undefined {
  if (health === 'UnschedulablePendingReboot') return 'reboot';
  if (health === 'UnschedulablePendingReplacement') return 'replace';
  return undefined;
}

/** A running instance not (yet) in Kubernetes: registering within the grace time, stuck after it. */
function missingInKubernetes(sm: SageMakerNodeFacts, now: number): NodeHealth {
  const launched = ms(sm.launchTime);
  if (launched === undefined || now - launched <= REGISTRATION_GRACE_MS) {
    return verdict('transitional', 'registering', 'The instance runs and is joining Kubernetes.', 'none');
  }
  return verdict(
    'failed',
    'not-in-kubernetes',
    `The instance has run for ${formatDuration(now - launched)} but never joined Kubernetes; check its lifecycle-script log and the cluster's EKS access entry.`,
    'investigate',
  );
}

/** HyperPod's health and deep-health-check labels; undefined when they say the node may take work. */
function labelVerdict(
  labels: Record<string, string>,
  nodeRecovery: 'Automatic' | 'None' | undefined,
): NodeHealth | undefined {
  const health = labels[NODE_HEALTH_LABEL];
  const dhc = labels[DEEP_HEALTH_CHECK_LABEL];
  const fault = faultOf(labels);
  const cause = fault ? ` (${fault})` : dhc === 'Failed' ? ' (deep health checks failed)' : '';
  const recovery = recoveryAction(health);
  if (recovery) {
    const code = recovery === 'reboot' ? 'pending-reboot' : 'pending-replacement';
    if (nodeRecovery === 'Automatic') {
      return verdict(
        'failed',
        code,
        `HyperPod found a fault${cause} and will ${recovery} the node itself (node recovery is Automatic).`,
        'none',
      );
    }
    const whose =
      nodeRecovery === 'None' ? 'node recovery is None, so you must' : 'unless node recovery is Automatic, you must';
    return verdict(
      'failed',
      code,
      `HyperPod found a fault${cause} and marked the node for a ${recovery}; ${whose} ${recovery} it.`,
      recovery,
    );
  }
  if (dhc === 'InProgress')
    return verdict(
      'transitional',
      'deep-health-check-running',
      'Deep health checks (GPU stress, EFA connectivity) are running; the node takes work once they pass.',
      'none',
    );
  if (dhc === 'Failed')
    return verdict(
      'failed',
      'deep-health-check-failed',
      `Deep health checks failed${fault ? ` (${fault})` : ''}; read /var/log/aws/clusters/sagemaker-deep-health-check.log or the DeepHealthCheckResults log stream before rebooting.`,
      'investigate',
    );
  if (health === 'Unschedulable') {
    return verdict(
      'degraded',
      'unschedulable',
      `HyperPod marks the node Unschedulable${cause} while no deep health check runs; look at the node's events and the health-monitoring agent's log.`,
      'investigate',
    );
  }
  if (health !== undefined && health !== 'Schedulable') {
    return verdict(
      'degraded',
      'unknown-health-label',
      `The node's health label has a value this server does not know: ${health}${cause}.`,
      'investigate',
    );
  }
  return undefined;
}

/** Kubernetes' own view: Ready, pressure conditions, cordon; healthy when nothing is wrong. */
function kubeVerdict(kube: KubeNodeFacts, labels: Record<string, string>, now: number): NodeHealth {
  const conditions = kube.conditions ?? [];
  const ready = conditions.find((c) => c.type === 'Ready');
  if (!ready)
    return verdict(
      'transitional',
      'registering',
      `Node ${kube.name} has registered; the kubelet has not reported Ready yet.`,
      'none',
    );
  if (ready.status !== 'True') {
    const since = ms(ready.lastTransitionTime);
    const lasting = since !== undefined ? ` for ${formatDuration(now - since)}` : '';
    const why = ready.message || ready.reason;
    return verdict(
      'failed',
      'not-ready',
      `Kubernetes reports the node NotReady${lasting}${why ? ` (${why})` : ''}; look at the kubelet and the node's events before rebooting.`,
      'investigate',
    );
  }
  const pressure = conditions
    .filter((c) => PRESSURE_CONDITIONS.includes(c.type) && c.status === 'True')
    .map((c) => c.type);
  if (pressure.length > 0) {
    return verdict(
      'degraded',
      'pressure',
      `The node is Ready but reports ${pressure.join(' and ')}; Kubernetes may evict pods until it clears.`,
      'investigate',
    );
  }
  const fault = faultOf(labels);
  if (fault)
    return verdict(
      'degraded',
      'fault-reported',
      `The node is schedulable but carries a fault label (${fault}); watch it and look at the health-monitoring agent's log.`,
      'investigate',
    );
  if (kube.unschedulable)
    return verdict(
      'degraded',
      'cordoned',
      'The node is healthy but cordoned, so it takes no new pods; uncordon it when it should take work again.',
      'none',
    );
  const passed = labels[DEEP_HEALTH_CHECK_LABEL] === 'Passed' ? ', and passed its deep health checks' : '';
  return verdict('healthy', 'healthy', `The node is Ready and schedulable${passed}.`, 'none');
}
