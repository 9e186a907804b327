import type { KubeObject } from '../kube-object.js';
import { kubeKind, list, parseBase, rec, MANAGED_BY, type KubeResource } from './kind.js';

/**
 * ClusterRole: the permissions an operator InstantStart installs from manifests needs across
 * namespaces (KubeRay's operator manages pods, services and jobs wherever a RayCluster is made).
 * It has no status: it exists or it does not.
 */

export type PolicyRule = { apiGroups: string[]; resources: string[]; verbs: string[] };

export type KubeClusterRole = KubeResource & { rules: PolicyRule[] };

const strings = (v: unknown): string[] => list(v).filter((x): x is string => typeof x === 'string');

export function parseClusterRole(raw: unknown): KubeClusterRole {
  const base = parseBase(raw, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole' });
  return {
    ...base,
    rules: list(base.rules)
      .map(rec)
      .map((r) => ({ apiGroups: strings(r.apiGroups), resources: strings(r.resources), verbs: strings(r.verbs) })),
  };
}

export const CLUSTER_ROLE = kubeKind<KubeClusterRole>(
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', plural: 'clusterroles', namespaced: false },
  parseClusterRole,
);

export function clusterRoleManifest(p: {
  name: string;
  labels?: Record<string, string>;
  rules: readonly PolicyRule[];
}): KubeObject {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: p.name, labels: { ...(p.labels ?? {}), ...MANAGED_BY } },
    rules: p.rules.map((r) => ({ apiGroups: [...r.apiGroups], resources: [...r.resources], verbs: [...r.verbs] })),
  };
}
