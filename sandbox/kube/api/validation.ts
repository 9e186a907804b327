import type { KubeCluster } from '../cluster.js';
import type { StatusCause } from '../errors.js';
import type { KubeObject, ResourceType } from '../types.js';
import { builtinCatalog, builtinSchemaName, OBJECT_META } from './schema/builtin-schemas.js';
import {
  roleBindingCauses,
  roleCauses,
  configMapCauses,
  persistentVolumeCauses,
  persistentVolumeClaimCauses,
  podCauses,
  secretCauses,
  serviceCauses,
  storageClassCauses,
} from './schema/core-rules.js';
import { celCauses, hasRules } from './schema/cel-validate.js';
import { customResourceDefinitionCauses } from './schema/crd-rules.js';
import { applyDefaults } from './schema/defaults.js';
import { customResourceSchema } from './schema/crd-schemas.js';
import { validateMetadata } from './schema/names.js';
import { pruneValue } from './schema/prune.js';
import { validateValue } from './schema/validate.js';
import { REF, type Resolver, type Schema } from './schema/walk.js';
import {
  daemonSetCauses,
  deploymentCauses,
  jobCauses,
  replicaSetCauses,
  statefulSetCauses,
} from './schema/workload-rules.js';

/**
 * What kube-apiserver checks before it stores an object:
 * - metadata: name (or generateName) by the kind's naming rule, label and annotation keys and
 *   values, finalizer names;
 * - built-in kinds: field types and the required fields of their schema (generated from
 *   client-node's models; `status` is the server's and not held to it), plus the rules of the kinds
 *   users create most (pod specs, workload selectors and templates, services, volumes, claims,
 *   CRDs, RBAC, config data);
 * - custom resources: their CRD version's `openAPIV3Schema`, then its `x-kubernetes-validations`
 *   CEL rules (schema/cel-validate.ts) — unless the schema already found a type, enum, required or
 *   size error, when the API server does not run them and says so.
 * Causes name fields as the API server does (`spec.template.spec.containers[0].image`).
 *
 * Unknown fields are not errors: `pruneObject` drops them first, as the server does when it decodes
 * a built-in kind or prunes a custom resource by its structural schema. `unknownFields` lists them
 * for clients that ask for `fieldValidation=Strict` (kubectl does by default). `defaultObject` fills
 * in the `default`s of a custom resource's schema. The server's order: prune, default, validate.
 */

const resolveBuiltin: Resolver = (ref) =>
  ref.startsWith(REF) ? builtinCatalog().schemas[ref.slice(REF.length)] : undefined;

const RULES: Record<string, (obj: KubeObject) => StatusCause[]> = {
  '/pods': podCauses,
  '/services': serviceCauses,
  '/persistentvolumes': persistentVolumeCauses,
  '/persistentvolumeclaims': persistentVolumeClaimCauses,
  '/configmaps': configMapCauses,
  '/secrets': secretCauses,
  'apps/deployments': deploymentCauses,
  'apps/replicasets': replicaSetCauses,
  'apps/statefulsets': statefulSetCauses,
  'apps/daemonsets': daemonSetCauses,
  'batch/jobs': jobCauses,
  'rbac.authorization.k8s.io/roles': roleCauses,
  'rbac.authorization.k8s.io/clusterroles': roleCauses,
  'rbac.authorization.k8s.io/rolebindings': roleBindingCauses,
  'rbac.authorization.k8s.io/clusterrolebindings': roleBindingCauses,
  'storage.k8s.io/storageclasses': storageClassCauses,
  'apiextensions.k8s.io/customresourcedefinitions': customResourceDefinitionCauses,
};

/**
 * The schema an object of this type is held to. A custom resource's `apiVersion`, `kind` and
 * `metadata` are the server's (ObjectMeta), whatever its CRD says; for validation the CRD may still
 * narrow `metadata.name`.
 */
