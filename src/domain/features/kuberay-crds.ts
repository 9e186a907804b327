import { customResourceDefinitionManifest, type PrinterColumn } from '../kube/custom-resource-definition.js';
import { coreSchema, quantitySchema } from '../kube/core-schemas.js';
import type { KubeObject } from '../kube-object.js';

/**
 * KubeRay's CRDs — RayCluster, RayJob, RayService — typed as ray-project/kuberay v1.6.2 types them
 * (`ray-operator/config/crd/bases/ray.io_{rayclusters,rayjobs,rayservices}.yaml`, tag v1.6.2, commit
 * 598eb66): `v1` (served, storage) and the deprecated `v1alpha1` (served, not storage: clusters
 * whose objects were stored at it keep reading them), each with upstream's fields, enums, bounds,
 * defaults, required fields and CEL rules (`managedBy`, `deletionStrategy`). The Kubernetes types
 * they embed (pod templates, env vars, resources, security context, Services) are generated from
 * @kubernetes/client-node's models (core-schemas.ts) rather than written out; nothing keeps
 * unknown fields, so an API server prunes what upstream's schema does not declare.
 */

type Schema = Record<string, unknown>;
type Version = 'v1' | 'v1alpha1';

const str = (extra: Schema = {}): Schema => ({ type: 'string', ...extra });
const int32 = (extra: Schema = {}): Schema => ({ type: 'integer', format: 'int32', ...extra });
const int64 = (): Schema => ({ type: 'integer', format: 'int64' });
const bool = (): Schema => ({ type: 'boolean' });
const time = (extra: Schema = {}): Schema => ({ type: 'string', format: 'date-time', ...extra });
const strMap = (): Schema => ({ type: 'object', additionalProperties: { type: 'string' } });
const obj = (properties: Schema, required: string[] = [], extra: Schema = {}): Schema => ({
  type: 'object',
  properties,
  ...(required.length ? { required } : {}),
  ...extra,
});
const arr = (items: Schema, extra: Schema = {}): Schema => ({ type: 'array', items, ...extra });
const enumOf = (...values: string[]) => str({ enum: values });
/** Fields only `v1` has: spread into a properties object (nothing for v1alpha1). */
const v1Only = (v: Version, fields: Schema): Schema => (v === 'v1' ? fields : {});

const core = (model: string): Schema => structuredClone(coreSchema(model));

const managedBy = (): Schema =>
  str({
    'x-kubernetes-validations': [
      { message: 'the managedBy field is immutable', rule: 'self == oldSelf' },
      {
        message: "the managedBy field value must be either 'ray.io/kuberay-operator' or 'kueue.x-k8s.io/multikueue'",
        rule: "self in ['ray.io/kuberay-operator', 'kueue.x-k8s.io/multikueue']",
      },
    ],
  });

/** metav1.Condition, as controller-gen writes it. */
const conditions = (): Schema =>
  arr(
    obj(
      {
        lastTransitionTime: time(),
        message: str({ maxLength: 32768 }),
        observedGeneration: { type: 'integer', format: 'int64', minimum: 0 },
        reason: str({ maxLength: 1024, minLength: 1, pattern: '^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$' }),
        status: enumOf('True', 'False', 'Unknown'),
        type: str({
          maxLength: 316,
          pattern:
            '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$',
        }),
      },
      ['lastTransitionTime', 'message', 'reason', 'status', 'type'],
    ),
    { 'x-kubernetes-list-map-keys': ['type'], 'x-kubernetes-list-type': 'map' },
  );

