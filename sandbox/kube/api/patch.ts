import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KubeCluster } from '../cluster.js';
import { badRequest, KubeError, notFound } from '../errors.js';
import { applyJsonPatch, applyMergePatch, applyStrategicMergePatch, serverSideApply } from '../patch/index.js';
import type { KubeObject, ResourceType } from '../types.js';
import { mediaType, parseBody, rfc3339, sendJson } from './http.js';
import { served, type ResourceRequest } from './paths.js';
import { checkPatchOptions, type WriteOptions } from './write-options.js';
import { commitUpdate, objectFromBody, prepareNew, storeNew } from './write.js';

/**
 * PATCH in its four media types: JSON patch, merge patch, strategic merge patch (built-in kinds
 * only — custom resources answer 415, as their schema has no merge keys) and server-side apply,
 * which also creates a missing object. The result is committed like an update.
 */

const JSON_PATCH = 'application/json-patch+json';
const MERGE_PATCH = 'application/merge-patch+json';
const STRATEGIC = 'application/strategic-merge-patch+json';
const APPLY = 'application/apply-patch+yaml';

function unsupported(type: ResourceType): KubeError {
  const accepted = [JSON_PATCH, MERGE_PATCH, APPLY, ...(type.crd ? [] : [STRATEGIC])];
  return new KubeError(
    415,
    'UnsupportedMediaType',
    `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
  );
}

export function patch(
  cluster: KubeCluster,
  r: ResourceRequest,
  body: Buffer,
  req: IncomingMessage,
  res: ServerResponse,
  opts: WriteOptions,
  query: URLSearchParams,
): void {
  const media = mediaType(req);
  if (![JSON_PATCH, MERGE_PATCH, STRATEGIC, APPLY].includes(media) || (media === STRATEGIC && r.type.crd))
    throw unsupported(r.type);
  checkPatchOptions(opts, query, media === APPLY);
  const current = cluster.objects.get(r.type, r.namespace, r.name!);
  const payload = parseBody(body, media);
  if (media === APPLY) return apply(cluster, r, current, payload, res, opts);
  if (!current) throw notFound(r.type, r.name!);
  let next: KubeObject;
  if (media === JSON_PATCH) next = applyJsonPatch(current, payload);
  else if (media === MERGE_PATCH) next = applyMergePatch(current, payload);
  else next = applyStrategicMergePatch(current, payload, r.type);
  checkPatched(r, current, next);
  sendJson(res, 200, served(r.type, commitUpdate(cluster, r, current, next, opts, { subresource: r.subresource })));
}

/** A patch may not turn the object into something else (another kind, namespace or a malformed metadata). */
function checkPatched(r: ResourceRequest, current: KubeObject, next: KubeObject): void {
  if (
    typeof next !== 'object' ||
    next === null ||
    typeof next.metadata !== 'object' ||
    next.metadata === null ||
    Array.isArray(next.metadata)
  ) {
    throw new KubeError(
      422,
      'Invalid',
      'the server rejected our request due to an error in our request: metadata must be an object',
    );
  }
  if (next.kind !== current.kind || next.apiVersion !== current.apiVersion) {
    throw badRequest(
      `the object provided is unrecognized (must be of type ${r.type.kind}): ${String(next.kind)} in version "${String(next.apiVersion)}"`,
    );
  }
  if (r.type.namespaced && next.metadata.namespace !== current.metadata.namespace) {
    throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
}

function apply(
  cluster: KubeCluster,
  r: ResourceRequest,
  current: KubeObject | undefined,
  payload: unknown,
  res: ServerResponse,
  opts: WriteOptions,
): void {
  const given = payload as Partial<KubeObject> | null;
  if (!given || typeof given !== 'object' || !given.apiVersion || !given.kind) {
    throw badRequest(`invalid object type: ${String(given?.apiVersion ?? '')}, Kind=${String(given?.kind ?? '')}`);
  }
  const intent = objectFromBody(payload, r);
  intent.metadata.name ??= r.name!;
  if (intent.metadata.name !== r.name)
    throw badRequest(`the name of the object (${intent.metadata.name}) does not match the name on the URL (${r.name})`);
  if (!current && r.subresource) throw notFound(r.type, r.name!);
  const result = serverSideApply(current, intent, {
    manager: opts.manager,
    force: opts.force,
    type: r.type,
    now: rfc3339(cluster.now()),
    ...(r.subresource ? { subresource: r.subresource } : {}),
  });
  if (!current) {
    const created = storeNew(cluster, r.type, prepareNew(cluster, r.type, result, opts, true), opts);
    return sendJson(res, 201, served(r.type, created));
  }
  sendJson(
    res,
    200,
    served(r.type, commitUpdate(cluster, r, current, result, opts, { subresource: r.subresource, applied: true })),
  );
}
