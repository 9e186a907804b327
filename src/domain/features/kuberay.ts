import type { PolicyRule } from '../kube/cluster-role.js';
import { clusterRoleManifest } from '../kube/cluster-role.js';
import { clusterRoleBindingManifest } from '../kube/cluster-role-binding.js';
import { customResourceDefinitionManifest, type PrinterColumn } from '../kube/custom-resource-definition.js';
import { deploymentManifest } from '../kube/deployment.js';
import { MANAGED_BY } from '../kube/kind.js';
import { namespaceManifest } from '../kube/namespace.js';
import { serviceAccountManifest } from '../kube/service-account.js';
import type { KubeObject } from '../kube-object.js';

/**
 * The KubeRay operator as InstantStart installs it (feature `kuberay-operator`), pinned here and
 * nowhere else. Source: ray-project/kuberay at tag v1.6.2 — `ray-operator/config/crd/bases/ray.io_*.yaml`
 * (CRDs), `config/rbac/role.yaml` (the operator's ClusterRole), `config/manager/manager.yaml` (the
 * Deployment). v1.6.2 rather than v1.7.0: the newest patch of the previous minor, not a release days old.
 *
 * The CRDs are cut down to the fields InstantStart and its users set (the upstream schemas are
 * ~30 000 lines of inlined PodTemplateSpecs); every object keeps unknown fields, so a manifest
 * written for the full CRD is stored whole, and the printer columns are the upstream ones. Only `v1`
 * is served (upstream still serves the deprecated `v1alpha1` of RayJob and RayService).
 */
export const KUBERAY = {
  version: 'v1.6.2',
  image: 'quay.io/kuberay/operator:v1.6.2',
  namespace: 'kuberay-system',
  name: 'kuberay-operator',
  source: 'ray-project/kuberay v1.6.2 (ray-operator/config: crd/bases, rbac/role.yaml, manager/manager.yaml)',
} as const;

const LABELS = { 'app.kubernetes.io/name': 'kuberay', 'app.kubernetes.io/component': KUBERAY.name };

// ── schema shorthands (structural: every node typed) ────────────────────────────────────────────
type Schema = Record<string, unknown>;
const str = (extra: Schema = {}): Schema => ({ type: 'string', ...extra });
const int = (extra: Schema = {}): Schema => ({ type: 'integer', format: 'int32', ...extra });
const bool = (): Schema => ({ type: 'boolean' });
const map = (): Schema => ({ type: 'object', additionalProperties: { type: 'string' } });
/** An object whose listed fields are typed and whose other fields are kept as sent. */
const open = (properties: Schema = {}, required: string[] = []): Schema => ({
  type: 'object',
  ...(Object.keys(properties).length ? { properties } : {}),
  ...(required.length ? { required } : {}),
  'x-kubernetes-preserve-unknown-fields': true,
});
const podTemplate = open();
const root = (spec: Schema, status: Schema): Schema => ({
  type: 'object',
  properties: { apiVersion: str(), kind: str(), metadata: { type: 'object' }, spec, status },
});
const age: PrinterColumn = { name: 'age', type: 'date', jsonPath: '.metadata.creationTimestamp' };

const headGroupSpec = open({ rayStartParams: map(), serviceType: str(), enableIngress: bool(), template: podTemplate }, ['template']);
const workerGroupSpec = open(
  {
    groupName: str(),
    replicas: int({ default: 0 }),
    minReplicas: int({ default: 0 }),
    maxReplicas: int({ default: 2147483647 }),
    numOfHosts: int({ default: 1 }),
    rayStartParams: map(),
    template: podTemplate,
    scaleStrategy: open({ workersToDelete: { type: 'array', items: str() } }),
    suspend: bool(),
  },
  ['groupName', 'maxReplicas', 'minReplicas', 'template'],
);
const rayClusterSpec = open(
  {
    rayVersion: str(),
    enableInTreeAutoscaling: bool(),
    autoscalerOptions: open({ idleTimeoutSeconds: int(), upscalingMode: str({ enum: ['Default', 'Aggressive', 'Conservative'] }) }),
    headGroupSpec,
    workerGroupSpecs: { type: 'array', items: workerGroupSpec },
    headServiceAnnotations: map(),
    suspend: bool(),
  },
  ['headGroupSpec'],
);
const conditions: Schema = {
  type: 'array',
  items: open({ type: str(), status: str(), reason: str(), message: str(), lastTransitionTime: str({ format: 'date-time' }) }, ['type', 'status']),
};

