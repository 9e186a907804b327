import { isAllowed, serviceAccountPrincipal } from '../authz.js';
import type { KubeCluster } from '../cluster.js';
import type { KubeObject } from '../types.js';
import { isReady, nodeNameOf, T, type Any } from './util.js';

/**
 * HyperPod's health-monitoring agent on a node, as far as the sandbox plays it: what the agent does
 * on the node when it finds a fault (the health, fault-type and fault-reason labels) happens only
 * while an agent pod runs there that can do it —
 *
 * - its container is the agent (image repository `…/hyperpod-health-monitoring-agent`) and is Ready;
 * - it starts: every flag is one node-problem-detector knows (`--config.system-log-monitor=…`,
 *   `--enable-k8s-exporter=…`, the other `--config.*` monitors, logging flags), or it has none (the
 *   chart's NVIDIA DaemonSet runs the image's own command — assumed to start the system log monitor).
 *   An unknown flag such as `--config.monitor` makes it exit as pflag does (agentFlagError);
 * - its service account may patch nodes (RBAC, checked by the sandbox's authorizer as the API server
 *   would for the agent's own request).
 *
 * Source: aws/sagemaker-hyperpod-cli charts/health-monitoring-agent @ 011ca92 (flags, RBAC, mounts).
 */

const AGENT_REPOSITORY = 'hyperpod-health-monitoring-agent';

const KNOWN_FLAGS = new Set([
  'config.system-log-monitor',
  'config.custom-plugin-monitor',
  'config.system-stats-monitor',
  'enable-k8s-exporter',
  'apiserver-override',
  'hostname-override',
  'k8s-exporter-heartbeat-period',
  'prometheus-address',
  'prometheus-port',
  'address',
  'port',
  'logtostderr',
  'v',
]);

export const isHealthAgentImage = (image: unknown): boolean => {
  const repository = String(image ?? '')
    .replace(/@.*$/, '')
    .replace(/:[^:/]*$/, '');
  return repository.slice(repository.lastIndexOf('/') + 1) === AGENT_REPOSITORY;
};

/** What the agent prints and exits with when a flag is unknown (pflag's ExitOnError); undefined when it starts. */
export function agentFlagError(container: Any): string | undefined {
  for (const arg of [...((container.command ?? []) as unknown[]).slice(1), ...((container.args ?? []) as unknown[])]) {
    const text = String(arg);
    if (!text.startsWith('-')) continue;
    const name = text.replace(/^--?/, '').split('=')[0]!;
    if (!KNOWN_FLAGS.has(name)) return `unknown flag: --${name}`;
  }
  return undefined;
}

/** Whether a working agent runs on `nodeName` and may label it. */
export function agentWatches(cluster: KubeCluster, pods: readonly KubeObject[], nodeName: string): boolean {
  return pods.some((pod) => {
    if (nodeNameOf(pod) !== nodeName || pod.metadata.deletionTimestamp || !isReady(pod)) return false;
    const spec = (pod.spec ?? {}) as Any;
    const agent = ((spec.containers ?? []) as Any[]).find((c) => isHealthAgentImage(c.image));
    if (!agent || agentFlagError(agent)) return false;
    const who = serviceAccountPrincipal(
      pod.metadata.namespace ?? 'default',
      String(spec.serviceAccountName ?? spec.serviceAccount ?? 'default'),
    );
    return isAllowed(cluster, who, 'patch', T.nodes, undefined);
  });
}
