import type { KubePort } from '../../cloud/ports.js';
import type { KubePod } from '../../domain/kube/pod.js';
import type { EndpointLogsFollowQuery } from '../../domain/schemas/inference.js';
import { FollowSession, type FollowedPods, type FollowSink } from '../../workflows/pod-logs/follow.js';
import { readRankTail } from '../../workflows/pod-logs/pod-reads.js';
import type { RankedPod } from '../../workflows/pod-logs/pod-runs.js';
import { MAX_LOG_BYTES, MAX_LOG_PODS } from './logs.js';

/** An endpoint's pods as a follow finds them: where, by which selectors, and those there now. */
export interface EndpointLogTarget {
  kube: KubePort;
  endpoint: string;
  namespace: string;
  selectors: string[];
  pods: KubePod[];
}

/**
 * Follows an endpoint's pods' logs live, with the same machinery as a training job's (src/workflows/pod-logs):
 * each pod's capped tail, `tail-end`, then its new lines; a pod that starts later (a scale-up, a replacement) is
 * followed from its first line (`rank-started`), one that ends says why (`rank-ended`). The messages number the
 * pods as first seen (`rank`), and name each; at most {@link MAX_LOG_PODS} pods at once, or the one asked for.
 */
export function followEndpointLogs(
  target: EndpointLogTarget,
  query: Pick<EndpointLogsFollowQuery, 'tailLines' | 'sinceSeconds' | 'pod'>,
  sink: FollowSink,
): FollowSession {
  const numbers = new Map<string, number>();
  const numbered = (pod: KubePod): RankedPod => {
    let rank = numbers.get(pod.metadata.name);
    if (rank === undefined) {
      rank = numbers.size;
      numbers.set(pod.metadata.name, rank);
    }
    return { rank, pod };
  };
  const asked = (pods: readonly KubePod[]) =>
    pods
      .filter((p) => query.pod === undefined || p.metadata.name === query.pod)
      .sort((a, b) => a.metadata.name.localeCompare(b.metadata.name))
      .slice(0, MAX_LOG_PODS)
      .map(numbered);
  const ranks = asked(target.pods);
  const pods: FollowedPods = {
    kube: target.kube,
    namespace: target.namespace,
    ranks,
    selectors: target.selectors,
    number: asked,
  };
  const options = {
    tailLines: query.tailLines,
    limitBytes: MAX_LOG_BYTES,
    previous: false,
    ...(query.sinceSeconds !== undefined ? { sinceSeconds: query.sinceSeconds } : {}),
  };
  const session = new FollowSession(
    (signal) => Promise.all(ranks.map((r) => readRankTail(target.kube, r, options, signal))),
    pods,
    query.sinceSeconds !== undefined ? { sinceSeconds: query.sinceSeconds } : {},
    sink,
  );
  void session.start();
  return session;
}
