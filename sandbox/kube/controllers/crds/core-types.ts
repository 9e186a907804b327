import { builtinCatalog } from '../../api/schema/builtin-schemas.js';
import { REF, type Schema } from '../../api/schema/walk.js';

/**
 * Kubernetes core types as a CRD embeds them. controller-gen writes an operator's CRD with the
 * structural schema of each core type its Go structs use (a Container, a Volume, a NodeAffinity, …),
 * expanded in place. The sandbox's API server already knows those types as client-node models
 * (api/schema/builtin-schemas.ts): this expands one the same way — references inlined, descriptions
 * left out, resource quantities and int-or-string as controller-gen types them, with the API's defaults
 * and list types (below) — so a CRD typed from upstream takes exactly the fields of the core type and
 * prunes the rest. Checked against the inference operator's CRDs (test/kube/inference-crds.test.ts
 * holds objects to them; the comparison with upstream found no difference but descriptions).
 */

const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
const INT_OR_STRING = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';
/** The pattern controller-gen puts on a resource.Quantity. */
const QUANTITY_PATTERN =
  '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$';
const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
const CORE = 'io.k8s.api.core.v1';

/**
 * What controller-gen writes that client-node's models do not carry: the API's `+default` markers
 * (an empty name on a reference, `TCP` on a port, the volume plugins' defaults) and the integer type
 * of exit codes. Read from the inference operator's CRDs at aws/sagemaker-hyperpod-cli 011ca92,
 * whose embedded core types are those of the Kubernetes API client-node also follows.
 */
const DEFAULTS: Record<string, unknown> = {
  [`${CORE}.LocalObjectReference.name`]: '',
  [`${CORE}.ConfigMapKeySelector.name`]: '',
  [`${CORE}.SecretKeySelector.name`]: '',
  [`${CORE}.ConfigMapEnvSource.name`]: '',
  [`${CORE}.SecretEnvSource.name`]: '',
  [`${CORE}.ConfigMapVolumeSource.name`]: '',
  [`${CORE}.ConfigMapProjection.name`]: '',
  [`${CORE}.SecretProjection.name`]: '',
  [`${CORE}.FileKeySelector.optional`]: false,
  [`${CORE}.GRPCAction.service`]: '',
  [`${CORE}.ContainerPort.protocol`]: 'TCP',
  [`${CORE}.AzureDiskVolumeSource.fsType`]: 'ext4',
  [`${CORE}.AzureDiskVolumeSource.readOnly`]: false,
  [`${CORE}.ISCSIVolumeSource.iscsiInterface`]: 'default',
  [`${CORE}.RBDVolumeSource.keyring`]: '/etc/ceph/keyring',
  [`${CORE}.RBDVolumeSource.pool`]: 'rbd',
  [`${CORE}.RBDVolumeSource.user`]: 'admin',
  [`${CORE}.ScaleIOVolumeSource.fsType`]: 'xfs',
  [`${CORE}.ScaleIOVolumeSource.storageMode`]: 'ThinProvisioned',
};
/** Fields of a definition as the upstream CRD types them where client-node differs (or has none yet). */
const FIELDS: Record<string, Record<string, Schema>> = {
  [`${CORE}.ContainerRestartRuleOnExitCodes`]: {
    values: { type: 'array', items: { type: 'integer', format: 'int32' } },
  },
  [`${CORE}.PodCertificateProjection`]: {
    userAnnotations: { type: 'object', additionalProperties: { type: 'string' } },
  },
};

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';
/** The API's `+structType=atomic` structs (controller-gen: `x-kubernetes-map-type: atomic`). */
const ATOMIC_STRUCTS = new Set([
  ...[
    'ConfigMapEnvSource',
    'ConfigMapKeySelector',
    'ConfigMapProjection',
    'ConfigMapVolumeSource',
    'FileKeySelector',
    'LocalObjectReference',
    'NodeSelector',
  ].map((k) => `${CORE}.${k}`),
  ...[
    'NodeSelectorTerm',
    'ObjectFieldSelector',
    'ResourceFieldSelector',
    'SecretEnvSource',
    'SecretKeySelector',
    'SecretProjection',
    'TypedLocalObjectReference',
  ].map((k) => `${CORE}.${k}`),
  `${META}.LabelSelector`,
]);
/** The API's `+listType` markers of the fields a CRD embeds (controller-gen: `x-kubernetes-list-type`, `-list-map-keys`). */
const LIST_TYPES: Record<string, 'atomic' | 'set' | string[]> = {
  'apps.v1.DeploymentStatus.conditions': ['type'],
  'Capabilities.add': 'atomic',
  'Capabilities.drop': 'atomic',
  'CephFSVolumeSource.monitors': 'atomic',
  'ConfigMapProjection.items': 'atomic',
  'ConfigMapVolumeSource.items': 'atomic',
  'ContainerRestartRuleOnExitCodes.values': 'set',
  'Container.args': 'atomic',
  'Container.command': 'atomic',
  'Container.env': ['name'],
  'Container.envFrom': 'atomic',
  'Container.ports': ['containerPort', 'protocol'],
  'Container.resizePolicy': 'atomic',
  'Container.restartPolicyRules': 'atomic',
  'Container.volumeDevices': ['devicePath'],
  'Container.volumeMounts': ['mountPath'],
  'DownwardAPIProjection.items': 'atomic',
  'DownwardAPIVolumeSource.items': 'atomic',
  'ExecAction.command': 'atomic',
  'FCVolumeSource.targetWWNs': 'atomic',
  'FCVolumeSource.wwids': 'atomic',
  'HTTPGetAction.httpHeaders': 'atomic',
  'ISCSIVolumeSource.portals': 'atomic',
  'NodeAffinity.preferredDuringSchedulingIgnoredDuringExecution': 'atomic',
  'NodeSelectorRequirement.values': 'atomic',
  'NodeSelectorTerm.matchExpressions': 'atomic',
  'NodeSelectorTerm.matchFields': 'atomic',
  'NodeSelector.nodeSelectorTerms': 'atomic',
  'PersistentVolumeClaimSpec.accessModes': 'atomic',
  'ProjectedVolumeSource.sources': 'atomic',
  'RBDVolumeSource.monitors': 'atomic',
  'ResourceRequirements.claims': ['name'],
  'SecretProjection.items': 'atomic',
  'SecretVolumeSource.items': 'atomic',
  'meta.v1.LabelSelectorRequirement.values': 'atomic',
  'meta.v1.LabelSelector.matchExpressions': 'atomic',
};
const listTypeOf = (definition: string | undefined, field: string) =>
  definition
    ? LIST_TYPES[
        `${definition
          .replace(/^io\.k8s\.api\.core\.v1\./, '')
          .replace(/^io\.k8s\.api\./, '')
          .replace(/^io\.k8s\.apimachinery\.pkg\.apis\./, '')}.${field}`
      ]
    : undefined;

