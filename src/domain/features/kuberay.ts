import type { PolicyRule } from '../kube/cluster-role.js';
import { clusterRoleManifest } from '../kube/cluster-role.js';
import { clusterRoleBindingManifest } from '../kube/cluster-role-binding.js';
import { deploymentManifest } from '../kube/deployment.js';
import { MANAGED_BY } from '../kube/kind.js';
import { namespaceManifest } from '../kube/namespace.js';
import { roleManifest } from '../kube/role.js';
import { roleBindingManifest } from '../kube/role-binding.js';
import { serviceManifest } from '../kube/service.js';
import { serviceAccountManifest } from '../kube/service-account.js';
import type { KubeObject } from '../kube-object.js';
import { kuberayCrds } from './kuberay-crds.js';

/**
 * The KubeRay operator as InstantStart installs it (feature `kuberay-operator`), pinned here and
 * nowhere else: ray-project/kuberay at tag v1.6.2 (commit 598eb66), `ray-operator/config` as its
 * kustomization (`config/default`) renders it — the CRDs (`crd/bases`, built in kuberay-crds.ts:
 * `v1` stored, `v1alpha1` still served, upstream's validation), the operator's ClusterRole
 * (`rbac/role.yaml`) and binding, the leader-election Role and binding, the service account, the
 * Deployment (`manager/manager.yaml`) and its metrics Service (`manager/service.yaml`), every object
 * but the CRDs labelled `app.kubernetes.io/name: kuberay`, `app.kubernetes.io/component:
 * kuberay-operator` as the kustomization labels them, and all put in our namespace. v1.6.2 rather
 * than v1.7.0: the newest patch of the previous minor, not a release days old.
 *
 * A cluster that already runs KubeRay (Helm chart, kustomize, another tool) is left in charge:
 * kuberay-install.ts tells whose the CRDs and operator are before anything is applied.
 */
export const KUBERAY = {
  version: 'v1.6.2',
  image: 'quay.io/kuberay/operator:v1.6.2',
  namespace: 'kuberay-system',
  name: 'kuberay-operator',
  source: 'ray-project/kuberay v1.6.2 (ray-operator/config: crd/bases, rbac, manager)',
} as const;

const LABELS = { 'app.kubernetes.io/name': 'kuberay', 'app.kubernetes.io/component': KUBERAY.name };

const CRUD = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];
const rule = (apiGroups: string[], resources: string[], verbs: string[]): PolicyRule => ({
  apiGroups,
  resources,
  verbs,
});
/** Upstream's role names RayCronJob (alpha, its CRD not installed here) too: the rules are kept as upstream writes them. */
const RAY_KINDS = ['rayclusters', 'raycronjobs', 'rayjobs', 'rayservices'];

