import type { KubeObject } from '../kube-object.js';
import { parseClusterRole, type PolicyRule } from './cluster-role.js';
import { kubeKind, MANAGED_BY, type KubeResource } from './kind.js';

/**
 * Role: permissions inside one namespace (KubeRay's operator takes its leader-election lease and
 * events with one). It has no status: it exists or it does not.
 */

export type KubeRole = KubeResource & { rules: PolicyRule[] };

export const parseRole = (raw: unknown): KubeRole => ({
  ...parseClusterRole({ ...(raw as object), kind: 'Role' }),
  kind: 'Role',
});

export const ROLE = kubeKind<KubeRole>(
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', plural: 'roles', namespaced: true },
  parseRole,
);

export function roleManifest(p: {
  namespace: string;
  name: string;
  labels?: Record<string, string>;
  rules: readonly PolicyRule[];
}): KubeObject {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    metadata: { name: p.name, namespace: p.namespace, labels: { ...(p.labels ?? {}), ...MANAGED_BY } },
    rules: p.rules.map((r) => ({ apiGroups: [...r.apiGroups], resources: [...r.resources], verbs: [...r.verbs] })),
  };
}
