import type { KubeObject } from '../kube-object.js';
import {
  health,
  kubeKind,
  list,
  num,
  parseBase,
  rec,
  str,
  strings,
  MANAGED_BY,
  type KubeHealth,
  type KubeResource,
  type Loose,
} from './kind.js';

/**
 * DaemonSet: the node agents InstantStart installs from manifests (HyperPod's health-monitoring
 * agent, the NVIDIA/Neuron/EFA device plugins) — one pod on every node its selector and required
 * node affinity pick, as HyperPod's dependencies chart schedules them (cluster-dependencies.ts).
 */

/** One `requiredDuringScheduling…` term: every expression must hold (terms are ORed). */
export type NodeSelectorExpression = { key: string; operator: string; values: string[] };

export type KubeDaemonSet = KubeResource & {
  spec: Loose & { nodeSelector: Record<string, string>; affinityTerms: NodeSelectorExpression[][] };
  status: Loose & { desired: number; ready: number; updated: number; available: number; observedGeneration?: number };
};

function affinityTerms(podSpec: Loose): NodeSelectorExpression[][] {
  const required = rec(rec(rec(podSpec.affinity).nodeAffinity).requiredDuringSchedulingIgnoredDuringExecution);
  return list(required.nodeSelectorTerms).map((t) =>
    list(rec(t).matchExpressions)
      .map(rec)
      .filter((e) => typeof e.key === 'string' && typeof e.operator === 'string')
      .map((e) => ({
        key: e.key as string,
        operator: e.operator as string,
        values: list(e.values).filter((v): v is string => typeof v === 'string'),
      })),
  );
}

export function parseDaemonSet(raw: unknown): KubeDaemonSet {
  const base = parseBase(raw, { apiVersion: 'apps/v1', kind: 'DaemonSet' });
  const spec = rec(base.spec);
  const status = rec(base.status);
  const podSpec = rec(rec(spec.template).spec);
  return {
    ...base,
    spec: { ...spec, nodeSelector: strings(podSpec.nodeSelector), affinityTerms: affinityTerms(podSpec) },
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

export const DAEMON_SET = kubeKind<KubeDaemonSet>(
  { apiVersion: 'apps/v1', kind: 'DaemonSet', plural: 'daemonsets', namespaced: true, health: daemonSetHealth },
  parseDaemonSet,
);

/**
 * A node agent: the pod spec as its chart writes it (containers, volumes, tolerations, affinity,
 * priority class, …), under our selector label. The selector is immutable once applied, so it
 * stays `app.kubernetes.io/name: <name>` whatever the chart calls its own.
 */
export function daemonSetManifest(p: { namespace: string; name: string; podSpec: Loose }): KubeObject {
  const labels = { 'app.kubernetes.io/name': p.name, ...MANAGED_BY };
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: p.name, namespace: p.namespace, labels },
    spec: {
      selector: { matchLabels: { 'app.kubernetes.io/name': p.name } },
      updateStrategy: { type: 'RollingUpdate' },
      template: { metadata: { labels }, spec: p.podSpec },
    },
  };
}

/** Rolled out when the controller saw the latest spec and every scheduled pod is updated and ready; no matching node yet is fine here (daemonSetCoverage judges that against the nodes). */
export function daemonSetHealth(ds: KubeDaemonSet): KubeHealth {
  const s = ds.status;
  const what = `DaemonSet ${ds.metadata.namespace ?? ''}/${ds.metadata.name}`;
  if (
    s.observedGeneration !== undefined &&
    ds.metadata.generation !== undefined &&
    s.observedGeneration < ds.metadata.generation
  ) {
    return health('transitional', 'rolling-out', `${what}: the controller has not seen the latest change yet.`);
  }
  if (s.desired === 0)
    return health(
      'healthy',
      'no-nodes',
      `${what} runs on no node yet (none matches it); its pods start as nodes join.`,
    );
  if (s.updated < s.desired)
    return health('transitional', 'rolling-out', `${what}: ${s.updated} of ${s.desired} pods updated.`);
  if (s.ready < s.desired) return health('transitional', 'starting', `${what}: ${s.ready} of ${s.desired} pods ready.`);
  return health('healthy', 'ready', `${what}: all ${s.desired} pods ready.`);
}

const expressionHolds = (e: NodeSelectorExpression, labels: Record<string, string>): boolean => {
  const has = Object.hasOwn(labels, e.key);
  switch (e.operator) {
    case 'In':
      return has && e.values.includes(labels[e.key]!);
    case 'NotIn':
      return !has || !e.values.includes(labels[e.key]!);
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
    default:
      return false; // Gt/Lt: not used by the agents we ship
  }
};

/** Whether the DaemonSet's required node affinity admits a node with these labels (no terms: every node). */
export const affinityAdmits = (ds: KubeDaemonSet, labels: Record<string, string>): boolean =>
  ds.spec.affinityTerms.length === 0 ||
  ds.spec.affinityTerms.some((term) => term.every((e) => expressionHolds(e, labels)));

/** Whether the DaemonSet's nodeSelector matches a node with these labels. */
export const nodeSelectorMatches = (ds: KubeDaemonSet, labels: Record<string, string>): boolean =>
  Object.entries(ds.spec.nodeSelector).every(([k, v]) => Object.hasOwn(labels, k) && labels[k] === v);

const selectorText = (sel: Record<string, string>) =>
  Object.entries(sel)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');

/**
 * A DaemonSet judged against the nodes it is for — the HyperPod nodes (`nodes`, found by a label
 * other than the one it selects on) whose type its required affinity admits: running on none of
 * them is a failure that names what matched nothing (the nodeSelector, or else the nodes' taints),
 * never "healthy". With no such node, its kind's own health() stands.
 *
 * @example
 * daemonSetCoverage(ds, [{ name: 'hyperpod-i-0a', labels: { 'sagemaker.amazonaws.com/compute-type': 'hyperpod', … } }])
 */
export function daemonSetCoverage(
  ds: KubeDaemonSet,
  nodes: ReadonlyArray<{ name: string; labels: Record<string, string> }>,
): KubeHealth {
  const own = daemonSetHealth(ds);
  const meantFor = nodes.filter((n) => affinityAdmits(ds, n.labels));
  if (meantFor.length === 0 || ds.status.desired > 0 || own.code === 'rolling-out') return own;
  const what = `DaemonSet ${ds.metadata.namespace ?? ''}/${ds.metadata.name}`;
  const count = `${meantFor.length} HyperPod node${meantFor.length === 1 ? '' : 's'} it is for (${meantFor.map((n) => n.name).join(', ')})`;
  const unmatched = meantFor.filter((n) => !nodeSelectorMatches(ds, n.labels));
  if (unmatched.length > 0) {
    const shown = unmatched[0]!.labels;
    const mismatch = Object.entries(ds.spec.nodeSelector)
      .filter(([k, v]) => shown[k] !== v)
      .map(([k]) => `${k}=${str(shown[k]) ?? '(absent)'}`)
      .join(', ');
    return health(
      'failed',
      'selects-no-node',
      `${what} runs on no node: its nodeSelector ${selectorText(ds.spec.nodeSelector)} matches none of the ${count}; they carry ${mismatch}.`,
    );
  }
  return health(
    'failed',
    'selects-no-node',
    `${what} runs on no node: the ${count} match its selector, but it tolerates none of their taints.`,
  );
}
