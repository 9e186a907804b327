import { CloudError } from '../errors.js';

/**
 * Kubernetes' refusals as typed errors, each naming the cluster and the object (kind, namespace,
 * name) so a log line, a problem+json answer or an operation's error says exactly what was missing
 * or refused — Headlamp's ApiError idea. They are CloudErrors (service `kubernetes`), so the engine's
 * transient/outage rules and the one problem+json mapping apply unchanged; `answerStatus` says which
 * HTTP status a REST answer should carry when the error reaches a route as is.
 *
 * Not-found is 422 there on purpose: an object the server looked up for its own reasons is not the
 * resource the user asked for. A service that reads an object the user named turns KubeNotFound into
 * a NotFoundError (404) itself.
 */

export interface KubeObjectNaming {
  /** The EKS cluster whose API answered. */
  cluster: string;
  /** `Node`, `NodePool.karpenter.sh`. */
  kind: string;
  namespace?: string;
  name?: string;
}

const where = (o: KubeObjectNaming) =>
  `${o.kind}${o.name ? ` ${o.namespace ? `${o.namespace}/` : ''}${o.name}` : o.namespace ? ` in namespace ${o.namespace}` : ''} in EKS cluster ${o.cluster}`;

export interface KubeErrorOptions {
  /** The object the call was about. */
  object: KubeObjectNaming;
  /** The Kubernetes verb: `get`, `list`, `apply`, … */
  verb: string;
  /** Kubernetes' `reason` (`NotFound`, `AlreadyExists`), or ours (`KindNotServed`). */
  code: string;
  message: string;
  /** The status the API server answered with. */
  httpStatus?: number;
  /** True when a repeat may succeed (429, 5xx, an expired list). */
  retryable?: boolean;
  /** What a person does about it. */
  remedy?: string;
  /** The status of a REST answer carrying this error as is (defaults to the problem mapping's). */
  answerStatus?: number;
}

export class KubeError extends CloudError {
  readonly object: KubeObjectNaming;
  readonly remedy: string | undefined;
  readonly answerStatus: number | undefined;
  constructor({ object, verb, code, message, httpStatus, retryable, remedy, answerStatus }: KubeErrorOptions) {
    super({ service: 'kubernetes', operation: verb, code, message, httpStatus, retryable });
    this.object = object;
    this.remedy = remedy;
    this.answerStatus = answerStatus;
    this.name = 'KubeError';
  }
}

/**
 * What every typed refusal below is built from: the object and the verb; some add `detail` (the API
 * server's sentence), `reason` (its code, e.g. `AlreadyExists`), `installedBy` (what installs a
 * missing kind, e.g. a feature's title) or `attempts` (how often a list restarted).
 */
export interface KubeRefusalOptions {
  object: KubeObjectNaming;
  verb: string;
}

/** The object does not exist (the kind is served). */
export class KubeNotFound extends KubeError {
  constructor({ object, verb }: KubeRefusalOptions) {
    super({ object, verb, code: 'NotFound', message: `${where(object)} does not exist.`, httpStatus: 404 });
    this.name = 'KubeNotFound';
  }
}

/** The cluster does not serve the kind at all: its CRD is not installed (or not Established yet), or the API version is gone. */
export class KubeKindNotServed extends KubeError {
  constructor({ object, verb, installedBy }: KubeRefusalOptions & { installedBy?: string }) {
    const remedy = installedBy
      ? `Install ${installedBy}, then try again.`
      : `Install the CustomResourceDefinition that serves ${object.kind}, then try again.`;
    super({
      object,
      verb,
      code: 'KindNotServed',
      message: `EKS cluster ${object.cluster} does not serve ${object.kind} (no such resource type in its API).`,
      httpStatus: 404,
      remedy,
      answerStatus: 422,
    });
    this.name = 'KubeKindNotServed';
  }
}

/** A write clashed: the object already exists, or changed since it was read, or another field manager owns the field. */
export class KubeConflict extends KubeError {
  constructor({ object, verb, detail, reason = 'Conflict' }: KubeRefusalOptions & { detail: string; reason?: string }) {
    super({
      object,
      verb,
      code: reason,
      message: `${verb} ${where(object)} conflicts: ${detail}`,
      httpStatus: 409,
      answerStatus: 409,
    });
    this.name = 'KubeConflict';
  }
}

/** The server's AWS identity is known to the cluster but lacks the right (RBAC or access policy). */
export class KubeForbidden extends KubeError {
  constructor({ object, verb, detail }: KubeRefusalOptions & { detail: string }) {
    super({
      object,
      verb,
      code: 'Forbidden',
      message: `${verb} ${where(object)} is forbidden: ${detail}`,
      httpStatus: 403,
      remedy: `Give this server's AWS identity an EKS access entry on ${object.cluster} with AmazonEKSClusterAdminPolicy (or RBAC that allows ${verb} on ${object.kind}).`,
      answerStatus: 422,
    });
    this.name = 'KubeForbidden';
  }
}

/** The cluster does not accept this server's EKS token, even a fresh one. */
export class KubeUnauthorized extends KubeError {
  constructor({ object, verb }: KubeRefusalOptions) {
    super({
      object,
      verb,
      code: 'Unauthorized',
      message: `EKS cluster ${object.cluster} did not accept this server's AWS identity (401, even with a fresh token).`,
      httpStatus: 401,
      remedy: `Check that this server's AWS credentials are current and that their principal has an EKS access entry on ${object.cluster}.`,
      answerStatus: 422,
    });
    this.name = 'KubeUnauthorized';
  }
}

/** A list outlived its continue token more times than it restarts (the cluster changes faster than it can be listed). */
export class KubeExpired extends KubeError {
  constructor({ object, verb, attempts }: KubeRefusalOptions & { attempts: number }) {
    super({
      object,
      verb,
      code: 'Expired',
      message: `Listing ${where(object)} restarted ${attempts} times and each time its continue token expired (the cluster's history was compacted meanwhile); try again.`,
      httpStatus: 410,
      retryable: true,
      answerStatus: 503,
    });
    this.name = 'KubeExpired';
  }
}

export interface KubeApiUnavailableOptions {
  cluster: string;
  /** The EKS cluster's status (`CREATING`, `DELETING`, …); none when the cluster does not exist. */
  status: string | undefined;
}

/** The EKS cluster has no Kubernetes API to talk to (yet, or any more). */
export class KubeApiUnavailable extends CloudError {
  readonly cluster: string;
  readonly status: string | undefined;
  constructor({ cluster, status }: KubeApiUnavailableOptions) {
    super({
      service: 'eks',
      operation: 'DescribeCluster',
      code: 'NoKubernetesApi',
      message: status
        ? `EKS cluster ${cluster} has no Kubernetes API endpoint (status ${status}).`
        : `EKS cluster ${cluster} does not exist, so it has no Kubernetes API.`,
      // Worth waiting for only while the cluster is on its way up.
      retryable: status === 'CREATING' || status === 'PENDING',
    });
    this.cluster = cluster;
    this.status = status;
    this.name = 'KubeApiUnavailable';
  }
}