function schemaOf(cluster: KubeCluster, type: ResourceType, purpose: 'validate' | 'prune'): Schema | undefined {
  if (!type.crd) {
    const name = builtinSchemaName(type);
    return name ? { $ref: `${REF}${name}` } : undefined;
  }
  const own = customResourceSchema(cluster, type);
  if (!own) return undefined;
  const declared = (own.properties ?? {}) as Record<string, Schema>;
  const meta: Schema = { $ref: `${REF}${OBJECT_META}` };
  const metadata = purpose === 'validate' && declared.metadata ? { allOf: [meta, declared.metadata] } : meta;
  return {
    ...own,
    type: 'object',
    properties: { ...declared, apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata },
  };
}

const isStatus = (path: string) => path === 'status' || path.startsWith('status.');
const under = (field: string | undefined, parent: string) =>
  !!field && (field === parent || field.startsWith(`${parent}.`) || field.startsWith(`${parent}[`));

/** Schema errors after which the API server does not evaluate CEL rules (apiextensions-apiserver strategy.go hasBlockingErr). */
const BLOCKING = new Set(['FieldValueNotSupported', 'FieldValueRequired', 'FieldValueTooLong', 'FieldValueTooMany']);
const blocks = (c: StatusCause) => BLOCKING.has(c.reason ?? '') || !!c.message?.includes('in body must be of type');
const NOT_CHECKED: StatusCause = {
  field: '<nil>',
  reason: 'FieldValueInvalid',
  message:
    'Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
};

/** What is wrong with `obj` (nothing: an empty list); `old` is the stored object when this is an update (CEL transition rules). */
export function validateObject(
  cluster: KubeCluster,
  type: ResourceType,
  obj: KubeObject,
  old?: KubeObject,
): StatusCause[] {
  const causes = validateMetadata(type, obj);
  const schema = schemaOf(cluster, type, 'validate');
  const typed = schema
    ? validateValue(obj, schema, '', {
        resolve: resolveBuiltin,
        enforceRequired: type.crd ? undefined : (path) => !isStatus(path),
      })
    : [];
  causes.push(...typed);
  const own = type.crd ? customResourceSchema(cluster, type) : undefined;
  if (own && hasRules(own)) causes.push(...(typed.some(blocks) ? [NOT_CHECKED] : celCauses(own, obj, old, '')));
  if (!type.crd) {
    // A field of the wrong JSON type is reported once, by the schema; the kind's rules skip it.
    const mistyped = typed.filter((c) => c.message?.includes('in body must be of type')).map((c) => c.field!);
    const rules = RULES[`${type.group}/${type.resource}`]?.(obj) ?? [];
    causes.push(...rules.filter((c) => !mistyped.some((f) => under(c.field, f))));
  }
  const seen = new Set<string>();
  return causes.filter((c) => {
    const key = `${c.field}|${c.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The object without the fields its schema does not declare (and without null fields the schema
 * does not allow), as the API server stores it. Objects of a type without a known schema come back
 * unchanged. Returns a new object; `obj` is not modified.
 */
export function pruneObject(cluster: KubeCluster, type: ResourceType, obj: KubeObject): KubeObject {
  const schema = schemaOf(cluster, type, 'prune');
  return schema ? (pruneValue(obj, schema, '', resolveBuiltin).value as KubeObject) : obj;
}

/** The fields `pruneObject` would drop, as `spec.template.spec.containers[0].imagee` (for `fieldValidation=Strict` / `Warn`). */
export function unknownFields(cluster: KubeCluster, type: ResourceType, obj: KubeObject): string[] {
  const schema = schemaOf(cluster, type, 'prune');
  return schema ? pruneValue(obj, schema, '', resolveBuiltin).unknown : [];
}

/**
 * A custom resource with the `default`s of its CRD version's schema filled in, as the API server
 * stores it (call after `pruneObject`, before `validateObject`). Built-in kinds come back unchanged:
 * their defaults are the API layer's.
 */
export function defaultObject(cluster: KubeCluster, type: ResourceType, obj: KubeObject): KubeObject {
  if (!type.crd) return obj;
  const schema = schemaOf(cluster, type, 'prune');
  return schema ? (applyDefaults(obj, schema, resolveBuiltin) as KubeObject) : obj;
}
