import type { KubeObject } from '../kube-object.js';
import { parseClusterRoleBinding, type KubeClusterRoleBinding } from './cluster-role-binding.js';
import { kubeKind, MANAGED_BY } from './kind.js';

/** RoleBinding: grants a Role to a service account of the same namespace. It has no status. */

export type KubeRoleBinding = KubeClusterRoleBinding;

export const parseRoleBinding = (raw: unknown): KubeRoleBinding => ({
  ...parseClusterRoleBinding({ ...(raw as object), kind: 'RoleBinding' }),
  kind: 'RoleBinding',
});

export const ROLE_BINDING = kubeKind<KubeRoleBinding>(
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', plural: 'rolebindings', namespaced: true },
  parseRoleBinding,
);

/** Binds Role `role` to the service account `serviceAccount` of `namespace`. */
export function roleBindingManifest(p: {
  namespace: string;
  name: string;
  role: string;
  serviceAccount: string;
  labels?: Record<string, string>;
}): KubeObject {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: p.name, namespace: p.namespace, labels: { ...(p.labels ?? {}), ...MANAGED_BY } },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: p.role },
    subjects: [{ kind: 'ServiceAccount', name: p.serviceAccount, namespace: p.namespace }],
  };
}