const rayCluster = customResourceDefinitionManifest({
  group: 'ray.io',
  kind: 'RayCluster',
  plural: 'rayclusters',
  scope: 'Namespaced',
  categories: ['all'],
  versions: [
    {
      name: 'v1',
      storage: true,
      schema: root(
        rayClusterSpec,
        open({
          state: str(),
          reason: str(),
          conditions,
          availableWorkerReplicas: int(),
          desiredWorkerReplicas: int(),
          readyWorkerReplicas: int(),
          desiredCPU: str(),
          desiredGPU: str(),
          desiredMemory: str(),
          desiredTPU: str(),
          head: open({ podIP: str(), podName: str(), serviceIP: str(), serviceName: str() }),
          endpoints: map(),
          observedGeneration: { type: 'integer', format: 'int64' },
        }),
      ),
      columns: [
        { name: 'desired workers', type: 'integer', jsonPath: '.status.desiredWorkerReplicas' },
        { name: 'available workers', type: 'integer', jsonPath: '.status.availableWorkerReplicas' },
        { name: 'cpus', type: 'string', jsonPath: '.status.desiredCPU' },
        { name: 'memory', type: 'string', jsonPath: '.status.desiredMemory' },
        { name: 'gpus', type: 'string', jsonPath: '.status.desiredGPU' },
        { name: 'tpus', type: 'string', jsonPath: '.status.desiredTPU', priority: 1 },
        { name: 'status', type: 'string', jsonPath: '.status.state' },
        age,
        { name: 'head pod IP', type: 'string', jsonPath: '.status.head.podIP', priority: 1 },
        { name: 'head service IP', type: 'string', jsonPath: '.status.head.serviceIP', priority: 1 },
      ],
    },
  ],
});

const rayJob = customResourceDefinitionManifest({
  group: 'ray.io',
  kind: 'RayJob',
  plural: 'rayjobs',
  scope: 'Namespaced',
  categories: ['all'],
  versions: [
    {
      name: 'v1',
      storage: true,
      schema: root(
        open({
          entrypoint: str(),
          runtimeEnvYAML: str(),
          jobId: str(),
          rayClusterSpec,
          clusterSelector: map(),
          submissionMode: str({ default: 'K8sJobMode' }),
          shutdownAfterJobFinishes: bool(),
          ttlSecondsAfterFinished: int({ default: 0 }),
          activeDeadlineSeconds: int(),
          backoffLimit: int({ default: 0 }),
          submitterPodTemplate: podTemplate,
          entrypointNumCpus: { type: 'number' },
          entrypointNumGpus: { type: 'number' },
          suspend: bool(),
        }),
        open({
          jobStatus: str(),
          jobDeploymentStatus: str(),
          reason: str(),
          message: str(),
          rayClusterName: str(),
          dashboardURL: str(),
          startTime: str({ format: 'date-time' }),
          endTime: str({ format: 'date-time' }),
          succeeded: int(),
          failed: int(),
        }),
      ),
      columns: [
        { name: 'job status', type: 'string', jsonPath: '.status.jobStatus' },
        { name: 'deployment status', type: 'string', jsonPath: '.status.jobDeploymentStatus' },
        { name: 'ray cluster name', type: 'string', jsonPath: '.status.rayClusterName' },
        { name: 'start time', type: 'string', jsonPath: '.status.startTime' },
        { name: 'end time', type: 'string', jsonPath: '.status.endTime' },
        age,
      ],
    },
  ],
});