function rayClusterSpec(v: Version): Schema {
  const groupRequired = v === 'v1' ? [] : ['rayStartParams'];
  return obj(
    {
      ...v1Only(v, {
        authOptions: obj({ enableK8sTokenAuth: bool(), mode: enumOf('disabled', 'token'), secretName: str() }),
      }),
      autoscalerOptions: obj({
        env: arr(core('V1EnvVar')),
        envFrom: arr(core('V1EnvFromSource')),
        idleTimeoutSeconds: int32(),
        image: str(),
        imagePullPolicy: str(),
        resources: core('V1ResourceRequirements'),
        securityContext: core('V1SecurityContext'),
        upscalingMode: enumOf('Default', 'Aggressive', 'Conservative'),
        ...v1Only(v, { version: enumOf('v1', 'v2') }),
        volumeMounts: arr(core('V1VolumeMount')),
      }),
      enableInTreeAutoscaling: bool(),
      ...v1Only(v, {
        gcsFaultToleranceOptions: obj(
          {
            externalStorageNamespace: str(),
            redisAddress: str(),
            redisPassword: core('V1EnvVar'),
            redisUsername: core('V1EnvVar'),
          },
          ['redisAddress'],
        ),
      }),
      headGroupSpec: obj(
        {
          enableIngress: bool(),
          headService: core('V1Service'),
          ...v1Only(v, { labels: strMap() }),
          rayStartParams: strMap(),
          ...v1Only(v, { resources: strMap() }),
          serviceType: str(),
          template: core('V1PodTemplateSpec'),
        },
        [...groupRequired, 'template'],
      ),
      headServiceAnnotations: strMap(),
      ...v1Only(v, { managedBy: managedBy() }),
      rayVersion: str(),
      suspend: bool(),
      ...v1Only(v, { upgradeStrategy: obj({ type: enumOf('Recreate', 'None') }) }),
      workerGroupSpecs: arr(
        obj(
          {
            groupName: str(),
            ...v1Only(v, { idleTimeoutSeconds: int32(), labels: strMap() }),
            maxReplicas: int32({ default: 2147483647 }),
            minReplicas: int32({ default: 0 }),
            ...v1Only(v, { numOfHosts: int32({ default: 1 }) }),
            rayStartParams: strMap(),
            replicas: int32({ default: 0 }),
            ...v1Only(v, { resources: strMap() }),
            scaleStrategy: obj({ workersToDelete: arr(str()) }),
            ...v1Only(v, { suspend: bool() }),
            template: core('V1PodTemplateSpec'),
          },
          ['groupName', 'maxReplicas', 'minReplicas', ...groupRequired, 'template'],
        ),
      ),
    },
    ['headGroupSpec'],
  );
}

function rayClusterStatus(v: Version): Schema {
  return obj({
    availableWorkerReplicas: int32(),
    ...v1Only(v, { conditions: conditions() }),
    desiredCPU: quantitySchema(),
    desiredGPU: quantitySchema(),
    desiredMemory: quantitySchema(),
    desiredTPU: quantitySchema(),
    desiredWorkerReplicas: int32(),
    endpoints: strMap(),
    head: obj({
      podIP: str(),
      ...v1Only(v, { podName: str() }),
      serviceIP: str(),
      ...v1Only(v, { serviceName: str() }),
    }),
    lastUpdateTime: time({ nullable: true }),
    maxWorkerReplicas: int32(),
    minWorkerReplicas: int32(),
    observedGeneration: int64(),
    readyWorkerReplicas: int32(),
    reason: str(),
    state: str(),
    ...v1Only(v, { stateTransitionTimes: { type: 'object', additionalProperties: time() } }),
  });
}

