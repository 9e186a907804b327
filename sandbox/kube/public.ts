import type { SandboxState } from '../core/store.js';
import type { ClusterKubeState } from './objects.js';
import type { KubeObject } from './types.js';

/**
 * What other parts of the sandbox may read of an EKS cluster's Kubernetes objects, straight from the
 * stored state (`state.kube[<EKS cluster ARN>]`): SageMaker HyperPod looks for the dependencies it
 * needs before it accepts a cluster. Read-only; an object being deleted counts as gone.
 */
export interface KubeObjectQuery {
  /** API group, '' for the core group. */
  group: string;
  /** Plural resource name, e.g. `daemonsets`. */
  resource: string;
  /** Only this namespace; every namespace (or cluster-scoped objects) when absent. */
  namespace?: string;
}

/** The live objects of one type in the EKS cluster's Kubernetes API; none before its API first ran. */
export function liveKubeObjects(state: SandboxState, eksClusterArn: string, query: KubeObjectQuery): KubeObject[] {
  const sections = (state.kube ?? {}) as Record<string, ClusterKubeState | undefined>;
  const data = Object.hasOwn(sections, eksClusterArn) ? sections[eksClusterArn] : undefined;
  if (!data) return [];
  const prefix = `${query.group}/${query.resource}/`;
  return Object.keys(data.objects)
    .filter((key) => key.startsWith(prefix))
    .map((key) => data.objects[key]!)
    .filter(
      (o) =>
        !o.metadata.deletionTimestamp && (query.namespace === undefined || o.metadata.namespace === query.namespace),
    );
}
