import type { StatusCause } from '../../errors.js';
import type { KubeObject } from '../../types.js';
import { duplicate, enumCause, invalidValue, notSupported, portRange, required } from './causes.js';
import { parseQuantity, quantityCauses, validatePodSpec } from './pod-rules.js';
import { isPlainObject } from './walk.js';

/**
 * Pods, Services, PersistentVolumes and claims, ConfigMaps, Secrets, RBAC and StorageClasses as
 * kube-apiserver validates them (the rules users run into; not every rule the server has).
 */

type Any = Record<string, any>;

const list = (value: unknown): Any[] => (Array.isArray(value) ? (value as Any[]) : []);
const specOf = (obj: KubeObject): Any | undefined => (isPlainObject(obj.spec) ? (obj.spec as Any) : undefined);

export const podCauses = (obj: KubeObject): StatusCause[] => validatePodSpec(obj.spec, 'spec');

export function serviceCauses(obj: KubeObject): StatusCause[] {
  const spec = specOf(obj) ?? {};
  const causes = enumCause('spec.type', spec.type, ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort']);
  if (spec.type === 'ExternalName') {
    if (!spec.externalName) causes.push(required('spec.externalName'));
    return causes;
  }
  const ports = list(spec.ports);
  if (ports.length === 0 && spec.clusterIP !== 'None') causes.push(required('spec.ports'));
  const names = new Set<string>();
  ports.forEach((p, i) => {
    const at = `spec.ports[${i}]`;
    if (ports.length > 1 && !p?.name) causes.push(required(`${at}.name`));
    else if (p?.name && names.has(p.name)) causes.push(duplicate(`${at}.name`, p.name));
    if (p?.name) names.add(p.name);
    causes.push(
      ...portRange(`${at}.port`, p?.port),
      ...enumCause(`${at}.protocol`, p?.protocol, ['SCTP', 'TCP', 'UDP']),
    );
    if (typeof p?.targetPort === 'number') causes.push(...portRange(`${at}.targetPort`, p.targetPort));
  });
  causes.push(...enumCause('spec.sessionAffinity', spec.sessionAffinity, ['ClientIP', 'None']));
  return causes;
}

const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
const VOLUME_SOURCES = [
  'awsElasticBlockStore',
  'azureDisk',
  'azureFile',
  'cephfs',
  'cinder',
  'csi',
  'fc',
  'flexVolume',
  'flocker',
  'gcePersistentDisk',
  'glusterfs',
  'hostPath',
  'iscsi',
  'local',
  'nfs',
  'photonPersistentDisk',
  'portworxVolume',
  'quobyte',
  'rbd',
  'scaleIO',
  'storageos',
  'vsphereVolume',
];

function accessModes(spec: Any, missing: StatusCause): StatusCause[] {
  const modes = list(spec.accessModes) as unknown[];
  if (modes.length === 0) return [missing];
  return modes.flatMap((m) => enumCause('spec.accessModes', m, ACCESS_MODES));
}

export function persistentVolumeCauses(obj: KubeObject): StatusCause[] {
  const spec = specOf(obj) ?? {};
  const causes: StatusCause[] = [];
  const capacity = (isPlainObject(spec.capacity) ? spec.capacity : {}) as Any;
  if (Object.keys(capacity).length === 0) causes.push(required('spec.capacity'));
  else if (!('storage' in capacity) || Object.keys(capacity).length > 1)
    causes.push(notSupported('spec.capacity', capacity, ['storage']));
  else causes.push(...quantityCauses('spec.capacity[storage]', capacity.storage));
  causes.push(...accessModes(spec, required('spec.accessModes')));
  const sources = VOLUME_SOURCES.filter((s) => spec[s] !== undefined);
  if (sources.length === 0) causes.push(required('spec', 'must specify a volume type'));
  for (const extra of sources.slice(1))
    causes.push({
      field: `spec.${extra}`,
      reason: 'FieldValueForbidden',
      message: 'Forbidden: may not specify more than 1 volume type',
    });
  causes.push(
    ...enumCause('spec.persistentVolumeReclaimPolicy', spec.persistentVolumeReclaimPolicy, [
      'Delete',
      'Recycle',
      'Retain',
    ]),
  );
  causes.push(...enumCause('spec.volumeMode', spec.volumeMode, ['Block', 'Filesystem']));
  return causes;
}

export function persistentVolumeClaimCauses(obj: KubeObject): StatusCause[] {
  const spec = specOf(obj) ?? {};
  const causes = accessModes(spec, required('spec.accessModes', 'at least 1 access mode is required'));
  const storage = spec.resources?.requests?.storage;
  if (storage === undefined) causes.push(required('spec.resources[storage]'));
  else {
    const bad = quantityCauses('spec.resources[storage]', storage);
    causes.push(...bad);
    if (bad.length === 0 && parseQuantity(storage) === 0)
      causes.push(invalidValue('spec.resources[storage]', storage, 'must be greater than zero'));
  }
  causes.push(...enumCause('spec.volumeMode', spec.volumeMode, ['Block', 'Filesystem']));
  return causes;
}

const CONFIG_KEY = /^[-._a-zA-Z0-9]+$/;
const CONFIG_KEY_MESSAGE =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";

/** `unique`: whether a key may appear in only one of the fields (ConfigMaps; a Secret's stringData overrides its data). */
function dataKeys(obj: KubeObject, fields: string[], unique: boolean): StatusCause[] {
  const causes: StatusCause[] = [];
  const seen = new Set<string>();
  for (const field of fields) {
    for (const key of Object.keys((isPlainObject(obj[field]) ? obj[field] : {}) as Any)) {
      if (!CONFIG_KEY.test(key) || key.length > 253)
        causes.push(
          invalidValue(
            `${field}[${key}]`,
            key,
            key.length > 253 ? 'must be no more than 253 characters' : CONFIG_KEY_MESSAGE,
          ),
        );
      if (unique && seen.has(key))
        causes.push(invalidValue(`${field}[${key}]`, key, `duplicate of key present in ${fields[0]}`));
      seen.add(key);
    }
  }
  return causes;
}

export const configMapCauses = (obj: KubeObject): StatusCause[] => dataKeys(obj, ['data', 'binaryData'], true);

const SECRET_KEYS: Record<string, string[]> = {
  'kubernetes.io/tls': ['tls.crt', 'tls.key'],
  'kubernetes.io/dockerconfigjson': ['.dockerconfigjson'],
  'kubernetes.io/basic-auth': [],
};
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export function secretCauses(obj: KubeObject): StatusCause[] {
  const causes = dataKeys(obj, ['data', 'stringData'], false);
  const data = (isPlainObject(obj.data) ? obj.data : {}) as Any;
  for (const [key, value] of Object.entries(data)) {
    if (typeof value === 'string' && !BASE64.test(value))
      causes.push(invalidValue(`data[${key}]`, '<secret contents redacted>', 'illegal base64 data'));
  }
  const present = new Set([
    ...Object.keys(data),
    ...Object.keys((isPlainObject(obj.stringData) ? obj.stringData : {}) as Any),
  ]);
  for (const key of SECRET_KEYS[obj.type as string] ?? []) if (!present.has(key)) causes.push(required(`data[${key}]`));
  return causes;
}

export function roleCauses(obj: KubeObject): StatusCause[] {
  return list(obj.rules).flatMap((r, i) => {
    const causes: StatusCause[] = [];
    if (list(r?.verbs).length === 0)
      causes.push(required(`rules[${i}].verbs`, 'verbs must contain at least one value'));
    const resources = list(r?.resources).length > 0;
    const urls = list(r?.nonResourceURLs).length > 0;
    if (resources && !Array.isArray(r.apiGroups))
      causes.push(required(`rules[${i}].apiGroups`, 'resource rules must supply at least one api group'));
    if (urls && (resources || Array.isArray(r.apiGroups)))
      causes.push(
        invalidValue(
          `rules[${i}].nonResourceURLs`,
          r.nonResourceURLs,
          'rules cannot apply to both regular resources and non-resource URLs',
        ),
      );
    if (urls && obj.kind === 'Role')
      causes.push(
        invalidValue(
          `rules[${i}].nonResourceURLs`,
          r.nonResourceURLs,
          'namespaced rules cannot apply to non-resource URLs',
        ),
      );
    return causes;
  });
}

export function roleBindingCauses(obj: KubeObject): StatusCause[] {
  const ref = (isPlainObject(obj.roleRef) ? obj.roleRef : {}) as Any;
  const kinds = obj.kind === 'RoleBinding' ? ['ClusterRole', 'Role'] : ['ClusterRole'];
  const causes = enumCause('roleRef.kind', ref.kind, kinds);
  if (ref.apiGroup !== undefined && ref.apiGroup !== 'rbac.authorization.k8s.io')
    causes.push(notSupported('roleRef.apiGroup', ref.apiGroup, ['rbac.authorization.k8s.io']));
  list(obj.subjects).forEach((s, i) => {
    causes.push(...enumCause(`subjects[${i}].kind`, s?.kind, ['Group', 'ServiceAccount', 'User']));
    if (s?.kind === 'ServiceAccount' && !s.namespace && obj.kind === 'ClusterRoleBinding')
      causes.push(required(`subjects[${i}].namespace`));
  });
  return causes;
}

export function storageClassCauses(obj: KubeObject): StatusCause[] {
  return [
    ...enumCause('reclaimPolicy', obj.reclaimPolicy, ['Delete', 'Retain']),
    ...enumCause('volumeBindingMode', obj.volumeBindingMode, ['Immediate', 'WaitForFirstConsumer']),
  ];
}
