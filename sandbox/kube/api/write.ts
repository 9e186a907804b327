import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KubeCluster } from '../cluster.js';
import { badRequest, invalid, KubeError, notFound } from '../errors.js';
import { recordUpdate } from '../patch/index.js';
import { NAMESPACE_TYPE } from '../resources.js';
import { apiVersionOf, type KubeObject, type ResourceType } from '../types.js';
import { applyDefaults } from './defaults.js';
import { finishPendingDeletions } from './deletion.js';
import { mediaType, parseBody, rfc3339, sendJson } from './http.js';
import { setField } from './schema/walk.js';
import { inferenceAdmissionCauses, INFERENCE_WEBHOOK } from '../admission/inference-webhook.js';
import { checkUpdate } from './immutable.js';
import { served, type ResourceRequest } from './paths.js';
import { crdStatus, isCrd, prepareForCreate } from './prepare.js';
import { defaultObject, pruneObject, unknownFields, validateObject } from './validation.js';
import type { WriteOptions } from './write-options.js';

/**
 * Create and update (PUT), and the commit every write goes through: defaults, update rules,
 * validation (422 and nothing stored), field managers, dryRun, then storage. An object being
 * deleted goes as soon as an update removes its last finalizer.
 */

/** A request body as an object of the path's kind; kind and apiVersion may be left out, as the API defaults them. */
export function objectFromBody(value: unknown, r: ResourceRequest): KubeObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw badRequest('the object provided is not a JSON object');
  const obj = value as KubeObject;
  if (obj.metadata === undefined || obj.metadata === null) obj.metadata = {};
  if (typeof obj.metadata !== 'object' || Array.isArray(obj.metadata))
    throw badRequest('the object provided has a malformed metadata field');
  const group = obj.apiVersion?.includes('/') ? obj.apiVersion.split('/')[0] : '';
  if ((obj.kind && obj.kind !== r.type.kind) || (obj.apiVersion && group !== r.type.group)) {
    throw badRequest(
      `the object provided is unrecognized (must be of type ${r.type.kind}): ${obj.kind ?? ''} in version "${obj.apiVersion ?? ''}" cannot be handled as a ${r.type.kind}`,
    );
  }
  obj.apiVersion = apiVersionOf(r.type);
  obj.kind = r.type.kind;
  if (r.type.namespaced) {
    if (obj.metadata.namespace && r.namespace && obj.metadata.namespace !== r.namespace) {
      throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
    obj.metadata.namespace = r.namespace ?? obj.metadata.namespace;
  } else {
    delete obj.metadata.namespace;
  }
  return obj;
}

/** New namespaced objects need their namespace, and one that is not being deleted. */
export function requireNamespace(cluster: KubeCluster, type: ResourceType, obj: KubeObject): void {
  if (!type.namespaced) return;
  const namespace = obj.metadata.namespace;
  const ns = namespace ? cluster.objects.get(NAMESPACE_TYPE, undefined, namespace) : undefined;
  if (!ns)
    throw new KubeError(404, 'NotFound', `namespaces "${namespace ?? ''}" not found`, {
      name: namespace ?? '',
      kind: 'namespaces',
    });
  if (ns.metadata.deletionTimestamp) {
    throw new KubeError(
      403,
      'Forbidden',
      `${type.group ? `${type.resource}.${type.group}` : type.resource} "${obj.metadata.name ?? ''}" is forbidden: unable to create new content in namespace ${namespace} because it is being terminated`,
      {
        name: obj.metadata.name ?? '',
        group: type.group,
        kind: type.resource,
        causes: [
          {
            reason: 'NamespaceTerminating',
            message: `namespace ${namespace} is being terminated`,
            field: 'metadata.namespace',
          },
        ],
      },
    );
  }
}

/**
 * Admission as the API server orders it: unknown fields are dropped (pruned) — or, for a request body
 * sent with `fieldValidation=Strict` (kubectl's default), refused with 400 — then a CRD's defaults
 * are filled in, then the object is validated (422 naming every bad field).
 */