const rayService = customResourceDefinitionManifest({
  group: 'ray.io',
  kind: 'RayService',
  plural: 'rayservices',
  scope: 'Namespaced',
  categories: ['all'],
  versions: [
    {
      name: 'v1',
      storage: true,
      schema: root(
        open({ serveConfigV2: str(), rayClusterConfig: rayClusterSpec, excludeHeadPodFromServeSvc: bool(), deploymentUnhealthySecondThreshold: int() }, ['rayClusterConfig']),
        open({ serviceStatus: str(), numServeEndpoints: int(), conditions, observedGeneration: { type: 'integer', format: 'int64' } }),
      ),
      columns: [
        { name: 'service status', type: 'string', jsonPath: '.status.serviceStatus' },
        { name: 'num serve endpoints', type: 'string', jsonPath: '.status.numServeEndpoints' },
      ],
    },
  ],
});

const CRUD = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];
const rule = (apiGroups: string[], resources: string[], verbs: string[]): PolicyRule => ({ apiGroups, resources, verbs });
const RAY_KINDS = ['rayclusters', 'rayjobs', 'rayservices'];

/** What the operator reconciles Ray objects into (upstream's rules, less OpenShift routes and the alpha RayCronJob). */
const OPERATOR_RULES: PolicyRule[] = [
  rule([''], ['events', 'pods/status', 'services'], CRUD),
  rule([''], ['pods'], [...CRUD, 'deletecollection']),
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
  rule(['ray.io'], RAY_KINDS.map((k) => `${k}/finalizers`), ['update']),
  rule(['ray.io'], RAY_KINDS.map((k) => `${k}/status`), ['get', 'patch', 'update']),
  rule(['rbac.authorization.k8s.io'], ['rolebindings'], ['create', 'delete', 'get', 'list', 'watch']),
  rule(['rbac.authorization.k8s.io'], ['roles'], ['create', 'delete', 'get', 'list', 'update', 'watch']),
];

const probe = { httpGet: { path: '/metrics', port: 'http' }, initialDelaySeconds: 10, periodSeconds: 5, failureThreshold: 5 };

/** In apply order: the namespace, the CRDs, then the operator's identity, its permissions and the Deployment. */
export function kuberayManifests(): KubeObject[] {
  const ns = KUBERAY.namespace;
  // Fresh objects on every call: the CRDs are built once, and a caller may change what it gets.
  return structuredClone([
    namespaceManifest(ns),
    rayCluster,
    rayJob,
    rayService,
    { ...serviceAccountManifest(ns, KUBERAY.name), metadata: { name: KUBERAY.name, namespace: ns, labels: { ...LABELS, ...MANAGED_BY } } },
    clusterRoleManifest({ name: KUBERAY.name, labels: LABELS, rules: OPERATOR_RULES }),
    clusterRoleBindingManifest({ name: KUBERAY.name, role: KUBERAY.name, namespace: ns, serviceAccount: KUBERAY.name, labels: LABELS }),
    deploymentManifest({
      namespace: ns,
      name: KUBERAY.name,
      labels: LABELS,
      serviceAccountName: KUBERAY.name,
      // One operator at a time: upstream runs it without leader election.
      strategy: 'Recreate',
      podSecurityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
      terminationGracePeriodSeconds: 10,
      containers: [
        {
          name: KUBERAY.name,
          image: KUBERAY.image,
          imagePullPolicy: 'IfNotPresent',
          command: ['/manager'],
          ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
          securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, readOnlyRootFilesystem: true, seccompProfile: { type: 'RuntimeDefault' } },
          livenessProbe: probe,
          readinessProbe: probe,
          // Upstream's sizing: about 500 MB manages some 500 Ray pods.
          resources: { requests: { cpu: '100m', memory: '512Mi' }, limits: { cpu: '100m', memory: '512Mi' } },
        },
      ],
    }),
  ]);
}
