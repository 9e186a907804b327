import type { KubePod } from '../kube/pod.js';

/**
 * Why a job's pods wait for a node, from the live cluster: the pods that are Pending and not bound
 * to a node, the scheduler's FailedScheduling events about them, and what the nodes advertise. A
 * GPU, Neuron or EFA resource no node advertises at all means its device plugin is not running
 * (a node advertises those only once the plugin registers over /var/lib/kubelet/device-plugins);
 * otherwise the scheduler's own words are the reason.
 */

/** The plugin that makes a node advertise each extended resource (HyperPod's dependencies chart, node-agents.ts). */
const PLUGINS: Readonly<Record<string, { plugin: string; daemonSet: string }>> = {
  'nvidia.com/gpu': { plugin: 'NVIDIA device plugin', daemonSet: 'kube-system/nvidia-device-plugin-daemonset' },
  'vpc.amazonaws.com/efa': { plugin: 'EFA device plugin', daemonSet: 'kube-system/aws-efa-k8s-device-plugin' },
  'aws.amazon.com/neuron': { plugin: 'Neuron device plugin', daemonSet: 'kube-system/neuron-device-plugin' },
  'aws.amazon.com/neuroncore': { plugin: 'Neuron device plugin', daemonSet: 'kube-system/neuron-device-plugin' },
  'aws.amazon.com/neurondevice': { plugin: 'Neuron device plugin', daemonSet: 'kube-system/neuron-device-plugin' },
};

/** The pods waiting for a node: Pending, not bound, not going. */
export const unscheduledPods = (pods: readonly KubePod[]): KubePod[] =>
  pods.filter((p) => p.status.phase === 'Pending' && !p.spec.nodeName && !p.metadata.deletionTimestamp);

export interface SchedulingFacts {
  /** The job's pods. */
  pods: readonly KubePod[];
  /** Events about them (the job view's: `object` is `Pod/<name>`), newest first. */
  events: ReadonlyArray<{ reason: string; message: string; object: string }>;
  /** What each node can give pods (status.allocatable). */
  nodes: ReadonlyArray<{ allocatable: Record<string, string> }>;
}

/**
 * The sentence that says why the job's pods are not placed, or undefined when none waits.
 *
 * @example
 * pendingReason({ pods, events, nodes }) // 'No node advertises nvidia.com/gpu: the NVIDIA device plugin … is not
 * running …'
 */
export function pendingReason(facts: SchedulingFacts): string | undefined {
  const waiting = unscheduledPods(facts.pods);
  if (waiting.length === 0) return undefined;
  const names = new Set(waiting.map((p) => `Pod/${p.metadata.name}`));
  const scheduler = facts.events.find((e) => e.reason === 'FailedScheduling' && names.has(e.object));
  const said = scheduler ? ` The scheduler: "${scheduler.message}"` : '';
  const asked = [...new Set(waiting.flatMap((p) => Object.keys(p.spec.extendedAsks)))].sort();
  const advertised = (resource: string) => facts.nodes.some((n) => Number(n.allocatable[resource] ?? 0) > 0);
  const missing = asked.filter((r) => !advertised(r));
  const count = `${waiting.length} pod${waiting.length === 1 ? '' : 's'}`;
  if (missing.length > 0) {
    const plugins = [
      ...new Map(missing.filter((r) => PLUGINS[r]).map((r) => [PLUGINS[r]!.daemonSet, PLUGINS[r]!])).values(),
    ];
    const why = plugins.length
      ? ` — the ${plugins.map((p) => `${p.plugin} (DaemonSet ${p.daemonSet})`).join(' and ')} ${plugins.length === 1 ? 'is' : 'are'} not running on the nodes ` +
        '(a node advertises these only while its device plugin is registered; the device-plugins feature installs them)'
      : '';
    return `${count} wait for a node: no node advertises ${missing.join(', ')}${why}.${said}`;
  }
  return scheduler ? `${count} wait for a node.${said}` : `${count} wait for the scheduler to place them.`;
}
