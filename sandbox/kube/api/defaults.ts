import type { KubeObject, ResourceType } from '../types.js';

/**
 * The defaults kube-apiserver fills in when it decodes a built-in object (on create, update and
 * after a patch alike), limited to the fields users and kubectl notice: pod and pod-template
 * settings, replica counts and strategies, Service ports and traffic policies, and a few storage
 * fields. Only missing fields are set; nothing a client sent is changed.
 */
type Any = Record<string, any>;

/** The object at `parent[key]`, created when missing; a value of the wrong type is left for validation to report. */
const obj = (parent: Any, key: string): Any => {
  if (parent[key] === undefined || parent[key] === null) parent[key] = {};
  return typeof parent[key] === 'object' && !Array.isArray(parent[key]) ? (parent[key] as Any) : {};
};
const fill = (target: Any, defaults: Any) => {
  for (const [k, v] of Object.entries(defaults))
    if (target[k] === undefined || target[k] === null) target[k] = structuredClone(v);
};

function imagePullPolicy(image: unknown): string {
  const ref = String(image ?? '');
  if (ref.includes('@')) return 'IfNotPresent';
  const tag = /:([^/:]+)$/.exec(ref)?.[1];
  return !tag || tag === 'latest' ? 'Always' : 'IfNotPresent';
}

function defaultContainers(list: unknown): void {
  for (const c of (Array.isArray(list) ? list : []) as Any[]) {
    if (!c || typeof c !== 'object') continue;
    fill(c, {
      imagePullPolicy: imagePullPolicy(c.image),
      terminationMessagePath: '/dev/termination-log',
      terminationMessagePolicy: 'File',
      resources: {},
    });
    for (const p of (Array.isArray(c.ports) ? c.ports : []) as Any[])
      if (p && typeof p === 'object') fill(p, { protocol: 'TCP' });
  }
}

export function defaultPodSpec(spec: Any): void {
  fill(spec, {
    restartPolicy: 'Always',
    terminationGracePeriodSeconds: 30,
    dnsPolicy: 'ClusterFirst',
    securityContext: {},
    schedulerName: 'default-scheduler',
    enableServiceLinks: true,
  });
  if (!spec.serviceAccountName) spec.serviceAccountName = spec.serviceAccount || 'default';
  spec.serviceAccount ??= spec.serviceAccountName;
  defaultContainers(spec.containers);
  defaultContainers(spec.initContainers);
}

const templateSpec = (o: KubeObject): Any | undefined => {
  const spec = o.spec as Any | undefined;
  if (
    !spec ||
    typeof spec !== 'object' ||
    !spec.template ||
    typeof spec.template !== 'object' ||
    Array.isArray(spec.template)
  )
    return undefined;
  return obj(spec.template as Any, 'spec');
};

const BY_KIND: Record<string, (o: KubeObject) => void> = {
  'core/pods': (o) => defaultPodSpec(obj(o as Any, 'spec')),
  'core/namespaces': (o) => fill(obj(o as Any, 'spec'), { finalizers: ['kubernetes'] }),
  'core/secrets': (o) => fill(o as Any, { type: 'Opaque' }),
  'core/services': (o) => {
    const spec = obj(o as Any, 'spec');
    fill(spec, { type: 'ClusterIP', sessionAffinity: 'None', internalTrafficPolicy: 'Cluster' });
    if (spec.type !== 'ExternalName') fill(spec, { ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack' });
    if (spec.type === 'NodePort' || spec.type === 'LoadBalancer') fill(spec, { externalTrafficPolicy: 'Cluster' });
    if (spec.type === 'LoadBalancer') fill(spec, { allocateLoadBalancerNodePorts: true });
    for (const p of (Array.isArray(spec.ports) ? spec.ports : []) as Any[])
      if (p && typeof p === 'object') fill(p, { protocol: 'TCP', targetPort: p.port });
  },
  'core/persistentvolumes': (o) =>
    fill(obj(o as Any, 'spec'), { persistentVolumeReclaimPolicy: 'Retain', volumeMode: 'Filesystem' }),
  'core/persistentvolumeclaims': (o) => fill(obj(o as Any, 'spec'), { volumeMode: 'Filesystem' }),
  'apps/deployments': (o) =>
    fill(obj(o as Any, 'spec'), {
      replicas: 1,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
    }),
  'apps/replicasets': (o) => fill(obj(o as Any, 'spec'), { replicas: 1 }),
  'apps/statefulsets': (o) =>
    fill(obj(o as Any, 'spec'), {
      replicas: 1,
      podManagementPolicy: 'OrderedReady',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
      revisionHistoryLimit: 10,
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
    }),
  'apps/daemonsets': (o) =>
    fill(obj(o as Any, 'spec'), {
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
      revisionHistoryLimit: 10,
    }),
  'batch/jobs': (o) => {
    const spec = obj(o as Any, 'spec');
    if (spec.completions === undefined && spec.parallelism === undefined) spec.completions = 1;
    fill(spec, { parallelism: 1, backoffLimit: 6, completionMode: 'NonIndexed', suspend: false });
  },
  'storage.k8s.io/storageclasses': (o) => fill(o as Any, { reclaimPolicy: 'Delete', volumeBindingMode: 'Immediate' }),
  'storage.k8s.io/csidrivers': (o) =>
    fill(obj(o as Any, 'spec'), {
      attachRequired: true,
      podInfoOnMount: false,
      requiresRepublish: false,
      storageCapacity: false,
      fsGroupPolicy: 'ReadWriteOnceWithFSType',
      volumeLifecycleModes: ['Persistent'],
      seLinuxMount: false,
    }),
  'apiextensions.k8s.io/customresourcedefinitions': (o) =>
    fill(obj(o as Any, 'spec'), { conversion: { strategy: 'None' } }),
};

const WITH_POD_TEMPLATE = new Set([
  'apps/deployments',
  'apps/replicasets',
  'apps/statefulsets',
  'apps/daemonsets',
  'batch/jobs',
]);

export function applyDefaults(type: ResourceType, o: KubeObject): void {
  if (type.crd) return;
  const key = `${type.group || 'core'}/${type.resource}`;
  BY_KIND[key]?.(o);
  if (WITH_POD_TEMPLATE.has(key)) {
    const tpl = templateSpec(o);
    if (tpl) defaultPodSpec(tpl);
  }
}
