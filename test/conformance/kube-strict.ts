import { builtinCatalog, builtinSchemaName, OBJECT_META } from '../../sandbox/kube/api/schema/builtin-schemas.js';
import { celCauses, hasRules } from '../../sandbox/kube/api/schema/cel-validate.js';
import { validateMetadata } from '../../sandbox/kube/api/schema/names.js';
import { pruneValue } from '../../sandbox/kube/api/schema/prune.js';
import { validateValue } from '../../sandbox/kube/api/schema/validate.js';
import { REF, type Resolver, type Schema } from '../../sandbox/kube/api/schema/walk.js';
import { BUILTIN_RESOURCES, typesOfCrd } from '../../sandbox/kube/resources.js';
import type { KubeObject, ResourceType } from '../../sandbox/kube/types.js';
import { nodePoolProblems, scaledObjectProblems } from '../helpers/upstream-models.js';

/**
 * Holds one Kubernetes object, as the product applied it, to the strictest reading of its kind's
 * upstream definition: built-in kinds to their OpenAPI schemas (generated from client-node's models,
 * as the sandbox API server uses them); custom resources to their CRD's schema and its CEL rules — the sandbox's
 * add-on CRDs, typed from upstream, or the CRDs the product applied itself. Unlike the API server,
 * which prunes unknown fields silently, a field the schema does not declare is a violation here: on
 * a real cluster it would be dropped without a word. A custom resource whose kind has no CRD, or whose
 * CRD leaves `spec` untyped, is a violation too ("no schema"), so a new kind cannot slip past.
 * NodePools and ScaledObjects are also held to the kubernetes-models validators (upstream's schemas
 * packaged by a third party).
 */

const resolveBuiltin: Resolver = (ref) =>
  ref.startsWith(REF) ? builtinCatalog().schemas[ref.slice(REF.length)] : undefined;

export interface CrdSchema {
  schema: Schema;
  /** Where the CRD came from, for messages: `sandbox add-on CRD`, `CRD applied by the product`. */
  origin: string;
  type: ResourceType;
}

const gvk = (group: string, version: string, kind: string) => `${group ? `${group}/` : ''}${version}/${kind}`;

/** The schema of every served version of the given CRDs, by group/version/kind (later CRDs win). */
export function crdSchemas(sources: Array<{ crd: KubeObject; origin: string }>): Map<string, CrdSchema> {
  const out = new Map<string, CrdSchema>();
  for (const { crd, origin } of sources) {
    const versions =
      (crd.spec as { versions?: Array<{ name: string; schema?: { openAPIV3Schema?: Schema } }> })?.versions ?? [];
    for (const type of typesOfCrd(crd)) {
      const schema = versions.find((v) => v.name === type.version)?.schema?.openAPIV3Schema;
      if (schema) out.set(gvk(type.group, type.version, type.kind), { schema, origin, type });
    }
  }
  return out;
}

const splitApiVersion = (apiVersion: string): [string, string] => {
  const i = apiVersion.lastIndexOf('/');
  return i < 0 ? ['', apiVersion] : [apiVersion.slice(0, i), apiVersion.slice(i + 1)];
};

/** A schema that keeps whatever it is given at its root or at `spec` says nothing about the object. */
function untyped(schema: Schema): string | undefined {
  if (schema['x-kubernetes-preserve-unknown-fields'] === true) return 'its schema keeps unknown fields at the root';
  const spec = (schema.properties as Record<string, Schema> | undefined)?.spec;
  if (!spec) return undefined;
  if (spec['x-kubernetes-preserve-unknown-fields'] === true)
    return '`spec` keeps unknown fields (x-kubernetes-preserve-unknown-fields)';
  if (spec.type === 'object' && !spec.properties && spec.additionalProperties === undefined)
    return '`spec` declares no fields';
  return undefined;
}

const isStatus = (path: string) => path === 'status' || path.startsWith('status.');

/** Every way `obj` departs from its kind's upstream definition, each as one line naming the field. */
export function strictViolations(obj: KubeObject, crds: ReadonlyMap<string, CrdSchema>): string[] {
  const [group, version] = splitApiVersion(obj.apiVersion ?? '');
  const kind = obj.kind ?? '';
  const key = gvk(group, version, kind);
  const builtin = BUILTIN_RESOURCES.find((t) => t.group === group && t.version === version && t.kind === kind);
  let schema: Schema;
  let type: ResourceType;
  let enforceRequired: ((path: string) => boolean) | undefined;
  if (builtin) {
    const name = builtinSchemaName(builtin);
    if (!name) return [`${key}: no schema (client-node has no model for this built-in kind)`];
    schema = { $ref: `${REF}${name}` };
    type = builtin;
    enforceRequired = (path) => !isStatus(path);
  } else {
    const crd = crds.get(key);
    if (!crd)
      return [`${key}: no schema (no CRD serves it among the sandbox's add-ons or the CRDs the product applied)`];
    const loose = untyped(crd.schema);
    if (loose) return [`${key}: no strict schema: ${loose} (${crd.origin})`];
    const own = crd.schema;
    schema = {
      ...own,
      type: 'object',
      properties: {
        ...((own.properties ?? {}) as Record<string, Schema>),
        apiVersion: { type: 'string' },
        kind: { type: 'string' },
        metadata: { $ref: `${REF}${OBJECT_META}` },
      },
    };
    type = crd.type;
  }
  const causes = [
    ...validateMetadata(type, obj),
    ...validateValue(obj, schema, '', { resolve: resolveBuiltin, ...(enforceRequired ? { enforceRequired } : {}) }),
  ];
  // A custom resource's CEL rules (x-kubernetes-validations), as the sandbox API server evaluates them on a create.
  if (!builtin && hasRules(schema)) causes.push(...celCauses(schema, obj, undefined, ''));
  const lines = causes.map((c) => `${c.field}: ${c.message}`);
  for (const field of pruneValue(obj, schema, '', resolveBuiltin).unknown)
    lines.push(`${field}: unknown field (a real API server drops it without a word)`);
  lines.push(...libraryViolations(obj));
  return lines;
}

/** The kubernetes-models validators of the kinds the issue names (NodePool, ScaledObject: test/helpers/upstream-models.ts). */
function libraryViolations(obj: KubeObject): string[] {
  const problems =
    obj.apiVersion === 'karpenter.sh/v1' && obj.kind === 'NodePool'
      ? nodePoolProblems(obj)
      : obj.apiVersion === 'keda.sh/v1alpha1' && obj.kind === 'ScaledObject'
        ? scaledObjectProblems(obj)
        : [];
  return problems.map((p) => `@kubernetes-models: ${p}`);
}
