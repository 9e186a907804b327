import type { KubeObject, ResourceType } from './types.js';

/**
 * The built-in resources the sandbox API serves, and the resolver that adds each cluster's
 * custom resources (served from its established CustomResourceDefinitions).
 */

const ALL = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

function builtin(
  group: string,
  version: string,
  resource: string,
  kind: string,
  namespaced: boolean,
  extra: Partial<ResourceType> = {},
): ResourceType {
  return {
    group,
    version,
    resource,
    singular: kind.toLowerCase(),
    kind,
    listKind: `${kind}List`,
    namespaced,
    verbs: ALL,
    ...extra,
  };
}

export const BUILTIN_RESOURCES: ResourceType[] = [
  builtin('', 'v1', 'namespaces', 'Namespace', false, { shortNames: ['ns'], subresources: { status: true } }),
  builtin('', 'v1', 'nodes', 'Node', false, { shortNames: ['no'], subresources: { status: true } }),
  builtin('', 'v1', 'pods', 'Pod', true, {
    shortNames: ['po'],
    categories: ['all'],
    subresources: { status: true, log: true },
  }),
  builtin('', 'v1', 'services', 'Service', true, {
    shortNames: ['svc'],
    categories: ['all'],
    subresources: { status: true },
  }),
  builtin('', 'v1', 'endpoints', 'Endpoints', true, { shortNames: ['ep'], singular: 'endpoints' }),
  builtin('', 'v1', 'configmaps', 'ConfigMap', true, { shortNames: ['cm'] }),
  builtin('', 'v1', 'secrets', 'Secret', true),
  builtin('', 'v1', 'serviceaccounts', 'ServiceAccount', true, { shortNames: ['sa'] }),
  builtin('', 'v1', 'events', 'Event', true, { shortNames: ['ev'] }),
  builtin('', 'v1', 'persistentvolumes', 'PersistentVolume', false, {
    shortNames: ['pv'],
    subresources: { status: true },
  }),
  builtin('', 'v1', 'persistentvolumeclaims', 'PersistentVolumeClaim', true, {
    shortNames: ['pvc'],
    subresources: { status: true },
  }),
  builtin('apps', 'v1', 'deployments', 'Deployment', true, {
    shortNames: ['deploy'],
    categories: ['all'],
    subresources: {
      status: true,
      scale: {
        specReplicasPath: '.spec.replicas',
        statusReplicasPath: '.status.replicas',
        labelSelectorPath: '.status.selector',
      },
    },
  }),
  builtin('apps', 'v1', 'replicasets', 'ReplicaSet', true, {
    shortNames: ['rs'],
    categories: ['all'],
    subresources: {
      status: true,
      scale: {
        specReplicasPath: '.spec.replicas',
        statusReplicasPath: '.status.replicas',
        labelSelectorPath: '.status.selector',
      },
    },
  }),
  builtin('apps', 'v1', 'statefulsets', 'StatefulSet', true, {
    shortNames: ['sts'],
    categories: ['all'],
    subresources: {
      status: true,
      scale: {
        specReplicasPath: '.spec.replicas',
        statusReplicasPath: '.status.replicas',
        labelSelectorPath: '.status.selector',
      },
    },
  }),
  builtin('apps', 'v1', 'daemonsets', 'DaemonSet', true, {
    shortNames: ['ds'],
    categories: ['all'],
    subresources: { status: true },
  }),
  // Groups in kube-apiserver's priority order: apps, autoscaling, batch, networking.k8s.io, rbac, storage.
  builtin('autoscaling', 'v2', 'horizontalpodautoscalers', 'HorizontalPodAutoscaler', true, {
    shortNames: ['hpa'],
    categories: ['all'],
    subresources: { status: true },
  }),
  builtin('batch', 'v1', 'jobs', 'Job', true, { categories: ['all'], subresources: { status: true } }),
  // What the HyperPod inference operator makes for an endpoint's load balancer (an Ingress of class `alb`) and
  // what KEDA makes for a ScaledObject (its HPA), served as kube-apiserver 1.3x serves them.
  builtin('networking.k8s.io', 'v1', 'ingresses', 'Ingress', true, {
    shortNames: ['ing'],
    subresources: { status: true },
  }),
  builtin('rbac.authorization.k8s.io', 'v1', 'roles', 'Role', true),
  builtin('rbac.authorization.k8s.io', 'v1', 'rolebindings', 'RoleBinding', true),
  builtin('rbac.authorization.k8s.io', 'v1', 'clusterroles', 'ClusterRole', false),
  builtin('rbac.authorization.k8s.io', 'v1', 'clusterrolebindings', 'ClusterRoleBinding', false),
  builtin('storage.k8s.io', 'v1', 'storageclasses', 'StorageClass', false, { shortNames: ['sc'] }),
  builtin('storage.k8s.io', 'v1', 'csidrivers', 'CSIDriver', false),
  builtin('apiextensions.k8s.io', 'v1', 'customresourcedefinitions', 'CustomResourceDefinition', false, {
    shortNames: ['crd', 'crds'],
    categories: ['api-extensions'],
    subresources: { status: true },
  }),
];

export const CRD_TYPE = BUILTIN_RESOURCES.find((t) => t.resource === 'customresourcedefinitions')!;
export const NAMESPACE_TYPE = BUILTIN_RESOURCES.find((t) => t.resource === 'namespaces')!;

export const builtinType = (group: string, resource: string): ResourceType => {
  const t = BUILTIN_RESOURCES.find((r) => r.group === group && r.resource === resource);
  if (!t) throw new Error(`no built-in resource ${resource}.${group}`);
  return t;
};

/** The served versions of an established CRD, as resource types (printer columns and subresources included). */
export function typesOfCrd(crd: KubeObject): ResourceType[] {
  const spec = crd.spec as {
    group: string;
    scope: 'Namespaced' | 'Cluster';
    names: {
      plural: string;
      singular?: string;
      kind: string;
      listKind?: string;
      shortNames?: string[];
      categories?: string[];
    };
    versions: Array<{
      name: string;
      served: boolean;
      subresources?: {
        status?: object;
        scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string };
      };
      additionalPrinterColumns?: ResourceType['printerColumns'];
    }>;
  };
  return spec.versions
    .filter((v) => v.served)
    .map((v) => ({
      group: spec.group,
      version: v.name,
      resource: spec.names.plural,
      singular: spec.names.singular ?? spec.names.kind.toLowerCase(),
      kind: spec.names.kind,
      listKind: spec.names.listKind ?? `${spec.names.kind}List`,
      namespaced: spec.scope === 'Namespaced',
      ...(spec.names.shortNames ? { shortNames: spec.names.shortNames } : {}),
      ...(spec.names.categories ? { categories: spec.names.categories } : {}),
      verbs: ALL,
      subresources: {
        ...(v.subresources?.status ? { status: true } : {}),
        ...(v.subresources?.scale ? { scale: v.subresources.scale } : {}),
      },
      ...(v.additionalPrinterColumns ? { printerColumns: v.additionalPrinterColumns } : {}),
      crd: crd.metadata.name!,
    }));
}
