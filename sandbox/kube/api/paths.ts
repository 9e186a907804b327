import type { KubeCluster } from '../cluster.js';
import { KubeError } from '../errors.js';
import { apiVersionOf, type KubeObject, type ResourceType } from '../types.js';

/**
 * A request path resolved to a resource, as kube-apiserver lays them out:
 * `/api/v1/namespaces/ns/pods/name/log`, `/apis/apps/v1/deployments`, `/api/v1/nodes/n/status`.
 */
export interface ResourceRequest {
  type: ResourceType;
  /** Set for namespaced paths; undefined for cluster-scoped kinds and for lists across all namespaces. */
  namespace?: string;
  name?: string;
  subresource?: string;
}

const notServed = () => new KubeError(404, 'NotFound', 'the server could not find the requested resource');

/** undefined = not a resource path (discovery, /version, /openapi/…), which the discovery handler answers. */
export function resolvePath(cluster: KubeCluster, pathname: string): ResourceRequest | undefined {
  const parts = pathname.split('/').filter(Boolean).map(safeDecode);
  let group: string;
  let version: string;
  let rest: string[];
  if (parts[0] === 'api' && parts.length >= 3) {
    group = '';
    version = parts[1]!;
    rest = parts.slice(2);
  } else if (parts[0] === 'apis' && parts.length >= 4) {
    group = parts[1]!;
    version = parts[2]!;
    rest = parts.slice(3);
  } else {
    return undefined;
  }
  let namespace: string | undefined;
  // `namespaces/<ns>/<resource>…` addresses a namespaced resource; `namespaces[/<ns>[/status|finalize]]` the namespaces
  // themselves.
  if (
    rest[0] === 'namespaces' &&
    rest.length >= 3 &&
    !(rest.length === 3 && (rest[2] === 'status' || rest[2] === 'finalize'))
  ) {
    namespace = rest[1];
    rest = rest.slice(2);
  }
  const [resource, name, subresource, ...extra] = rest;
  const type = resource ? cluster.findType(group, version, resource) : undefined;
  if (!type || extra.length > 0) throw notServed();
  // A cluster-scoped kind has no namespaced path; a namespaced object is only addressable inside its namespace.
  if (!type.namespaced && namespace !== undefined) throw notServed();
  if (type.namespaced && namespace === undefined && name !== undefined) throw notServed();
  if (subresource !== undefined && !isServed(type, subresource)) throw notServed();
  return {
    type,
    ...(namespace !== undefined ? { namespace } : {}),
    ...(name !== undefined ? { name } : {}),
    ...(subresource !== undefined ? { subresource } : {}),
  };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function isServed(type: ResourceType, sub: string): boolean {
  if (sub === 'status') return Boolean(type.subresources?.status);
  if (sub === 'scale') return Boolean(type.subresources?.scale);
  if (sub === 'log') return Boolean(type.subresources?.log);
  return false;
}

/**
 * An object as the requested version serves it. Custom resources of a multi-version CRD share one
 * store (conversion strategy None), so only apiVersion changes.
 */
export function served<T extends KubeObject | undefined>(type: ResourceType, obj: T): T {
  if (obj && type.crd) obj.apiVersion = apiVersionOf(type);
  return obj;
}
