import type { KubeObject, PrinterColumn } from '../types.js';
import type { Any } from './util.js';

/**
 * Builders for the objects EKS add-ons install, so the manifests (addon-manifests.ts,
 * addon-crds.ts) read like data. Workload pods carry `sandbox.instantstart.dev/program:
 * controller` (a controller's log) unless a container says otherwise.
 */

export const PROGRAM = 'sandbox.instantstart.dev/program';

export interface AddonParams {
  /** The add-on version, `v1.19.2-eksbuild.1`. */
  version: string;
  /** Where its namespaced objects go (namespaceConfig, or the add-on's default). */
  namespace: string;
  region: string;
  /** The cluster DNS Service IP (`.10` of the service CIDR). */
  clusterDns: string;
  /** The add-on's configuration values, parsed (CreateAddon/UpdateAddon `configurationValues`). */
  configuration?: unknown;
}

/** The EKS add-on image registry of a region. */
export const ecr = (region: string) => `602401143452.dkr.ecr.${region}.amazonaws.com`;
/** `v1.19.2-eksbuild.1` → `v1.19.2`. */
export const upstream = (version: string) => version.replace(/-eksbuild\.\d+$/, '');

export const namespace = (name: string, labels: Record<string, string> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name, labels: { 'kubernetes.io/metadata.name': name, ...labels } },
  spec: { finalizers: ['kubernetes'] },
  status: { phase: 'Active' },
});

export const serviceAccount = (ns: string, name: string, labels: Record<string, string> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ServiceAccount',
  metadata: { name, namespace: ns, labels: { 'app.kubernetes.io/name': name, ...labels } },
});

export const configMap = (
  ns: string,
  name: string,
  data: Record<string, string>,
  labels: Record<string, string> = {},
): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: ns, labels },
  data,
});

export interface ContainerSpec {
  name: string;
  image: string;
  args?: string[];
  command?: string[];
  ports?: Array<{ name: string; containerPort: number; protocol?: string }>;
  requests?: Record<string, string>;
  limits?: Record<string, string>;
}

export interface WorkloadSpec {
  labels: Record<string, string>;
  containers: ContainerSpec[];
  initContainers?: ContainerSpec[];
  serviceAccountName?: string;
  replicas?: number;
  hostNetwork?: boolean;
  priorityClassName?: string;
  nodeSelector?: Record<string, string>;
  tolerations?: Any[];
  /** Per-container program annotations (an init container that runs to completion: `oneshot`). */
  programs?: Record<string, string>;
}

const container = (c: ContainerSpec): Any => ({
  name: c.name,
  image: c.image,
  ...(c.command ? { command: c.command } : {}),
  ...(c.args ? { args: c.args } : {}),
  ...(c.ports ? { ports: c.ports.map((p) => ({ ...p, protocol: p.protocol ?? 'TCP' })) } : {}),
  resources: { ...(c.requests ? { requests: c.requests } : {}), ...(c.limits ? { limits: c.limits } : {}) },
});

function podTemplate(w: WorkloadSpec): Any {
  const annotations: Record<string, string> = { [PROGRAM]: 'controller' };
  for (const [name, program] of Object.entries(w.programs ?? {})) annotations[`${PROGRAM}.${name}`] = program;
  return {
    metadata: { labels: w.labels, annotations },
    spec: {
      ...(w.serviceAccountName ? { serviceAccountName: w.serviceAccountName } : {}),
      ...(w.hostNetwork ? { hostNetwork: true, dnsPolicy: 'ClusterFirstWithHostNet' } : {}),
      ...(w.priorityClassName ? { priorityClassName: w.priorityClassName } : {}),
      ...(w.nodeSelector ? { nodeSelector: w.nodeSelector } : {}),
      ...(w.tolerations ? { tolerations: w.tolerations } : {}),
      ...(w.initContainers ? { initContainers: w.initContainers.map(container) } : {}),
      containers: w.containers.map(container),
    },
  };
}

export const deployment = (ns: string, name: string, w: WorkloadSpec): KubeObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: ns, labels: w.labels },
  spec: { replicas: w.replicas ?? 1, selector: { matchLabels: w.labels }, template: podTemplate(w) },
});

