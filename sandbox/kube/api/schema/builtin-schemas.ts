import { patchExtensions } from '../../patch/index.js';
import { BUILTIN_RESOURCES } from '../../resources.js';
import type { ResourceType } from '../../types.js';
import { isModel, model } from './client-models.js';
import { REF, type Schema } from './walk.js';

/**
 * OpenAPI v3 schemas of the built-in kinds, named as the API server names them
 * (`io.k8s.api.core.v1.PodSpec`), generated once from client-node's models: every model reachable
 * from the served kinds, each kind and list kind tagged with `x-kubernetes-group-version-kind`.
 */

export const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
export const LIST_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta';
const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
const INT_OR_STRING = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';
export const PATCH = 'io.k8s.apimachinery.pkg.apis.meta.v1.Patch';
export const DELETE_OPTIONS = 'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions';
export const STATUS = 'io.k8s.apimachinery.pkg.apis.meta.v1.Status';

/** Shared apimachinery types (client-node names them like any v1 model). */
const META_KINDS = new Set([
  'ObjectMeta',
  'ListMeta',
  'LabelSelector',
  'LabelSelectorRequirement',
  'OwnerReference',
  'ManagedFieldsEntry',
  'Condition',
  'Status',
  'StatusDetails',
  'StatusCause',
  'DeleteOptions',
  'Preconditions',
  'Patch',
]);
/** Core types first reached from another group's kinds. */
const CORE_MODELS = new Set(['V1PodTemplateSpec', 'V1TopologySelectorTerm', 'V1TopologySelectorLabelRequirement']);
/** Resource quantities travel as strings or numbers (`cpu: 2`, `memory: 4Gi`); client-node types them as strings. */
const QUANTITY_FIELDS = new Set([
  'limits',
  'requests',
  'capacity',
  'allocatable',
  'hard',
  'used',
  'overhead',
  'allocatedResources',
  'sizeLimit',
  'divisor',
]);

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export function packageOfGroup(group: string): string {
  if (group === '') return 'io.k8s.api.core';
  if (group === 'apiextensions.k8s.io') return 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions';
  return `io.k8s.api.${group.split('.')[0]}`;
}

/** The client-node class of a built-in kind: core/v1 Event → CoreV1Event, apps/v1 Deployment → V1Deployment. */
export function modelOfKind(group: string, version: string, kind: string): string | undefined {
  const v = capitalise(version);
  return [`${capitalise(group.split('.')[0] || 'core')}${v}${kind}`, `${v}${kind}`].find(isModel);
}

interface Catalog {
  schemas: Record<string, Schema>;
  /** `group/version/Kind` → component name. */
  kinds: Map<string, string>;
}

const gvkKey = (group: string, version: string, kind: string) => `${group}/${version}/${kind}`;
let catalog: Catalog | undefined;

/** The component name of a built-in kind (`io.k8s.api.apps.v1.Deployment`). */
export function builtinSchemaName(t: Pick<ResourceType, 'group' | 'version' | 'kind'>): string | undefined {
  return builtinCatalog().kinds.get(gvkKey(t.group, t.version, t.kind));
}

