import type { KubeObject } from '../kube-object.js';
import { health, kubeKind, num, parseBase, rec, strings, MANAGED_BY, type KubeHealth, type KubeResource, type Loose } from './kind.js';

/**
 * DaemonSet: the node agents InstantStart installs from manifests (HyperPod's health-monitoring
 * agent, the NVIDIA/Neuron/EFA device plugins) — one pod on every HyperPod node, whatever its health.
 */

export type KubeDaemonSet = KubeResource & {
  spec: Loose & { nodeSelector: Record<string, string> };
  status: Loose & { desired: number; ready: number; updated: number; available: number; observedGeneration?: number };
};

export function parseDaemonSet(raw: unknown): KubeDaemonSet {
  const base = parseBase(raw, { apiVersion: 'apps/v1', kind: 'DaemonSet' });
  const spec = rec(base.spec);
  const status = rec(base.status);
  return {
    ...base,
    spec: { ...spec, nodeSelector: strings(rec(rec(rec(spec.template).spec)).nodeSelector) },
    status: {
      ...status,
      desired: num(status.desiredNumberScheduled) ?? 0,
      ready: num(status.numberReady) ?? 0,
      updated: num(status.updatedNumberScheduled) ?? 0,
      available: num(status.numberAvailable) ?? 0,
      observedGeneration: num(status.observedGeneration),
    },
  };
}

export const DAEMON_SET = kubeKind<KubeDaemonSet>({ apiVersion: 'apps/v1', kind: 'DaemonSet', plural: 'daemonsets', namespaced: true, health: daemonSetHealth }, parseDaemonSet);

/** Agents must keep running on nodes HyperPod marked unhealthy: that is when they matter. */
const TOLERATE_ALL = [{ operator: 'Exists' }];

/** A node agent on the nodes `nodeSelector` picks, system-node-critical, tolerating every taint. */
export function daemonSetManifest(p: { namespace: string; name: string; image: string; nodeSelector: Record<string, string>; serviceAccountName?: string; args?: string[] }): KubeObject {
  const labels = { 'app.kubernetes.io/name': p.name, ...MANAGED_BY };
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: p.name, namespace: p.namespace, labels },
    spec: {
      selector: { matchLabels: { 'app.kubernetes.io/name': p.name } },
      template: {
        metadata: { labels },
        spec: {
          ...(p.serviceAccountName ? { serviceAccountName: p.serviceAccountName } : {}),
          nodeSelector: p.nodeSelector,
          tolerations: TOLERATE_ALL,
          priorityClassName: 'system-node-critical',
          containers: [{ name: p.name, image: p.image, ...(p.args ? { args: p.args } : {}), resources: { requests: { cpu: '10m', memory: '64Mi' } } }],
        },
      },
    },
  };
}

/** Rolled out when the controller saw the latest spec and every scheduled pod is updated and ready; no matching node yet is fine. */
export function daemonSetHealth(ds: KubeDaemonSet): KubeHealth {
  const s = ds.status;
  const what = `DaemonSet ${ds.metadata.namespace ?? ''}/${ds.metadata.name}`;
  if (s.observedGeneration !== undefined && ds.metadata.generation !== undefined && s.observedGeneration < ds.metadata.generation) {
    return health('transitional', 'rolling-out', `${what}: the controller has not seen the latest change yet.`);
  }
  if (s.desired === 0) return health('healthy', 'no-nodes', `${what} runs on no node yet (none matches it); its pods start as nodes join.`);
  if (s.updated < s.desired) return health('transitional', 'rolling-out', `${what}: ${s.updated} of ${s.desired} pods updated.`);
  if (s.ready < s.desired) return health('transitional', 'starting', `${what}: ${s.ready} of ${s.desired} pods ready.`);
  return health('healthy', 'ready', `${what}: all ${s.desired} pods ready.`);
}
