import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KubeCluster } from '../cluster.js';
import { badRequest, conflict, notFound } from '../errors.js';
import { apiVersionOf } from '../types.js';
import { deleteObject, type PropagationPolicy } from './deletion.js';
import { mediaType, parseBody, sendJson } from './http.js';
import { served, type ResourceRequest } from './paths.js';
import { selectObjects } from './read.js';
import { dryRunOf } from './write-options.js';

/** DELETE of one object and of a collection, with DeleteOptions from the body or the query. */

interface DeleteOptions {
  propagationPolicy?: PropagationPolicy;
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun: boolean;
}

const POLICIES = ['Foreground', 'Background', 'Orphan'];

function deleteOptions(body: Buffer, req: IncomingMessage, query: URLSearchParams): DeleteOptions {
  const raw = body.length > 0 && body.toString('utf8').trim() ? parseBody(body, mediaType(req)) : {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw badRequest('the body of a delete request must be DeleteOptions');
  const fromBody = raw as {
    propagationPolicy?: string;
    orphanDependents?: boolean;
    preconditions?: DeleteOptions['preconditions'];
    dryRun?: string[];
    gracePeriodSeconds?: number;
  };
  const orphan =
    query.get('orphanDependents') ??
    (fromBody.orphanDependents === undefined ? undefined : String(fromBody.orphanDependents));
  const policy =
    query.get('propagationPolicy') ??
    fromBody.propagationPolicy ??
    (orphan === 'true' ? 'Orphan' : orphan === 'false' ? 'Background' : undefined);
  if (policy !== undefined && !POLICIES.includes(policy)) {
    throw badRequest(
      `DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "${policy}": supported values: "Foreground", "Background", "Orphan", "nil"`,
    );
  }
  const grace = query.get('gracePeriodSeconds') ?? fromBody.gracePeriodSeconds;
  if (grace !== undefined && grace !== null && !/^-?\d+$/.test(String(grace)))
    throw badRequest(`gracePeriodSeconds: Invalid value: "${grace}"`);
  const preconditions = {
    ...(fromBody.preconditions ?? {}),
    ...(query.get('preconditions.uid') ? { uid: query.get('preconditions.uid')! } : {}),
    ...(query.get('preconditions.resourceVersion')
      ? { resourceVersion: query.get('preconditions.resourceVersion')! }
      : {}),
  };
  return {
    ...(policy ? { propagationPolicy: policy as PropagationPolicy } : {}),
    preconditions,
    dryRun: dryRunOf([...query.getAll('dryRun'), ...(fromBody.dryRun ?? [])]),
  };
}

export function deleteOne(
  cluster: KubeCluster,
  r: ResourceRequest,
  body: Buffer,
  req: IncomingMessage,
  res: ServerResponse,
  query: URLSearchParams,
): void {
  const opts = deleteOptions(body, req, query);
  const obj = cluster.objects.get(r.type, r.namespace, r.name!);
  if (!obj) throw notFound(r.type, r.name!);
  const { uid, resourceVersion } = opts.preconditions ?? {};
  if (uid && uid !== obj.metadata.uid)
    throw conflict(
      r.type,
      r.name!,
      `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${obj.metadata.uid}`,
    );
  if (resourceVersion && resourceVersion !== obj.metadata.resourceVersion) {
    throw conflict(
      r.type,
      r.name!,
      `Precondition failed: ResourceVersion in precondition: ${resourceVersion}, ResourceVersion in meta: ${obj.metadata.resourceVersion}`,
    );
  }
  if (opts.dryRun) return sendJson(res, 200, served(r.type, obj));
  sendJson(res, 200, deleteObject(cluster, r.type, obj, opts.propagationPolicy));
}

/** deletecollection: every selected object deleted as a single DELETE would; answers with the list of them. */
export function deleteCollection(
  cluster: KubeCluster,
  r: ResourceRequest,
  body: Buffer,
  req: IncomingMessage,
  res: ServerResponse,
  query: URLSearchParams,
): void {
  const opts = deleteOptions(body, req, query);
  const victims = selectObjects(cluster, r, query);
  if (!opts.dryRun) {
    for (const o of victims) {
      const current = cluster.objects.get(r.type, o.metadata.namespace, o.metadata.name!);
      if (current) deleteObject(cluster, r.type, current, opts.propagationPolicy);
    }
  }
  sendJson(res, 200, {
    kind: r.type.listKind,
    apiVersion: apiVersionOf(r.type),
    metadata: { resourceVersion: cluster.objects.resourceVersion },
    items: victims.map((o) => served(r.type, o)),
  });
}
