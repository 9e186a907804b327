import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KubeCluster } from '../cluster.js';
import { badRequest, KubeError, methodNotAllowed, notFound } from '../errors.js';
import { applyJsonPatch, applyMergePatch } from '../patch/index.js';
import type { KubeObject } from '../types.js';
import { mediaType, parseBody, sendJson } from './http.js';
import { jsonPathValue, setJsonPath } from './jsonpath.js';
import type { ResourceRequest } from './paths.js';
import { labelSelectorString } from './selectors.js';
import type { WriteOptions } from './write-options.js';
import { commitUpdate } from './write.js';

/**
 * The `scale` subresource: an autoscaling/v1 Scale view of a Deployment, ReplicaSet, StatefulSet or
 * a custom resource with a scale subresource. Writing it changes only the replica count.
 */

function toScale(obj: KubeObject, r: ResourceRequest): Record<string, unknown> {
  const paths = r.type.subresources!.scale!;
  // Built-ins derive the selector from spec.selector; custom resources name a path holding the serialized selector.
  const selector = r.type.crd
    ? paths.labelSelectorPath && jsonPathValue(obj, paths.labelSelectorPath)
    : labelSelectorString((obj.spec as { selector?: Record<string, unknown> } | undefined)?.selector);
  const { name, namespace, uid, resourceVersion, creationTimestamp } = obj.metadata;
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: { name, namespace, uid, resourceVersion, creationTimestamp },
    spec: { replicas: Number(jsonPathValue(obj, paths.specReplicasPath) ?? 0) },
    status: {
      replicas: Number(jsonPathValue(obj, paths.statusReplicasPath) ?? 0),
      ...(typeof selector === 'string' && selector ? { selector } : {}),
    },
  };
}

const invalidReplicas = (name: string, value: unknown, why: string) =>
  new KubeError(
    422,
    'Invalid',
    `Scale.autoscaling "${name}" is invalid: spec.replicas: Invalid value: ${JSON.stringify(value)}: ${why}`,
    {
      name,
      group: 'autoscaling',
      kind: 'Scale',
      causes: [
        {
          reason: 'FieldValueInvalid',
          message: `Invalid value: ${JSON.stringify(value)}: ${why}`,
          field: 'spec.replicas',
        },
      ],
    },
  );

export function scale(
  cluster: KubeCluster,
  r: ResourceRequest,
  method: string,
  body: Buffer,
  req: IncomingMessage,
  res: ServerResponse,
  opts: WriteOptions,
): void {
  const obj = cluster.objects.get(r.type, r.namespace, r.name!);
  if (!obj) throw notFound(r.type, r.name!);
  const current = toScale(obj, r);
  if (method === 'GET') return sendJson(res, 200, current);
  if (method !== 'PUT' && method !== 'PATCH')
    throw methodNotAllowed(`${method} is not supported on the scale subresource`);
  const media = mediaType(req);
  const payload = parseBody(body, media);
  let next: { kind?: string; metadata?: { name?: string; resourceVersion?: string }; spec?: { replicas?: unknown } };
  if (method === 'PUT') next = payload as typeof next;
  else if (media === 'application/json-patch+json') next = applyJsonPatch(current as never, payload) as typeof next;
  else if (media === 'application/merge-patch+json' || media === 'application/strategic-merge-patch+json')
    next = applyMergePatch(current as never, payload) as typeof next;
  else
    throw new KubeError(
      415,
      'UnsupportedMediaType',
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json',
    );
  if (typeof next !== 'object' || next === null) throw badRequest('the object provided is not a Scale');
  if (next.kind && next.kind !== 'Scale')
    throw badRequest(`the object provided is unrecognized (must be of type Scale): ${next.kind}`);
  if (next.metadata?.name && next.metadata.name !== r.name)
    throw badRequest(`the name of the object (${next.metadata.name}) does not match the name on the URL (${r.name})`);
  const replicas = next.spec?.replicas ?? 0;
  if (typeof replicas !== 'number' || !Number.isInteger(replicas))
    throw invalidReplicas(r.name!, replicas, 'must be an integer');
  if (replicas < 0) throw invalidReplicas(r.name!, replicas, 'must be greater than or equal to 0');

  const updated = structuredClone(obj);
  setJsonPath(updated as Record<string, unknown>, r.type.subresources!.scale!.specReplicasPath, replicas);
  // A resourceVersion in the Scale is a precondition on the scaled object.
  updated.metadata.resourceVersion = next.metadata?.resourceVersion || undefined;
  const stored = commitUpdate(cluster, { ...r, subresource: undefined }, obj, updated, opts, { subresource: 'scale' });
  sendJson(res, 200, toScale(stored, r));
}