/** Keywords of the API's documents that say nothing about what an object may hold. */
const DOCUMENTATION = new Set([
  'description',
  'x-kubernetes-patch-merge-key',
  'x-kubernetes-patch-strategy',
  'x-kubernetes-group-version-kind',
]);

function expand(schema: Schema, seen: readonly string[]): Schema {
  const ref =
    typeof schema.$ref === 'string'
      ? schema.$ref
      : Array.isArray(schema.allOf) && schema.allOf.length === 1
        ? (schema.allOf[0] as Schema).$ref
        : undefined;
  if (typeof ref === 'string') {
    const name = ref.slice(REF.length);
    if (name === QUANTITY)
      return {
        anyOf: [{ type: 'integer' }, { type: 'string' }],
        pattern: QUANTITY_PATTERN,
        'x-kubernetes-int-or-string': true,
      };
    if (name === INT_OR_STRING)
      return { anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true };
    // controller-gen writes an embedded ObjectMeta (a volume claim template's) as a bare object: its fields are pruned.
    if (name === OBJECT_META) return { type: 'object' };
    if (seen.includes(name)) throw new Error(`core type ${name} is recursive: a CRD cannot embed it`);
    const target = builtinCatalog().schemas[name];
    if (!target) throw new Error(`no core type ${name}`);
    const expanded = expand(
      { ...target, properties: { ...(target.properties as Record<string, Schema>), ...FIELDS[name] } },
      [...seen, name],
    );
    return ATOMIC_STRUCTS.has(name) ? { ...expanded, 'x-kubernetes-map-type': 'atomic' } : expanded;
  }
  const definition = seen.at(-1);
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DOCUMENTATION.has(key)) continue;
    if (key === 'properties') {
      out.properties = Object.fromEntries(
        Object.entries(value as Record<string, Schema>).map(([field, s]) => {
          const typed = expand(s, seen);
          const fallback = DEFAULTS[`${definition}.${field}`];
          const list = listTypeOf(definition, field);
          const listed =
            list === undefined
              ? {}
              : Array.isArray(list)
                ? { 'x-kubernetes-list-map-keys': list, 'x-kubernetes-list-type': 'map' }
                : { 'x-kubernetes-list-type': list };
          return [field, { ...typed, ...(fallback === undefined ? {} : { default: fallback }), ...listed }];
        }),
      );
    } else if (key === 'items' || key === 'additionalProperties') {
      out[key] = typeof value === 'object' ? expand(value as Schema, seen) : value;
    } else {
      out[key] = value;
    }
  }
  return out;
}

/**
 * The structural schema of core type `kind` (`Container`, `Volume`, `NodeAffinity`,
 * `ResourceRequirements`, … of `io.k8s.api.core.v1`, or a full definition name such as
 * `io.k8s.api.apps.v1.DeploymentStatus`).
 */
export function coreType(kind: string): Schema {
  const name = kind.includes('.') ? kind : `io.k8s.api.core.v1.${kind}`;
  return expand({ $ref: `${REF}${name}` }, []);
}