const deletionPolicy = () => enumOf('DeleteCluster', 'DeleteWorkers', 'DeleteSelf', 'DeleteNone');
const deletionStrategy = (): Schema =>
  obj(
    {
      deletionRules: arr(
        obj(
          {
            condition: obj(
              {
                jobDeploymentStatus: enumOf('Failed'),
                jobStatus: enumOf('SUCCEEDED', 'FAILED'),
                ttlSeconds: int32({ default: 0, minimum: 0 }),
              },
              [],
              {
                'x-kubernetes-validations': [
                  {
                    message:
                      'JobStatus and JobDeploymentStatus cannot be used together within the same deletion condition.',
                    rule: '!(has(self.jobStatus) && has(self.jobDeploymentStatus))',
                  },
                  {
                    message: 'the deletion condition requires either the JobStatus or the JobDeploymentStatus field.',
                    rule: 'has(self.jobStatus) || has(self.jobDeploymentStatus)',
                  },
                ],
              },
            ),
            policy: deletionPolicy(),
          },
          ['condition', 'policy'],
        ),
        { minItems: 1, 'x-kubernetes-list-type': 'atomic' },
      ),
      onFailure: obj({ policy: deletionPolicy() }),
      onSuccess: obj({ policy: deletionPolicy() }),
    },
    [],
    {
      'x-kubernetes-validations': [
        {
          message:
            'legacy policies (onSuccess/onFailure) and deletionRules cannot be used together within the same deletionStrategy',
          rule: '!((has(self.onSuccess) || has(self.onFailure)) && has(self.deletionRules))',
        },
        {
          message:
            'deletionStrategy requires either BOTH onSuccess and onFailure, OR the deletionRules field (cannot be empty)',
          rule: '((has(self.onSuccess) && has(self.onFailure)) || has(self.deletionRules))',
        },
      ],
    },
  );

function rayJobSpec(v: Version): Schema {
  return obj(
    {
      ...v1Only(v, { activeDeadlineSeconds: int32(), backoffLimit: int32({ default: 0 }) }),
      clusterSelector: strMap(),
      ...v1Only(v, { deletionStrategy: deletionStrategy() }),
      entrypoint: str(),
      entrypointNumCpus: { type: 'number' },
      entrypointNumGpus: { type: 'number' },
      entrypointResources: str(),
      jobId: str(),
      ...v1Only(v, { managedBy: managedBy() }),
      metadata: strMap(),
      ...v1Only(v, { preRunningDeadlineSeconds: int32({ minimum: 1 }) }),
      rayClusterSpec: rayClusterSpec(v),
      runtimeEnvYAML: str(),
      shutdownAfterJobFinishes: bool(),
      ...v1Only(v, { submissionMode: str({ default: 'K8sJobMode' }), submitterConfig: obj({ backoffLimit: int32() }) }),
      submitterPodTemplate: core('V1PodTemplateSpec'),
      suspend: bool(),
      ttlSecondsAfterFinished: int32({ default: 0 }),
    },
    v === 'v1' ? [] : ['entrypoint'],
  );
}

function rayJobStatus(v: Version): Schema {
  return obj({
    dashboardURL: str(),
    endTime: time(),
    ...v1Only(v, { failed: int32({ default: 0 }) }),
    jobDeploymentStatus: str(),
    jobId: str(),
    jobStatus: str(),
    message: str(),
    observedGeneration: int64(),
    rayClusterName: str(),
    rayClusterStatus: rayClusterStatus(v),
    ...v1Only(v, { rayJobInfo: obj({ endTime: time(), startTime: time() }), reason: str() }),
    startTime: time(),
    ...v1Only(v, { succeeded: int32({ default: 0 }) }),
  });
}

function rayServiceSpec(v: Version): Schema {
  return obj(
    {
      deploymentUnhealthySecondThreshold: int32(),
      ...v1Only(v, { excludeHeadPodFromServeSvc: bool(), managedBy: managedBy() }),
      rayClusterConfig: rayClusterSpec(v),
      ...v1Only(v, { rayClusterDeletionDelaySeconds: int32({ minimum: 0 }) }),
      serveConfigV2: str(),
      serveService: core('V1Service'),
      serviceUnhealthySecondThreshold: int32(),
      ...v1Only(v, {
        upgradeStrategy: obj({
          clusterUpgradeOptions: obj(
            {
              gatewayClassName: str(),
              intervalSeconds: int32(),
              maxSurgePercent: int32({ default: 100 }),
              stepSizePercent: int32(),
            },
            ['gatewayClassName', 'intervalSeconds', 'stepSizePercent'],
          ),
          type: str(),
        }),
      }),
    },
    v === 'v1' ? ['rayClusterConfig'] : [],
  );
}

