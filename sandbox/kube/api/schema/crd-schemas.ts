import type { KubeCluster } from '../../cluster.js';
import { CRD_TYPE } from '../../resources.js';
import type { KubeObject, ResourceType } from '../../types.js';
import { listSchema, OBJECT_META } from './builtin-schemas.js';
import { REF, type Schema } from './walk.js';

/**
 * The schemas of custom resources: each served version's `openAPIV3Schema` from its CRD, and the
 * form the API server publishes in OpenAPI (named `<reversed group>.<version>.<Kind>`, with
 * `apiVersion`, `kind`, `metadata` declared and `x-kubernetes-group-version-kind` set).
 */

interface CrdVersion {
  name: string;
  schema?: { openAPIV3Schema?: Schema };
}

/** The CRD a custom resource type is served from. */
export function crdOf(cluster: KubeCluster, type: ResourceType): KubeObject | undefined {
  return type.crd ? cluster.objects.get(CRD_TYPE, undefined, type.crd) : undefined;
}

/**
 * Each stored CRD's version schemas, copied once: a CRD embedding pod templates is hundreds of KB,
 * and every write of its objects reads the schema several times (prune, default, validate). A CRD
 * that changes is stored as a new object, so its schemas are read afresh.
 */
const SCHEMAS = new WeakMap<object, Map<string, Schema | undefined>>();

/** The `openAPIV3Schema` of a custom resource type's version, as its CRD declares it (shared: callers must not change it). */
export function customResourceSchema(cluster: KubeCluster, type: ResourceType): Schema | undefined {
  if (!type.crd) return undefined;
  let stored: Readonly<KubeObject> | undefined;
  cluster.objects.scan(CRD_TYPE, undefined, (crd) => {
    if (crd.metadata.name === type.crd) stored = crd;
  });
  if (!stored) return undefined;
  let byVersion = SCHEMAS.get(stored);
  if (!byVersion) SCHEMAS.set(stored, (byVersion = new Map()));
  if (!byVersion.has(type.version)) {
    const versions = (stored.spec as { versions?: CrdVersion[] } | undefined)?.versions ?? [];
    const schema = versions.find((v) => v.name === type.version)?.schema?.openAPIV3Schema;
    byVersion.set(type.version, schema && typeof schema === 'object' ? structuredClone(schema) : undefined);
  }
  return byVersion.get(type.version);
}

/** `stable.example.com` v1 CronTab → `com.example.stable.v1.CronTab`. */
export function customSchemaName(type: Pick<ResourceType, 'group' | 'version' | 'kind'>): string {
  return `${type.group.split('.').reverse().join('.')}.${type.version}.${type.kind}`;
}

/** The published schemas of one custom resource type: the kind and its list. */
export function publishedCustomSchemas(cluster: KubeCluster, type: ResourceType): Record<string, Schema> {
  const own = customResourceSchema(cluster, type) ?? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
  const name = customSchemaName(type);
  const properties = { ...((own.properties ?? {}) as Record<string, Schema>) };
  properties.apiVersion = {
    type: 'string',
    description: 'APIVersion defines the versioned schema of this representation of an object.',
  };
  properties.kind = {
    type: 'string',
    description: 'Kind is a string value representing the REST resource this object represents.',
  };
  properties.metadata = { allOf: [{ $ref: `${REF}${OBJECT_META}` }], description: "Standard object's metadata." };
  return {
    [name]: {
      ...own,
      type: 'object',
      properties,
      'x-kubernetes-group-version-kind': [{ group: type.group, version: type.version, kind: type.kind }],
    },
    [`${name}List`]: listSchema(name, type.group, type.version, type.listKind),
  };
}
