import { builtinCatalog, OBJECT_META } from './builtin-schemas.js';
import { isPlainObject, REF, type Schema } from './walk.js';

/**
 * A built-in type written out in full, for a CustomResourceDefinition to embed: a CRD's
 * `openAPIV3Schema` cannot `$ref`, so a custom resource that holds a PodTemplateSpec (a training
 * job's replicas, a Ray cluster's groups) carries the whole tree inline — what controller-gen
 * writes for an operator's CRD. Generated from the same client-node models as the built-in kinds'
 * schemas (builtin-schemas.ts), never copied by hand, and kept structural:
 * - references resolved (`{allOf: [{$ref}]}` too); descriptions left out (controller-gen's
 *   `maxDescLen=0`), so the CRD stays small;
 * - `Quantity` and `IntOrString` as controller-gen types them: `x-kubernetes-int-or-string`
 *   (integer or string; `cpu: 0.5` is refused in a custom resource, as a real API server refuses it);
 * - an embedded `ObjectMeta` as controller-gen's `generateEmbeddedObjectMeta` writes it: labels,
 *   annotations, finalizers, name, namespace — anything else in it is pruned;
 * - the strategic-merge markers (`x-kubernetes-patch-*`) dropped: a CRD schema has no such keywords;
 *   a list-map (`x-kubernetes-list-type: map`) kept only where every key is a required field, as the
 *   API server demands of a CRD (keys must be required or defaulted, and these models carry no defaults).
 */

const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
const INT_OR_STRING = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';
const INT_OR_STRING_SCHEMA: Schema = {
  'x-kubernetes-int-or-string': true,
  anyOf: [{ type: 'integer' }, { type: 'string' }],
};
const stringMap = (): Schema => ({ type: 'object', additionalProperties: { type: 'string' } });
const EMBEDDED_META: Schema = {
  type: 'object',
  properties: {
    annotations: stringMap(),
    finalizers: { type: 'array', items: { type: 'string' } },
    labels: stringMap(),
    name: { type: 'string' },
    namespace: { type: 'string' },
  },
};

/** The JSONSchemaProps keywords an inlined built-in schema keeps. */
const KEPT = new Set([
  'type',
  'format',
  'enum',
  'properties',
  'items',
  'additionalProperties',
  'required',
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-list-type',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-map-type',
]);

const cache = new Map<string, Schema>();

/**
 * The built-in definition `name` (`io.k8s.api.core.v1.PodTemplateSpec`) as a self-contained
 * structural schema. Each call returns a fresh copy (a CRD may add to its own).
 *
 * @example
 * embeddedSchema('io.k8s.api.core.v1.PodTemplateSpec').properties.spec.required // ['containers']
 */
export function embeddedSchema(name: string): Schema {
  let built = cache.get(name);
  if (!built) {
    built = inline({ $ref: `${REF}${name}` }, []);
    cache.set(name, built);
  }
  return structuredClone(built);
}

function inline(schema: Schema, stack: string[]): Schema {
  const wrapped =
    Array.isArray(schema.allOf) && schema.allOf.length === 1 && schema.type === undefined
      ? (schema.allOf[0] as Schema)
      : undefined;
  const ref =
    typeof schema.$ref === 'string' ? schema.$ref : typeof wrapped?.$ref === 'string' ? wrapped.$ref : undefined;
  if (ref) return inlineRef(ref.slice(REF.length), stack);
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) if (KEPT.has(key)) out[key] = value;
  if (isPlainObject(schema.properties))
    out.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([field, sub]) => [field, inline(sub as Schema, stack)]),
    );
  if (isPlainObject(schema.items)) out.items = inline(schema.items, stack);
  if (isPlainObject(schema.additionalProperties)) out.additionalProperties = inline(schema.additionalProperties, stack);
  if (out['x-kubernetes-list-type'] === 'map') {
    const keys = (out['x-kubernetes-list-map-keys'] ?? []) as string[];
    const required = new Set((out.items?.required ?? []) as string[]);
    if (keys.length === 0 || !keys.every((k) => required.has(k))) {
      delete out['x-kubernetes-list-type'];
      delete out['x-kubernetes-list-map-keys'];
    }
  }
  return out;
}

function inlineRef(name: string, stack: string[]): Schema {
  if (name === QUANTITY || name === INT_OR_STRING) return structuredClone(INT_OR_STRING_SCHEMA);
  if (name === OBJECT_META) return structuredClone(EMBEDDED_META);
  // A recursive type cannot be written out; no type a pod template reaches is one (a new client-node would say so
  // here).
  if (stack.includes(name))
    throw new Error(`cannot inline ${name}: it contains itself (${[...stack, name].join(' → ')})`);
  const target = builtinCatalog().schemas[name];
  if (!target) throw new Error(`no built-in schema named ${name}`);
  return inline(target, [...stack, name]);
}
