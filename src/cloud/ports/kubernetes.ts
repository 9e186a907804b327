import type { Readable } from 'node:stream';
import type { KubeKind, KubeResource } from '../../domain/kube/kind.js';
import type { KubeObject } from '../../domain/kube-object.js';

/** One EKS cluster's Kubernetes API (src/cloud/k8s implements it with @kubernetes/client-node). */

/** An item of a Kubernetes list as read code without a kind module sees it: shapes are not to be trusted. */
export interface ListedKubeObject {
  metadata?: { name?: string; namespace?: string; labels?: Record<string, string>; creationTimestamp?: Date | string };
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface KubeListOptions {
  /** One namespace; all when absent (namespaced kinds). */
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** Objects per request (default 500); `list` follows every page. */
  limit?: number;
}

export interface KubePage<T> {
  items: T[];
  /** The list's resourceVersion: a watch from it misses nothing. */
  resourceVersion: string;
  /** Token of the next page; absent on the last. */
  continue?: string;
}

export type KubeWatchEvent<T> =
  | { type: 'ADDED' | 'MODIFIED' | 'DELETED'; object: T }
  | { type: 'BOOKMARK'; resourceVersion: string };

export interface KubeWatchOptions extends KubeListOptions {
  /** Resume after this version; without it the watch lists first (ADDED for each current object). */
  resourceVersion?: string;
  /** Ends the watch (the iteration finishes). */
  signal?: AbortSignal;
}

export interface KubeLogOptions {
  /** Required when the pod has more than one container. */
  container?: string;
  follow?: boolean;
  tailLines?: number;
  sinceSeconds?: number;
  /** Only lines at or after this RFC 3339 time (the kubelet compares at whole seconds); not with sinceSeconds. */
  sinceTime?: string;
  limitBytes?: number;
  previous?: boolean;
  timestamps?: boolean;
  signal?: AbortSignal;
}

/**
 * A request to a Service through the API server's service proxy
 * (`/api/v1/namespaces/{namespace}/services/{service}:{port}/proxy/{path}`): what a client outside the cluster
 * reaches an in-cluster Service by, on EKS as anywhere (no port-forward, no exec).
 */
export interface KubeServiceProxyRequest {
  namespace: string;
  service: string;
  /** The Service port (its number or name). */
  port: number | string;
  /** The path after the Service's root, without the leading slash (`v1/chat/completions`). */
  path: string;
  method: 'GET' | 'POST';
  /** Sent as JSON. */
  body?: unknown;
  /** What the caller takes (`text/event-stream` for a streamed completion). */
  accept?: string;
  /** Ends the request and its answer's stream. */
  signal?: AbortSignal;
  /** How long to wait for the answer's headers (default: the client's request deadline); a model may think for minutes. */
  headersMs?: number;
}

/**
 * The headers of a proxied answer passed on to the caller: what the answer is, and which pod answered (the
 * sandbox's model servers name themselves in `x-served-by`). Nothing else: no cookie, no server's own auth.
 */
export interface ProxiedAnswerHeaders {
  'content-type'?: string;
  'x-served-by'?: string;
}

/** The answer of the Service behind the proxy (or the API server's own, when it could not reach it). */
export interface KubeServiceProxyAnswer {
  status: number;
  /** Of the answer's headers, only these two. */
  headers: ProxiedAnswerHeaders;
  /** Read as it comes; the caller bounds what it reads and destroys it when done. */
  body: Readable;
}

/**
 * One cluster's Kubernetes API, typed by kind (src/domain/kube): reads parse into the kind's type,
 * writes are server-side apply under the field manager `instantstart`, failures are the typed errors
 * of src/domain/kube/errors.ts naming the cluster and the object.
 */
export interface KubePort {
  /** The EKS cluster's name. */
  readonly cluster: string;
  /** The object; KubeNotFound when it does not exist, KubeKindNotServed when the cluster has no such kind. */
  get<T extends KubeResource>(kind: KubeKind<T>, name: string, namespace?: string): Promise<T>;
  /** The object, or undefined when it does not exist (a kind not served still throws KubeKindNotServed). */
  find<T extends KubeResource>(kind: KubeKind<T>, name: string, namespace?: string): Promise<T | undefined>;
  /** The object a manifest describes, as it is now (undefined when absent or its kind is not served). */
  current(manifest: KubeObject): Promise<KubeResource | undefined>;
  /** Every matching object, all pages; a list that outlives its continue token starts again. */
  list<T extends KubeResource>(kind: KubeKind<T>, options?: KubeListOptions): Promise<T[]>;
  /** One page (for callers that page themselves); an expired `continue` throws KubeExpired. */
  listPage<T extends KubeResource>(
    kind: KubeKind<T>,
    options?: KubeListOptions & { continue?: string },
  ): Promise<KubePage<T>>;
  /** Changes as they happen, resumed across disconnects and relisted when the history is compacted. */
  watch<T extends KubeResource>(kind: KubeKind<T>, options?: KubeWatchOptions): AsyncIterable<KubeWatchEvent<T>>;
  /** Server-side apply of one object; the object as stored. */
  apply<T extends KubeResource>(kind: KubeKind<T>, manifest: KubeObject): Promise<T>;
  /** Server-side apply of each manifest, in order (kinds found by apiVersion + kind). */
  applyAll(manifests: readonly KubeObject[]): Promise<void>;
  /**
   * A JSON merge patch (RFC 7386) of one object: for a change to fields another writer owns as well (a pod's
   * label, a count), where a server-side apply of the one field would drop the rest of what we applied. The
   * object as stored; KubeNotFound when absent.
   */
  mergePatch<T extends KubeResource>(
    kind: KubeKind<T>,
    name: string,
    namespace: string | undefined,
    patch: Record<string, unknown>,
  ): Promise<T>;
  /** Sets the replicas through the object's `scale` subresource (Deployment, StatefulSet, a CRD that has one). */
  scale(kind: KubeKind, name: string, namespace: string | undefined, replicas: number): Promise<void>;
  /** Deletes the object; false when there was nothing to delete. */
  delete<T extends KubeResource>(kind: KubeKind<T>, name: string, namespace?: string): Promise<boolean>;
  /** Deletes the object a manifest describes (kind found by apiVersion + kind); false when there was nothing to delete. */
  deleteObject(manifest: KubeObject): Promise<boolean>;
  /** A container's log as a text stream (live with `follow`: it ends when the container does, or on `signal`). */
  logs(pod: { name: string; namespace: string }, options?: KubeLogOptions): Promise<Readable>;
  /**
   * A request to a Service through the API server's service proxy, its answer streamed. Any HTTP status comes
   * back (the Service's own, or the API server's 503 when no pod is ready behind it); no answer at all throws.
   */
  proxyService(request: KubeServiceProxyRequest): Promise<KubeServiceProxyAnswer>;
}