export const daemonSet = (ns: string, name: string, w: WorkloadSpec): KubeObject => ({
  apiVersion: 'apps/v1',
  kind: 'DaemonSet',
  metadata: { name, namespace: ns, labels: w.labels },
  spec: {
    selector: { matchLabels: w.labels },
    template: podTemplate({ tolerations: [{ operator: 'Exists' }], priorityClassName: 'system-node-critical', ...w }),
  },
});

export const service = (
  ns: string,
  name: string,
  selector: Record<string, string>,
  ports: Array<{ name: string; port: number; targetPort?: number | string; protocol?: string }>,
  extra: Any = {},
): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name, namespace: ns, labels: selector },
  spec: {
    type: 'ClusterIP',
    selector,
    ports: ports.map((p) => ({ protocol: 'TCP', targetPort: p.port, ...p })),
    ...extra,
  },
});

export const csiDriver = (name: string, spec: Any): KubeObject => ({
  apiVersion: 'storage.k8s.io/v1',
  kind: 'CSIDriver',
  metadata: { name },
  spec: {
    attachRequired: false,
    podInfoOnMount: false,
    fsGroupPolicy: 'ReadWriteOnceWithFSType',
    volumeLifecycleModes: ['Persistent'],
    ...spec,
  },
});

export interface CrdSpec {
  group: string;
  kind: string;
  plural: string;
  scope: 'Namespaced' | 'Cluster';
  /** Served versions; the first is the storage version. */
  versions: string[];
  shortNames?: string[];
  categories?: string[];
  columns?: PrinterColumn[];
  /** The openAPIV3Schema of `.spec` (and of `.status` when given). */
  spec: Any;
  status?: Any;
  scale?: boolean;
}

/** A CustomResourceDefinition as controller-gen writes them: structural schema, printer columns, status (and scale) subresources. */
export function crd(c: CrdSpec): KubeObject {
  const schema = {
    openAPIV3Schema: {
      description: `${c.kind} is the Schema for the ${c.plural} API.`,
      type: 'object',
      properties: {
        apiVersion: { type: 'string' },
        kind: { type: 'string' },
        metadata: { type: 'object' },
        spec: c.spec,
        status: c.status ?? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      },
    },
  };
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${c.plural}.${c.group}` },
    spec: {
      group: c.group,
      names: {
        kind: c.kind,
        listKind: `${c.kind}List`,
        plural: c.plural,
        singular: c.kind.toLowerCase(),
        ...(c.shortNames ? { shortNames: c.shortNames } : {}),
        ...(c.categories ? { categories: c.categories } : {}),
      },
      scope: c.scope,
      versions: c.versions.map((name, i) => ({
        name,
        served: true,
        storage: i === 0,
        schema,
        subresources: {
          status: {},
          ...(c.scale
            ? {
                scale: {
                  specReplicasPath: '.spec.replicas',
                  statusReplicasPath: '.status.replicas',
                  labelSelectorPath: '.status.selector',
                },
              }
            : {}),
        },
        ...(c.columns?.length ? { additionalPrinterColumns: c.columns } : {}),
      })),
    },
  };
}

/** Schema shorthands. */
export const str = (extra: Any = {}): Any => ({ type: 'string', ...extra });
export const int = (extra: Any = {}): Any => ({ type: 'integer', format: 'int32', ...extra });
export const bool = (extra: Any = {}): Any => ({ type: 'boolean', ...extra });
export const obj = (properties: Any, required: string[] = [], extra: Any = {}): Any => ({
  type: 'object',
  properties,
  ...(required.length ? { required } : {}),
  ...extra,
});
export const arr = (items: Any, extra: Any = {}): Any => ({ type: 'array', items, ...extra });
export const open = (extra: Any = {}): Any => ({
  type: 'object',
  'x-kubernetes-preserve-unknown-fields': true,
  ...extra,
});
export const conditions = (): Any =>
  arr(
    obj(
      {
        type: str(),
        status: str({ enum: ['True', 'False', 'Unknown'] }),
        reason: str(),
        message: str(),
        lastTransitionTime: str({ format: 'date-time' }),
        observedGeneration: { type: 'integer', format: 'int64' },
      },
      ['type', 'status'],
    ),
  );
export const age: PrinterColumn = { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' };
