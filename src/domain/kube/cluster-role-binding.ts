import type { KubeObject } from '../kube-object.js';
import { kubeKind, list, parseBase, rec, str, MANAGED_BY, type KubeResource } from './kind.js';

/** ClusterRoleBinding: grants a ClusterRole to an operator's service account. It has no status. */

export type KubeClusterRoleBinding = KubeResource & {
  roleRef: { kind: string; name: string };
  subjects: Array<{ kind: string; name: string; namespace?: string }>;
};

export function parseClusterRoleBinding(raw: unknown): KubeClusterRoleBinding {
  const base = parseBase(raw, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding' });
  const ref = rec(base.roleRef);
  return {
    ...base,
    roleRef: { kind: str(ref.kind) ?? '', name: str(ref.name) ?? '' },
    subjects: list(base.subjects)
      .map(rec)
      .filter((s) => typeof s.kind === 'string' && typeof s.name === 'string')
      .map((s) => ({
        kind: s.kind as string,
        name: s.name as string,
        ...(str(s.namespace) ? { namespace: str(s.namespace) } : {}),
      })),
  };
}

export const CLUSTER_ROLE_BINDING = kubeKind<KubeClusterRoleBinding>(
  {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    plural: 'clusterrolebindings',
    namespaced: false,
  },
  parseClusterRoleBinding,
);

/** Binds ClusterRole `role` to the service account `namespace/serviceAccount`. */
export function clusterRoleBindingManifest(p: {
  name: string;
  role: string;
  namespace: string;
  serviceAccount: string;
  labels?: Record<string, string>;
}): KubeObject {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: p.name, labels: { ...(p.labels ?? {}), ...MANAGED_BY } },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: p.role },
    subjects: [{ kind: 'ServiceAccount', name: p.serviceAccount, namespace: p.namespace }],
  };
}
