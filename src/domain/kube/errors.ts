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

export class KubeError extends CloudError {
  constructor(
    readonly object: KubeObjectNaming,
    verb: string,
    code: string,
    message: string,
    httpStatus: number | undefined,
    retryable: boolean,
    readonly remedy?: string,
    /** The status of a REST answer carrying this error as is (defaults to the problem mapping's). */
    readonly answerStatus?: number,
  ) {
    super('kubernetes', verb, code, message, httpStatus, retryable);
    this.name = 'KubeError';
  }
}

/** The object does not exist (the kind is served). */
export class KubeNotFound extends KubeError {
  constructor(object: KubeObjectNaming, verb: string) {
    super(object, verb, 'NotFound', `${where(object)} does not exist.`, 404, false);
    this.name = 'KubeNotFound';
  }
}

/** The cluster does not serve the kind at all: its CRD is not installed (or not Established yet), or the API version is gone. */
export class KubeKindNotServed extends KubeError {
  constructor(object: KubeObjectNaming, verb: string, installedBy?: string) {
    const remedy = installedBy
      ? `Install ${installedBy}, then try again.`
      : `Install the CustomResourceDefinition that serves ${object.kind}, then try again.`;
    super(
      object,
      verb,
      'KindNotServed',
      `EKS cluster ${object.cluster} does not serve ${object.kind} (no such resource type in its API).`,
      404,
      false,
      remedy,
      422,
    );
    this.name = 'KubeKindNotServed';
  }
}

/** A write clashed: the object already exists, or changed since it was read, or another field manager owns the field. */
export class KubeConflict extends KubeError {
  constructor(object: KubeObjectNaming, verb: string, detail: string, reason = 'Conflict') {
    super(object, verb, reason, `${verb} ${where(object)} conflicts: ${detail}`, 409, false, undefined, 409);
    this.name = 'KubeConflict';
  }
}

/** The server's AWS identity is known to the cluster but lacks the right (RBAC or access policy). */
export class KubeForbidden extends KubeError {
  constructor(object: KubeObjectNaming, verb: string, detail: string) {
    super(
      object,
      verb,
      'Forbidden',
      `${verb} ${where(object)} is forbidden: ${detail}`,
      403,
      false,
      `Give this server's AWS identity an EKS access entry on ${object.cluster} with AmazonEKSClusterAdminPolicy (or RBAC that allows ${verb} on ${object.kind}).`,
      422,
    );
    this.name = 'KubeForbidden';
  }
}

/** The cluster does not accept this server's EKS token, even a fresh one. */
export class KubeUnauthorized extends KubeError {
  constructor(object: KubeObjectNaming, verb: string) {
    super(
      object,
      verb,
      'Unauthorized',
      `EKS cluster ${object.cluster} did not accept this server's AWS identity (401, even with a fresh token).`,
      401,
      false,
      `Check that this server's AWS credentials are current and that their principal has an EKS access entry on ${object.cluster}.`,
      422,
    );
    this.name = 'KubeUnauthorized';
  }
}

/** A list outlived its continue token more times than it restarts (the cluster changes faster than it can be listed). */
export class KubeExpired extends KubeError {
  constructor(object: KubeObjectNaming, verb: string, attempts: number) {
    super(
      object,
      verb,
      'Expired',
      `Listing ${where(object)} restarted ${attempts} times and each time its continue token expired (the cluster's history was compacted meanwhile); try again.`,
      410,
      true,
      undefined,
      503,
    );
    this.name = 'KubeExpired';
  }
}

/** The EKS cluster has no Kubernetes API to talk to (yet, or any more). */
export class KubeApiUnavailable extends CloudError {
  constructor(
    readonly cluster: string,
    readonly status: string | undefined,
  ) {
    super(
      'eks',
      'DescribeCluster',
      'NoKubernetesApi',
      status
        ? `EKS cluster ${cluster} has no Kubernetes API endpoint (status ${status}).`
        : `EKS cluster ${cluster} does not exist, so it has no Kubernetes API.`,
      undefined,
      // Worth waiting for only while the cluster is on its way up.
      status === 'CREATING' || status === 'PENDING',
    );
    this.name = 'KubeApiUnavailable';
  }
}
