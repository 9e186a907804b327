import { isDeepStrictEqual } from 'node:util';
import { conflict, invalid, type StatusCause } from '../errors.js';
import type { KubeObject, ResourceType } from '../types.js';

/**
 * The update rules kube-apiserver enforces beyond schema validation: identity and deletion
 * metadata, and the fields each kind forbids changing once created (workload selectors, Job
 * templates, most of a Pod's and a PVC's spec, Service cluster IPs, immutable ConfigMaps and
 * Secrets, StorageClass parameters, a CRD's group and scope). Each broken rule is a 422 cause.
 */
type Any = Record<string, any>;

const spec = (o: KubeObject): Any => (o.spec && typeof o.spec === 'object' ? (o.spec as Any) : {});
const show = (v: unknown) => (typeof v === 'string' ? `"${v}"` : JSON.stringify(v ?? null));
const immutable = (field: string, value: unknown): StatusCause => ({
  field,
  reason: 'FieldValueInvalid',
  message: `Invalid value: ${show(value)}: field is immutable`,
});
const forbidden = (field: string, message: string): StatusCause => ({
  field,
  reason: 'FieldValueForbidden',
  message: `Forbidden: ${message}`,
});

function sameAt(current: KubeObject, next: KubeObject, field: string, read: (o: KubeObject) => unknown): StatusCause[] {
  return isDeepStrictEqual(read(current), read(next)) ? [] : [immutable(field, read(next))];
}

const selector =
  (field = 'spec.selector') =>
  (c: KubeObject, n: KubeObject) =>
    sameAt(c, n, field, (o) => spec(o).selector);

/** A pod's spec may change only in container images, activeDeadlineSeconds, added tolerations and the grace period. */
function podSpec(current: KubeObject, next: KubeObject): StatusCause[] {
  const before = structuredClone(spec(current));
  const after = structuredClone(spec(next));
  for (const list of ['containers', 'initContainers', 'ephemeralContainers']) {
    const a = (after[list] ?? []) as Any[];
    const b = (before[list] ?? []) as Any[];
    if (a.length === b.length) a.forEach((c, i) => c && b[i] && (c.image = b[i].image));
  }
  const tolerationsBefore = (before.tolerations ?? []) as unknown[];
  const tolerationsAfter = (after.tolerations ?? []) as unknown[];
  const onlyAdded = tolerationsBefore.every((t) => tolerationsAfter.some((u) => isDeepStrictEqual(t, u)));
  for (const field of ['activeDeadlineSeconds', 'terminationGracePeriodSeconds', 'tolerations']) {
    if (field !== 'tolerations' || onlyAdded) {
      if (before[field] === undefined) delete after[field];
      else after[field] = before[field];
    }
  }
  if (isDeepStrictEqual(before, after)) return [];
  return [
    forbidden(
      'spec',
      'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
    ),
  ];
}

/** A PVC's spec is fixed except its storage request (and volumeName, which binding sets once). */
function pvcSpec(current: KubeObject, next: KubeObject): StatusCause[] {
  const before = structuredClone(spec(current));
  const after = structuredClone(spec(next));
  for (const s of [before, after]) {
    delete s.volumeAttributesClassName;
    if (s.resources && typeof s.resources === 'object') delete s.resources.requests;
  }
  // Binding sets volumeName once.
  if (!before.volumeName) {
    delete before.volumeName;
    delete after.volumeName;
  }
  if (isDeepStrictEqual(before, after)) return [];
  return [
    forbidden(
      'spec',
      'spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims',
    ),
  ];
}

const STATEFULSET_MUTABLE = [
  'replicas',
  'ordinals',
  'template',
  'updateStrategy',
  'persistentVolumeClaimRetentionPolicy',
  'minReadySeconds',
];