function validate(
  cluster: KubeCluster,
  type: ResourceType,
  obj: KubeObject,
  strictBody?: KubeObject,
  old?: KubeObject,
): void {
  if (strictBody) {
    const unknown = unknownFields(cluster, type, strictBody).filter(
      (f) => !f.startsWith('status') && !f.startsWith('metadata'),
    );
    if (unknown.length > 0) {
      throw new KubeError(
        400,
        'BadRequest',
        `${type.kind} in version "${type.version}" cannot be handled as a ${type.kind}: strict decoding error: ${unknown.map((f) => `unknown field "${f}"`).join(', ')}`,
      );
    }
  }
  const admitted = defaultObject(cluster, type, pruneObject(cluster, type, obj));
  for (const k of Object.keys(obj)) if (!Object.hasOwn(admitted, k)) delete obj[k];
  for (const [k, v] of Object.entries(admitted)) setField(obj as unknown as Record<string, unknown>, k, v); // not Object.assign: a `__proto__` key stays data
  const name = obj.metadata.name ?? obj.metadata.generateName ?? '';
  const causes = validateObject(cluster, type, obj, old);
  if (causes.length > 0) throw invalid(type, name, causes);
  // Validating admission runs last, on an object the schema accepted (the operators' webhooks).
  const refused = inferenceAdmissionCauses(type, obj, old);
  if (refused.length > 0) {
    const e = invalid(type, name, refused);
    throw new KubeError(
      e.code,
      e.reason,
      `admission webhook "${INFERENCE_WEBHOOK}" denied the request: ${e.message}`,
      e.details,
    );
  }
}

const SYSTEM_FIELDS = [
  'uid',
  'resourceVersion',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'generation',
  'selfLink',
] as const;

/** Everything a new object goes through before it is stored; returns it ready for `objects.create`. `applied`: server-side apply recorded its managers. */
export function prepareNew(
  cluster: KubeCluster,
  type: ResourceType,
  obj: KubeObject,
  opts: WriteOptions,
  applied = false,
): KubeObject {
  if (!obj.metadata.name && !obj.metadata.generateName) {
    throw invalid(type, '', [
      {
        field: 'metadata.name',
        reason: 'FieldValueRequired',
        message: 'Required value: name or generateName is required',
      },
    ]);
  }
  requireNamespace(cluster, type, obj);
  for (const k of SYSTEM_FIELDS) delete obj.metadata[k];
  applyDefaults(type, obj);
  prepareForCreate(cluster, type, obj);
  cluster.admit(type, obj); // mutating admission runs after defaulting, before validation
  validate(cluster, type, obj, opts.strict ? obj : undefined);
  if (applied) return obj;
  return recordUpdate(undefined, obj, { manager: opts.manager, type, now: rfc3339(cluster.now()) });
}

/** Stores a prepared new object, or (dryRun) shows it as it would have been stored. */
export function storeNew(cluster: KubeCluster, type: ResourceType, obj: KubeObject, opts: WriteOptions): KubeObject {
  if (!opts.dryRun) return cluster.objects.create(type, obj);
  const shown = structuredClone(obj);
  shown.metadata.name ??= `${shown.metadata.generateName}${randomUUID().slice(0, 5)}`;
  Object.assign(shown.metadata, { uid: randomUUID(), generation: 1, creationTimestamp: rfc3339(cluster.now()) });
  return shown;
}

export function create(
  cluster: KubeCluster,
  r: ResourceRequest,
  body: Buffer,
  req: IncomingMessage,
  res: ServerResponse,
  opts: WriteOptions,
): void {
  const obj = objectFromBody(parseBody(body, mediaType(req)), r);
  sendJson(res, 201, served(r.type, storeNew(cluster, r.type, prepareNew(cluster, r.type, obj, opts), opts)));
}

