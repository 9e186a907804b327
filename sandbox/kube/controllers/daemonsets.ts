import type { KubeCluster } from '../cluster.js';
import type { KubeObject } from '../types.js';
import { recordEvent } from './events.js';
import { podFromTemplate, templateHash } from './pod-template.js';
import { isAvailable } from './replicasets.js';
import { nodeAffinityMatches, untoleratedTaint } from './scheduler-filters.js';
import {
  byController,
  dependentsOf,
  isActive,
  isReady,
  nodeNameOf,
  removeIfPresent,
  save,
  T,
  type Any,
} from './util.js';

/**
 * The DaemonSet controller: one pod per node the template may run on (node selector, required
 * affinity, NoSchedule/NoExecute taints tolerated — DaemonSet pods tolerate the node-condition taints
 * as the real controller adds them); a pod already on a node stays through a NoSchedule taint added
 * later (counted misscheduled), and goes for an untolerated NoExecute one. Each pod is pinned with node affinity on `metadata.name` and
 * placed by the scheduler. A template change replaces pods one node at a time (maxUnavailable 1).
 */

const REVISION = 'controller-revision-hash';

/** The tolerations the DaemonSet controller adds to every daemon pod. */
const DAEMON_TOLERATIONS = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
];

export function runDaemonSets(cluster: KubeCluster): void {
  const nodes = cluster.objects.list(T.nodes).filter((n) => !n.metadata.deletionTimestamp);
  const now = cluster.now();
  const podsOf = byController(cluster, T.pods);
  for (const ds of cluster.objects.list(T.daemonsets)) {
    if (ds.metadata.deletionTimestamp) continue;
    const spec = ds.spec as Any;
    const templateSpec = (spec.template?.spec ?? {}) as Any;
    const tolerations = [...((templateSpec.tolerations ?? []) as Any[]), ...DAEMON_TOLERATIONS];
    const hash = templateHash(spec.template);
    const taintsOf = (n: KubeObject) => ((n.spec as Any)?.taints ?? []) as Any[];
    const fitting = nodes.filter((n) => nodeAffinityMatches(templateSpec, n));
    // kube-controller-manager's NodeShouldRunDaemonPod (kubernetes v1.32 pkg/controller/daemon/daemon_controller.go):
    // a new daemon pod needs every NoSchedule and NoExecute taint tolerated (shouldRun), but one already on the node
    // keeps running through a NoSchedule taint added later: only an untolerated NoExecute one removes it.
    const eligible = fitting.filter((n) => !untoleratedTaint(tolerations, taintsOf(n)));
    const staying = new Set(
      fitting
        .filter(
          (n) =>
            !untoleratedTaint(
              tolerations,
              taintsOf(n).filter((t) => t.effect === 'NoExecute'),
            ),
        )
        .map((n) => n.metadata.name!),
    );
    const pods = podsOf(ds).filter(isActive);
    let changed = false;
    const byNode = new Map<string, KubeObject[]>();
    for (const p of pods) {
      const target = pinnedNode(p);
      if (target) byNode.set(target, [...(byNode.get(target) ?? []), p]);
    }
    const remove = (p: KubeObject) => {
      changed = true;
      if (removeIfPresent(cluster, T.pods, p))
        recordEvent(
          cluster,
          ds,
          'Normal',
          'SuccessfulDelete',
          `Deleted pod: ${p.metadata.name}`,
          'daemonset-controller',
        );
    };
    for (const node of eligible) {
      const here = byNode.get(node.metadata.name!) ?? [];
      if (here.length === 0) {
        const pod = cluster.objects.create(
          T.pods,
          cluster.admit(T.pods, daemonPod(ds, node.metadata.name!, hash, tolerations)),
        );
        changed = true;
        recordEvent(
          cluster,
          ds,
          'Normal',
          'SuccessfulCreate',
          `Created pod: ${pod.metadata.name}`,
          'daemonset-controller',
        );
      }
      for (const extra of here.slice(1)) remove(extra);
    }
    const eligibleNames = new Set(eligible.map((n) => n.metadata.name!));
    for (const [nodeName, list] of byNode) if (!staying.has(nodeName)) list.forEach(remove);
    // Rolling update, one node at a time: only when every other daemon pod is ready.
    const current = changed ? dependentsOf(cluster, T.pods, ds).filter(isActive) : pods;
    const outdated = current.filter((p) => p.metadata.labels?.[REVISION] !== hash);
    if (
      (spec.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate' &&
      outdated.length > 0 &&
      current.filter((p) => p !== outdated[0]).every(isReady)
    )
      remove(outdated[0]!);

    const live = changed ? dependentsOf(cluster, T.pods, ds).filter(isActive) : pods;
    const scheduled = live.filter((p) => eligibleNames.has(pinnedNode(p) ?? ''));
    const minReadyMs = Number(spec.minReadySeconds ?? 0) * 1000;
    const available = scheduled.filter((p) => isAvailable(p, minReadyMs, now)).length;
    const status: Any = {
      currentNumberScheduled: scheduled.filter((p) => nodeNameOf(p)).length,
      numberMisscheduled: live.length - scheduled.length,
      desiredNumberScheduled: eligible.length,
      numberReady: scheduled.filter(isReady).length,
      observedGeneration: ds.metadata.generation,
      updatedNumberScheduled: scheduled.filter((p) => p.metadata.labels?.[REVISION] === hash).length,
      numberAvailable: available,
      ...(eligible.length - available > 0 ? { numberUnavailable: eligible.length - available } : {}),
    };
    if (status.numberAvailable === 0) delete status.numberAvailable;
    if (status.updatedNumberScheduled === 0) delete status.updatedNumberScheduled;
    save(cluster, T.daemonsets, ds, { ...ds, status });
  }
}

/** The node a daemon pod is for: its node affinity on metadata.name, or where it runs. */
function pinnedNode(pod: KubeObject): string | undefined {
  const terms = ((pod.spec as Any)?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution
    ?.nodeSelectorTerms ?? []) as Any[];
  for (const term of terms) {
    const field = ((term.matchFields ?? []) as Any[]).find((f) => f.key === 'metadata.name' && f.operator === 'In');
    if (field) return field.values?.[0];
  }
  return nodeNameOf(pod);
}

function daemonPod(ds: KubeObject, nodeName: string, hash: string, tolerations: Any[]): KubeObject {
  const spec = ds.spec as Any;
  return podFromTemplate(
    ds,
    spec.template,
    { labels: { [REVISION]: hash, 'pod-template-generation': String(ds.metadata.generation ?? 1) } },
    (podSpec) => {
      podSpec.tolerations = tolerations;
      const pin = { matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeName] }] };
      const required = podSpec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
      const terms = ((required?.nodeSelectorTerms ?? []) as Any[]).map((t) => ({
        ...t,
        matchFields: [...(t.matchFields ?? []), ...pin.matchFields],
      }));
      podSpec.affinity = {
        ...(podSpec.affinity ?? {}),
        nodeAffinity: {
          ...(podSpec.affinity?.nodeAffinity ?? {}),
          requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms.length > 0 ? terms : [pin] },
        },
      };
    },
  );
}