function statefulSetSpec(current: KubeObject, next: KubeObject): StatusCause[] {
  const strip = (o: KubeObject) =>
    Object.fromEntries(Object.entries(spec(o)).filter(([k]) => !STATEFULSET_MUTABLE.includes(k)));
  if (isDeepStrictEqual(strip(current), strip(next))) return [];
  return [
    forbidden(
      'spec',
      "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    ),
  ];
}

function immutableData(current: KubeObject, next: KubeObject): StatusCause[] {
  if (current.immutable !== true) return [];
  const causes: StatusCause[] = [];
  if (next.immutable !== true) causes.push(forbidden('immutable', 'field is immutable when `immutable` is set'));
  for (const field of ['data', 'binaryData', 'stringData']) {
    if (!isDeepStrictEqual(current[field] ?? {}, next[field] ?? {}))
      causes.push(forbidden(field, 'field is immutable when `immutable` is set'));
  }
  return causes;
}

const RULES: Record<string, Array<(current: KubeObject, next: KubeObject) => StatusCause[]>> = {
  'core/pods': [podSpec],
  'core/persistentvolumeclaims': [pvcSpec],
  'core/services': [
    (c, n) =>
      spec(c).clusterIP && spec(n).clusterIP !== spec(c).clusterIP
        ? [immutable('spec.clusterIP', spec(n).clusterIP)]
        : [],
  ],
  'core/configmaps': [immutableData],
  'core/secrets': [immutableData, (c, n) => sameAt(c, n, 'type', (o) => o.type)],
  'apps/deployments': [selector()],
  'apps/replicasets': [selector()],
  'apps/daemonsets': [selector()],
  'apps/statefulsets': [statefulSetSpec],
  'batch/jobs': [
    selector(),
    (c, n) => sameAt(c, n, 'spec.template', (o) => spec(o).template),
    (c, n) => sameAt(c, n, 'spec.completions', (o) => spec(o).completions),
  ],
  'storage.k8s.io/storageclasses': [
    (c, n) =>
      isDeepStrictEqual(c.parameters, n.parameters)
        ? []
        : [forbidden('parameters', 'updates to parameters are forbidden.')],
    (c, n) =>
      c.provisioner === n.provisioner ? [] : [forbidden('provisioner', 'updates to provisioner are forbidden.')],
    (c, n) =>
      c.reclaimPolicy === n.reclaimPolicy
        ? []
        : [forbidden('reclaimPolicy', 'updates to reclaimPolicy are forbidden.')],
    (c, n) => sameAt(c, n, 'volumeBindingMode', (o) => o.volumeBindingMode),
  ],
  'apiextensions.k8s.io/customresourcedefinitions': [
    (c, n) => sameAt(c, n, 'spec.group', (o) => spec(o).group),
    (c, n) => sameAt(c, n, 'spec.scope', (o) => spec(o).scope),
  ],
};

/** Throws 409 for a uid precondition and 422 for everything else an update may not change. */
export function checkUpdate(type: ResourceType, current: KubeObject, next: KubeObject): void {
  const name = current.metadata.name!;
  if (next.metadata.uid && next.metadata.uid !== current.metadata.uid) {
    throw conflict(
      type,
      name,
      `Precondition failed: UID in precondition: ${next.metadata.uid}, UID in object meta: ${current.metadata.uid}`,
    );
  }
  const causes: StatusCause[] = [];
  if (current.metadata.deletionTimestamp) {
    const added = (next.metadata.finalizers ?? []).filter((f) => !(current.metadata.finalizers ?? []).includes(f));
    if (added.length)
      causes.push(
        forbidden(
          'metadata.finalizers',
          `no new finalizers can be added if the object is being deleted, found new finalizers []string{${added.map((f) => `"${f}"`).join(', ')}}`,
        ),
      );
  }
  if (!type.crd)
    for (const rule of RULES[`${type.group || 'core'}/${type.resource}`] ?? []) causes.push(...rule(current, next));
  if (causes.length) throw invalid(type, name, causes);
}