export function builtinCatalog(): Catalog {
  if (catalog) return catalog;
  const names = new Map<string, string>();
  const schemas: Record<string, Schema> = {
    [QUANTITY]: { anyOf: [{ type: 'number' }, { type: 'string' }] },
    [INT_OR_STRING]: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
    [PATCH]: {
      type: 'object',
      description: 'A patch document: JSON Patch, JSON merge patch, strategic merge patch or an apply configuration.',
    },
  };
  const queue: Array<{ cls: string; pkg: string }> = [];
  const nameOf = (cls: string, pkg: string): string => {
    let name = names.get(cls);
    if (name) return name;
    const parts = /^([A-Z][a-z]+)?(V\d+(?:(?:alpha|beta)\d+)?)([A-Z]\w*)$/.exec(cls);
    const [prefix, version, kind] = parts ? [parts[1], parts[2]!.toLowerCase(), parts[3]!] : [undefined, 'v1', cls];
    const own = META_KINDS.has(kind)
      ? 'io.k8s.apimachinery.pkg.apis.meta'
      : CORE_MODELS.has(cls)
        ? 'io.k8s.api.core'
        : prefix
          ? packageOfGroup(prefix === 'Core' ? '' : prefix.toLowerCase())
          : pkg;
    name = `${own}.${version}.${kind}`;
    names.set(cls, name);
    queue.push({ cls, pkg: own });
    return name;
  };
  const kinds = new Map<string, string>();
  const types = [...BUILTIN_RESOURCES, { group: 'autoscaling', version: 'v1', kind: 'Scale', listKind: '' }];
  for (const t of types) {
    const cls = modelOfKind(t.group, t.version, t.kind);
    if (cls) kinds.set(gvkKey(t.group, t.version, t.kind), nameOf(cls, packageOfGroup(t.group)));
  }
  // Shared by every group's operations: list metadata, delete bodies, delete and error answers.
  for (const shared of ['V1ListMeta', 'V1DeleteOptions', 'V1Status'])
    nameOf(shared, 'io.k8s.apimachinery.pkg.apis.meta');
  for (let next = queue.shift(); next; next = queue.shift()) {
    schemas[names.get(next.cls)!] = modelSchema(next.cls, (cls) => nameOf(cls, next.pkg));
  }
  for (const t of types) {
    const name = kinds.get(gvkKey(t.group, t.version, t.kind));
    if (!name) continue;
    schemas[name]!['x-kubernetes-group-version-kind'] = [{ group: t.group, version: t.version, kind: t.kind }];
    if (t.listKind) {
      schemas[`${name}List`] = listSchema(name, t.group, t.version, t.listKind);
      kinds.set(gvkKey(t.group, t.version, t.listKind), `${name}List`);
    }
  }
  // The list merge keys and strategies the patch engine uses, so client-side `kubectl apply` computes
  // the same strategic patches against this server as against a real one (removals included).
  for (const [definition, properties] of Object.entries(patchExtensions())) {
    const target = schemas[definition]?.properties as Record<string, Schema> | undefined;
    if (!target) continue;
    for (const [field, extensions] of Object.entries(properties))
      if (target[field]) Object.assign(target[field]!, extensions);
  }
  catalog = { schemas, kinds };
  return catalog;
}

function modelSchema(cls: string, refName: (cls: string) => string): Schema {
  const m = model(cls)!;
  const properties: Record<string, Schema> = {};
  for (const f of m.fields) {
    const schema = typeSchema(f.type, f.format, QUANTITY_FIELDS.has(f.wireName), refName);
    if (!f.description) properties[f.wireName] = schema;
    else if (schema.$ref) properties[f.wireName] = { allOf: [schema], description: f.description };
    else properties[f.wireName] = { ...schema, description: f.description };
  }
  const required = m.fields.filter((f) => f.required).map((f) => f.wireName);
  return {
    type: 'object',
    ...(m.description ? { description: m.description } : {}),
    properties,
    ...(required.length > 0 ? { required } : {}),
  };
}

function typeSchema(type: string, format: string, quantity: boolean, refName: (cls: string) => string): Schema {
  const t = type.trim();
  const array = /^Array<(.+)>$/.exec(t);
  if (array) return { type: 'array', items: typeSchema(array[1]!, '', quantity, refName) };
  const map = /^\{ \[key: string\]: (.+); \}$/.exec(t);
  if (map) return { type: 'object', additionalProperties: typeSchema(map[1]!, '', quantity, refName) };
  switch (t) {
    case 'string':
      return quantity ? { $ref: `${REF}${QUANTITY}` } : { type: 'string', ...(format ? { format } : {}) };
    case 'number':
      return format.startsWith('int') ? { type: 'integer', format } : { type: 'number', ...(format ? { format } : {}) };
    case 'boolean':
      return { type: 'boolean' };
    case 'Date':
      return { type: 'string', format: 'date-time' };
    case 'IntOrString':
      return { $ref: `${REF}${INT_OR_STRING}` };
  }
  if (isModel(t)) return { $ref: `${REF}${refName(t)}` };
  // `any` (raw extensions, JSON values): whatever the client sends is kept.
  return { 'x-kubernetes-preserve-unknown-fields': true };
}

/** The schema of a list kind (`PodList`): items of the kind's schema, list metadata, tagged with its own group/version/kind. */
export function listSchema(item: string, group: string, version: string, listKind: string): Schema {
  return {
    type: 'object',
    description: `${listKind} is a list of ${item.split('.').pop()}.`,
    properties: {
      apiVersion: { type: 'string' },
      items: { type: 'array', items: { $ref: `${REF}${item}` } },
      kind: { type: 'string' },
      metadata: { $ref: `${REF}${LIST_META}` },
    },
    required: ['items'],
    'x-kubernetes-group-version-kind': [{ group, version, kind: listKind }],
  };
}
