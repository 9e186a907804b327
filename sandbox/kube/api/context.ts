import type { KubeCluster } from '../cluster.js';
import type { ResourceType } from '../types.js';

/** Who is calling, as the EKS authenticator maps an IAM principal (username and groups). */
export interface KubeUser {
  username: string;
  groups: string[];
  /** The IAM principal ARN behind the token. */
  arn: string;
}

/** The verbs RBAC knows; `watch` and `list` are separate, as in Kubernetes. */
export type KubeVerb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

/** What the API layer gets for every request that passed authentication. */
export interface KubeRequestContext {
  cluster: KubeCluster;
  user: KubeUser;
  /**
   * Throws KubeError 403 (a `Status` naming user, verb, resource and namespace) unless the user's
   * access policies allow it. `type` undefined = non-resource URL (discovery, /version, openapi: always allowed).
   */
  authorize(verb: KubeVerb, type: ResourceType | undefined, namespace: string | undefined, subresource?: string): void;
}