export function update(
  cluster: KubeCluster,
  r: ResourceRequest,
  body: Buffer,
  req: IncomingMessage,
  res: ServerResponse,
  opts: WriteOptions,
): void {
  const current = cluster.objects.get(r.type, r.namespace, r.name!);
  if (!current) throw notFound(r.type, r.name!);
  const next = objectFromBody(parseBody(body, mediaType(req)), r);
  next.metadata.name ??= r.name!;
  sendJson(res, 200, served(r.type, commitUpdate(cluster, r, current, next, opts, { subresource: r.subresource })));
}

export interface CommitHow {
  subresource?: string | undefined;
  /** Server-side apply already recorded the field managers. */
  applied?: boolean;
}

/** Stores `next` over `current`: the status subresource writes only status; the main resource never writes status of kinds that have the subresource. */
export function commitUpdate(
  cluster: KubeCluster,
  r: ResourceRequest,
  current: KubeObject,
  next: KubeObject,
  opts: WriteOptions,
  how: CommitHow = {},
): KubeObject {
  const type = r.type;
  if (next.metadata.name !== current.metadata.name)
    throw badRequest(
      `the name of the object (${next.metadata.name}) does not match the name on the URL (${current.metadata.name})`,
    );
  let merged: KubeObject;
  if (how.subresource === 'status') {
    merged = { ...structuredClone(current), status: structuredClone(next.status) };
    if (next.status === undefined) delete merged.status;
    merged.metadata.resourceVersion = next.metadata.resourceVersion;
  } else {
    merged = structuredClone(next);
    const meta = merged.metadata;
    if (type.namespaced) meta.namespace = current.metadata.namespace;
    for (const k of ['creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'generation'] as const) {
      if (current.metadata[k] === undefined) delete meta[k];
      else meta[k] = current.metadata[k] as never;
    }
    if (type.subresources?.status || isCrd(type)) merged.status = structuredClone(current.status);
    if (merged.status === undefined) delete merged.status;
    applyDefaults(type, merged);
    carryAllocated(type, current, merged);
    if (isCrd(type)) merged.status = crdStatus(merged, cluster.now(), current.status as Record<string, unknown>);
    const before = structuredClone(current);
    applyDefaults(type, before);
    checkUpdate(type, before, merged);
  }
  validate(cluster, type, merged, opts.strict && how.subresource !== 'status' ? merged : undefined, current);
  if (how.applied) merged.metadata.managedFields = next.metadata.managedFields;
  else
    merged = recordUpdate(current, merged, {
      manager: opts.manager,
      type,
      now: rfc3339(cluster.now()),
      ...(how.subresource ? { subresource: how.subresource } : {}),
    });
  if (opts.dryRun)
    return { ...merged, metadata: { ...merged.metadata, resourceVersion: current.metadata.resourceVersion } };
  const stored = cluster.objects.update(type, merged);
  if (stored.metadata.deletionTimestamp) finishPendingDeletions(cluster);
  return stored;
}

/** Fields the API allocated at create that a full replacement may leave out (a Service's cluster IP and node ports). */
function carryAllocated(type: ResourceType, current: KubeObject, next: KubeObject): void {
  if (type.group !== '' || type.resource !== 'services') return;
  const before = (current.spec ?? {}) as Record<string, any>;
  const after = next.spec as Record<string, any> | undefined;
  if (!after || typeof after !== 'object') return;
  after.clusterIP ??= before.clusterIP;
  after.clusterIPs ??= before.clusterIPs;
  for (const p of (Array.isArray(after.ports) ? after.ports : []) as Array<Record<string, any>>) {
    const old = ((before.ports ?? []) as Array<Record<string, any>>).find(
      (q) => q.port === p.port && (q.protocol ?? 'TCP') === (p.protocol ?? 'TCP'),
    );
    if (old?.nodePort && p.nodePort === undefined) p.nodePort = old.nodePort;
  }
}