function serviceStatus(v: Version): Schema {
  const health = v === 'v1' ? {} : { healthLastUpdateTime: time() };
  const deployment = obj({ ...health, message: str(), status: str() });
  return obj({
    applicationStatuses: {
      type: 'object',
      additionalProperties: obj({
        ...health,
        message: str(),
        serveDeploymentStatuses: { type: 'object', additionalProperties: deployment },
        status: str(),
      }),
    },
    ...v1Only(v, { lastTrafficMigratedTime: time() }),
    rayClusterName: str(),
    rayClusterStatus: rayClusterStatus(v),
    ...v1Only(v, { targetCapacity: int32(), trafficRoutedPercent: int32() }),
  });
}

const rayServiceStatus = (v: Version): Schema =>
  obj({
    activeServiceStatus: serviceStatus(v),
    ...v1Only(v, { conditions: conditions() }),
    lastUpdateTime: time(),
    ...v1Only(v, { numServeEndpoints: int32() }),
    observedGeneration: int64(),
    pendingServiceStatus: serviceStatus(v),
    serviceStatus: str(),
  });

const root = (spec: Schema, status: Schema): Schema => ({
  type: 'object',
  properties: { apiVersion: str(), kind: str(), metadata: { type: 'object' }, spec, status },
});
const age: PrinterColumn = { name: 'age', type: 'date', jsonPath: '.metadata.creationTimestamp' };

const RAY_CLUSTER_COLUMNS: PrinterColumn[] = [
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
];
const RAY_JOB_COLUMNS: PrinterColumn[] = [
  { name: 'job status', type: 'string', jsonPath: '.status.jobStatus' },
  { name: 'deployment status', type: 'string', jsonPath: '.status.jobDeploymentStatus' },
  { name: 'ray cluster name', type: 'string', jsonPath: '.status.rayClusterName' },
  { name: 'start time', type: 'string', jsonPath: '.status.startTime' },
  { name: 'end time', type: 'string', jsonPath: '.status.endTime' },
  age,
];
const RAY_SERVICE_COLUMNS: PrinterColumn[] = [
  { name: 'service status', type: 'string', jsonPath: '.status.serviceStatus' },
  { name: 'num serve endpoints', type: 'string', jsonPath: '.status.numServeEndpoints' },
];

/** The served versions of every KubeRay CRD, storage first. */
export const KUBERAY_CRD_VERSIONS = ['v1', 'v1alpha1'] as const;

const rayCrd = (
  kind: string,
  plural: string,
  schema: (v: Version) => Schema,
  columns: { v1: PrinterColumn[]; v1alpha1?: PrinterColumn[] },
): KubeObject =>
  customResourceDefinitionManifest({
    group: 'ray.io',
    kind,
    plural,
    scope: 'Namespaced',
    categories: ['all'],
    versions: KUBERAY_CRD_VERSIONS.map((v) => ({
      name: v,
      storage: v === 'v1',
      schema: schema(v),
      ...(columns[v] ? { columns: columns[v] } : {}),
    })),
  });

let crds: KubeObject[] | undefined;

/** RayCluster, RayJob and RayService CRDs (built once; callers get copies). */
export function kuberayCrds(): KubeObject[] {
  crds ??= [
    rayCrd('RayCluster', 'rayclusters', (v) => root(rayClusterSpec(v), rayClusterStatus(v)), {
      v1: RAY_CLUSTER_COLUMNS,
      v1alpha1: RAY_CLUSTER_COLUMNS,
    }),
    rayCrd('RayJob', 'rayjobs', (v) => root(rayJobSpec(v), rayJobStatus(v)), { v1: RAY_JOB_COLUMNS }),
    rayCrd('RayService', 'rayservices', (v) => root(rayServiceSpec(v), rayServiceStatus(v)), {
      v1: RAY_SERVICE_COLUMNS,
    }),
  ];
  return structuredClone(crds);
}
