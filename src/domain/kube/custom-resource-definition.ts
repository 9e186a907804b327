import type { KubeObject } from '../kube-object.js';
import {
  conditionOf,
  health,
  kubeKind,
  list,
  parseBase,
  parseConditions,
  rec,
  str,
  MANAGED_BY,
  type Condition,
  type KubeHealth,
  type KubeResource,
  type Loose,
} from './kind.js';

/**
 * CustomResourceDefinition: the kinds add-ons and HyperPod bring (Karpenter's NodePool, HyperPod's
 * HyperpodNodeClass, the training operator's jobs), and those of the operators InstantStart installs
 * from manifests itself (KubeRay). A custom kind can be used only once its CRD is Established (the
 * API server serves it); InstantStart waits for that.
 */

export type KubeCustomResourceDefinition = KubeResource & {
  spec: Loose & { group: string; kind: string; plural: string; scope: string; servedVersions: string[] };
  status: Loose & { conditions: Condition[] };
};

export function parseCustomResourceDefinition(raw: unknown): KubeCustomResourceDefinition {
  const base = parseBase(raw, { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition' });
  const spec = rec(base.spec);
  const status = rec(base.status);
  const names = rec(spec.names);
  return {
    ...base,
    spec: {
      ...spec,
      group: str(spec.group) ?? '',
      kind: str(names.kind) ?? '',
      plural: str(names.plural) ?? '',
      scope: str(spec.scope) ?? 'Namespaced',
      servedVersions: list(spec.versions)
        .map(rec)
        .filter((v) => v.served !== false && typeof v.name === 'string')
        .map((v) => v.name as string),
    },
    status: { ...status, conditions: parseConditions(status.conditions) },
  };
}

export const CUSTOM_RESOURCE_DEFINITION = kubeKind<KubeCustomResourceDefinition>(
  {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    plural: 'customresourcedefinitions',
    namespaced: false,
    health: customResourceDefinitionHealth,
  },
  parseCustomResourceDefinition,
);

/** True once the API server serves the CRD's kinds. */
export const isEstablished = (crd: KubeCustomResourceDefinition): boolean =>
  conditionOf(crd.status.conditions, 'Established')?.status === 'True';

/** Established is healthy; NamesAccepted False (another CRD took the names) fails; anything else is on its way. */
export function customResourceDefinitionHealth(crd: KubeCustomResourceDefinition): KubeHealth {
  const name = crd.metadata.name;
  if (isEstablished(crd))
    return health('healthy', 'established', `CRD ${name} is Established: the cluster serves ${crd.spec.kind}.`);
  const names = conditionOf(crd.status.conditions, 'NamesAccepted');
  if (names?.status === 'False')
    return health(
      'failed',
      names.reason ?? 'NamesNotAccepted',
      `CRD ${name} cannot be served: ${names.message || names.reason || 'its names were not accepted'}.`,
    );
  if (crd.metadata.deletionTimestamp) return health('transitional', 'terminating', `CRD ${name} is being deleted.`);
  return health('transitional', 'establishing', `CRD ${name} is not Established yet.`);
}

/** A column `kubectl get` prints for a custom kind (`additionalPrinterColumns`). */
export type PrinterColumn = {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  jsonPath: string;
  priority?: number;
  description?: string;
};

export interface CustomResourceDefinitionSpec {
  group: string;
  kind: string;
  plural: string;
  scope: 'Namespaced' | 'Cluster';
  categories?: readonly string[];
  shortNames?: readonly string[];
  /** Served versions; exactly one is the storage version. */
  versions: ReadonlyArray<{
    name: string;
    storage: boolean;
    schema: Loose;
    columns?: readonly PrinterColumn[];
    status?: boolean;
  }>;
  labels?: Record<string, string>;
}

/** A CRD as controller-gen writes one: structural `openAPIV3Schema` per version, printer columns, the status subresource. */
export function customResourceDefinitionManifest(c: CustomResourceDefinitionSpec): KubeObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${c.plural}.${c.group}`, labels: { ...(c.labels ?? {}), ...MANAGED_BY } },
    spec: {
      group: c.group,
      names: {
        kind: c.kind,
        listKind: `${c.kind}List`,
        plural: c.plural,
        singular: c.kind.toLowerCase(),
        ...(c.categories?.length ? { categories: [...c.categories] } : {}),
        ...(c.shortNames?.length ? { shortNames: [...c.shortNames] } : {}),
      },
      scope: c.scope,
      versions: c.versions.map((v) => ({
        name: v.name,
        served: true,
        storage: v.storage,
        schema: { openAPIV3Schema: structuredClone(v.schema) },
        ...(v.status !== false ? { subresources: { status: {} } } : {}),
        ...(v.columns?.length ? { additionalPrinterColumns: v.columns.map((col) => ({ ...col })) } : {}),
      })),
    },
  };
}
