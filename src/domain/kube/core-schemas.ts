import { readFileSync } from 'node:fs';
import * as generated from '@kubernetes/client-node/dist/gen/models/all.js';

/**
 * Structural OpenAPI schemas of Kubernetes core types (PodTemplateSpec, Container, Service, …) as
 * controller-gen inlines them into a CRD, generated from @kubernetes/client-node's models — the
 * client the product talks to Kubernetes with — instead of thousands of hand-written lines:
 * - every field typed from the model's `attributeTypeMap` (integers with their format, date-times,
 *   arrays, string maps), required fields from its declaration file (`name: T` vs `name?: T`);
 * - IntOrString as `anyOf: [integer, string]` + `x-kubernetes-int-or-string`, resource quantities the
 *   same with apimachinery's quantity pattern;
 * - an embedded ObjectMeta (a pod template's `metadata`) with only the fields controller-gen keeps
 *   (`generateEmbeddedObjectMeta`): annotations, finalizers, labels, name, namespace.
 * - the `default`s Kubernetes' types declare (`+default` markers, which controller-gen prints into
 *   CRDs: a port's `protocol: TCP`, a reference's `name: ""`, …), as data below.
 * Not carried (client-node has no trace of them): field descriptions, list types and map keys.
 * Schemas are built once per model and shared: callers must clone before changing one.
 */

type Schema = Record<string, unknown>;

interface Attribute {
  name: string;
  baseName: string;
  type: string;
  format: string;
}

const classes = generated as unknown as Record<string, { attributeTypeMap?: Attribute[] } | undefined>;

/** apimachinery's resource.Quantity, as CRDs spell it. */
export const QUANTITY_PATTERN =
  '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$';
export const intOrString = (): Schema => ({
  anyOf: [{ type: 'integer' }, { type: 'string' }],
  'x-kubernetes-int-or-string': true,
});
export const quantitySchema = (): Schema => ({ ...intOrString(), pattern: QUANTITY_PATTERN });

/** Fields client-node types as `string` that are resource quantities on the wire (maps of them, or one). */
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

/** The embedded ObjectMeta controller-gen writes for templates (generateEmbeddedObjectMeta=true). */
export const embeddedObjectMeta = (): Schema => ({
  type: 'object',
  properties: {
    annotations: { type: 'object', additionalProperties: { type: 'string' } },
    finalizers: { type: 'array', items: { type: 'string' } },
    labels: { type: 'object', additionalProperties: { type: 'string' } },
    name: { type: 'string' },
    namespace: { type: 'string' },
  },
});

/**
 * Field defaults of core types, by client-node model: the `+default` markers of k8s.io/api (v1.34)
 * as they appear in KubeRay v1.6.2's CRDs (ray.io_rayjobs.yaml's pod templates and Services).
 */
const MODEL_DEFAULTS: Record<string, Record<string, unknown>> = {
  V1ContainerPort: { protocol: 'TCP' },
  V1ServicePort: { protocol: 'TCP' },
  V1GRPCAction: { service: '' },
  V1FileKeySelector: { optional: false },
  V1LocalObjectReference: { name: '' },
  V1ConfigMapKeySelector: { name: '' },
  V1SecretKeySelector: { name: '' },
  V1ConfigMapEnvSource: { name: '' },
  V1SecretEnvSource: { name: '' },
  V1ConfigMapVolumeSource: { name: '' },
  V1ConfigMapProjection: { name: '' },
  V1SecretProjection: { name: '' },
  V1AzureDiskVolumeSource: { fsType: 'ext4', readOnly: false },
  V1ISCSIVolumeSource: { iscsiInterface: 'default' },
  V1RBDVolumeSource: { keyring: '/etc/ceph/keyring', pool: 'rbd', user: 'admin' },
  V1ScaleIOVolumeSource: { fsType: 'xfs', storageMode: 'ThinProvisioned' },
};

const built = new Map<string, Schema>();

/**
 * The inlined schema of client-node model `name` (`V1PodTemplateSpec`). Recursive models (JSONSchemaProps)
 * are not among the core types a CRD embeds; one met anyway keeps its unknown fields.
 */
export function coreSchema(name: string, visiting: ReadonlySet<string> = new Set()): Schema {
  const known = built.get(name);
  if (known) return known;
  const attributes = classes[name]?.attributeTypeMap;
  if (!attributes) throw new Error(`@kubernetes/client-node has no model ${name}`);
  if (visiting.has(name)) return { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
  const inner = new Set([...visiting, name]);
  const required = requiredFields(name);
  const defaults = MODEL_DEFAULTS[name] ?? {};
  const properties: Record<string, Schema> = {};
  for (const a of [...attributes].sort((x, y) => x.baseName.localeCompare(y.baseName))) {
    const typed =
      a.type === 'V1ObjectMeta'
        ? embeddedObjectMeta()
        : typeSchema(a.type, a.format, QUANTITY_FIELDS.has(a.baseName), inner);
    properties[a.baseName] = Object.hasOwn(defaults, a.baseName) ? { ...typed, default: defaults[a.baseName] } : typed;
  }
  const wanted = attributes
    .filter((a) => required.has(a.name))
    .map((a) => a.baseName)
    .sort();
  const schema: Schema = { type: 'object', properties, ...(wanted.length ? { required: wanted } : {}) };
  built.set(name, schema);
  return schema;
}

function typeSchema(type: string, format: string, quantity: boolean, visiting: ReadonlySet<string>): Schema {
  const t = type.trim();
  const array = /^Array<(.+)>$/.exec(t);
  if (array) return { type: 'array', items: typeSchema(array[1]!, '', quantity, visiting) };
  const map = /^\{ \[key: string\]: (.+); \}$/.exec(t);
  if (map) return { type: 'object', additionalProperties: typeSchema(map[1]!, '', quantity, visiting) };
  switch (t) {
    case 'string':
      return quantity ? quantitySchema() : { type: 'string', ...(format === 'byte' ? { format } : {}) };
    case 'number':
      return format.startsWith('int') ? { type: 'integer', format } : { type: 'number', ...(format ? { format } : {}) };
    case 'boolean':
      return { type: 'boolean' };
    case 'Date':
      return { type: 'string', format: 'date-time' };
    case 'IntOrString':
      return intOrString();
  }
  if (classes[t]?.attributeTypeMap) return coreSchema(t, visiting);
  // `any` (raw JSON values): whatever is sent is kept.
  return { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
}

let modelsDirectory: URL | undefined;

/** The fields client-node's declaration marks required (`'name': T;` rather than `'name'?: T;`); none when the file is missing. */
function requiredFields(name: string): Set<string> {
  let text: string;
  try {
    modelsDirectory ??= new URL('./', import.meta.resolve('@kubernetes/client-node/dist/gen/models/all.js'));
    text = readFileSync(new URL(`./${name}.d.ts`, modelsDirectory), 'utf8');
  } catch {
    return new Set();
  }
  const body = text.slice(Math.max(0, text.indexOf(`export declare class ${name} `)));
  const out = new Set<string>();
  for (const m of body.matchAll(/^\s*'([^']+)'(\?)?:/gm)) if (!m[2]) out.add(m[1]!);
  return out;
}
