import type { KubeObject } from '../types.js';

/**
 * The user-facing default ClusterRoles every cluster has (cluster-admin, admin, edit, view), their
 * rules condensed to the resources the sandbox serves, and the binding of cluster-admin to
 * system:masters.
 */

const READ = ['get', 'list', 'watch'];
const WRITE = ['create', 'delete', 'deletecollection', 'patch', 'update'];

const WORKLOADS = [
  {
    apiGroups: [''],
    resources: [
      'pods',
      'pods/log',
      'pods/status',
      'services',
      'services/status',
      'endpoints',
      'configmaps',
      'persistentvolumeclaims',
      'persistentvolumeclaims/status',
      'serviceaccounts',
      'events',
      'namespaces/status',
    ],
  },
  {
    apiGroups: ['apps'],
    resources: [
      'deployments',
      'deployments/scale',
      'deployments/status',
      'replicasets',
      'replicasets/scale',
      'replicasets/status',
      'statefulsets',
      'statefulsets/scale',
      'statefulsets/status',
      'daemonsets',
      'daemonsets/status',
    ],
  },
  { apiGroups: ['batch'], resources: ['jobs', 'jobs/status'] },
];

const role = (name: string, rules: object[]): KubeObject => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  metadata: {
    name,
    labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' },
    annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'true' },
  },
  rules,
});

const view = WORKLOADS.map((r) => ({ ...r, verbs: READ }));
const edit = [
  ...WORKLOADS.map((r) => ({ ...r, verbs: [...READ, ...WRITE] })),
  { apiGroups: [''], resources: ['secrets'], verbs: [...READ, ...WRITE] },
];
const admin = [
  ...edit,
  { apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles', 'rolebindings'], verbs: [...READ, ...WRITE] },
];

export const BOOTSTRAP_RBAC: KubeObject[] = [
  role('cluster-admin', [
    { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
    { nonResourceURLs: ['*'], verbs: ['*'] },
  ]),
  role('admin', admin),
  role('edit', edit),
  role('view', view),
  {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: {
      name: 'cluster-admin',
      labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' },
      annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'true' },
    },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:masters' }],
  },
];