/** What the operator reconciles Ray objects into: `config/rbac/role.yaml`, rule for rule. */
const OPERATOR_RULES: PolicyRule[] = [
  rule([''], ['events', 'pods/status', 'services'], CRUD),
  rule([''], ['pods'], ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']),
  rule([''], ['pods/proxy', 'services/status'], ['get', 'patch', 'update']),
  rule([''], ['pods/resize'], ['patch']),
  rule([''], ['secrets'], ['create', 'get', 'list', 'watch']),
  rule([''], ['serviceaccounts'], ['create', 'delete', 'get', 'list', 'watch']),
  rule([''], ['services/proxy'], ['create', 'get', 'patch', 'update']),
  rule(['batch'], ['jobs'], CRUD),
  rule(['coordination.k8s.io'], ['leases'], ['create', 'get', 'list', 'update']),
  rule(['discovery.k8s.io'], ['endpointslices'], ['get', 'list', 'watch']),
  rule(['extensions', 'networking.k8s.io'], ['ingresses'], CRUD),
  rule(['gateway.networking.k8s.io'], ['gateways', 'httproutes'], ['create', 'get', 'list', 'update', 'watch']),
  rule(['networking.k8s.io'], ['ingressclasses'], ['get', 'list', 'watch']),
  rule(['ray.io'], RAY_KINDS, CRUD),
  rule(
    ['ray.io'],
    RAY_KINDS.map((k) => `${k}/finalizers`),
    ['update'],
  ),
  rule(
    ['ray.io'],
    RAY_KINDS.map((k) => `${k}/status`),
    ['get', 'patch', 'update'],
  ),
  rule(['rbac.authorization.k8s.io'], ['rolebindings'], ['create', 'delete', 'get', 'list', 'watch']),
  rule(['rbac.authorization.k8s.io'], ['roles'], ['create', 'delete', 'get', 'list', 'update', 'watch']),
  rule(['route.openshift.io'], ['routes'], CRUD),
];

/** `config/rbac/leader_election_role.yaml`: the operator's lease (when started with leader election) and its events. */
const LEADER_ELECTION_RULES: PolicyRule[] = [
  rule([''], ['configmaps'], ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete']),
  rule([''], ['events'], ['create']),
  rule(['coordination.k8s.io'], ['leases'], ['create', 'get', 'list', 'update']),
];
const LEADER_ELECTION = `${KUBERAY.name}-leader-election`;

const probe = {
  httpGet: { path: '/metrics', port: 'http' },
  initialDelaySeconds: 10,
  periodSeconds: 5,
  failureThreshold: 5,
};

/** The pinned objects in apply order: the namespace, the CRDs, the operator's identity and permissions, the Deployment and its Service. */
export function kuberayManifests(): KubeObject[] {
  const ns = KUBERAY.namespace;
  const sa = KUBERAY.name;
  return [
    namespaceManifest(ns),
    ...kuberayCrds(),
    { ...serviceAccountManifest(ns, sa), metadata: { name: sa, namespace: ns, labels: { ...LABELS, ...MANAGED_BY } } },
    clusterRoleManifest({ name: KUBERAY.name, labels: LABELS, rules: OPERATOR_RULES }),
    clusterRoleBindingManifest({
      name: KUBERAY.name,
      role: KUBERAY.name,
      namespace: ns,
      serviceAccount: sa,
      labels: LABELS,
    }),
    roleManifest({ namespace: ns, name: LEADER_ELECTION, labels: LABELS, rules: LEADER_ELECTION_RULES }),
    roleBindingManifest({
      namespace: ns,
      name: LEADER_ELECTION,
      role: LEADER_ELECTION,
      serviceAccount: sa,
      labels: LABELS,
    }),
    deploymentManifest({
      namespace: ns,
      name: KUBERAY.name,
      labels: LABELS,
      serviceAccountName: sa,
      // One operator at a time: upstream runs it without leader election (`--enable-leader-election` commented out).
      strategy: 'Recreate',
      podSecurityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
      terminationGracePeriodSeconds: 10,
      containers: [
        {
          name: KUBERAY.name,
          image: KUBERAY.image,
          imagePullPolicy: 'IfNotPresent',
          command: ['/manager'],
          args: ['--feature-gates=RayClusterStatusConditions=true'],
          ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
          securityContext: {
            allowPrivilegeEscalation: false,
            capabilities: { drop: ['ALL'] },
            readOnlyRootFilesystem: true,
            seccompProfile: { type: 'RuntimeDefault' },
          },
          livenessProbe: probe,
          readinessProbe: probe,
          // Upstream's sizing: about 500 MB manages some 500 Ray pods.
          resources: { requests: { cpu: '100m', memory: '512Mi' }, limits: { cpu: '100m', memory: '512Mi' } },
        },
      ],
    }),
    serviceManifest({
      namespace: ns,
      name: KUBERAY.name,
      labels: LABELS,
      annotations: { 'prometheus.io/path': '/metrics', 'prometheus.io/scrape': 'true', 'prometheus.io/port': '8080' },
      selector: LABELS,
      ports: [{ name: 'monitoring-port', port: 8080, targetPort: 8080 }],
    }),
  ];
}
