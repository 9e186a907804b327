import type { IamPort } from '../cloud/ports.js';
import { clusterRoleNames } from '../domain/cluster-roles.js';
import type { ClusterResourceNames } from '../domain/naming.js';
import { isClusterMlflowRole, mlflowJobRolePrefix } from '../domain/training/mlflow-identity.js';

/**
 * Every IAM role a cluster owns, for its delete: the roles of fixed names (control plane, instance
 * groups, features' identities) and the MLflow job roles its training jobs made, one per tracking
 * server, whose names carry a hash. Those are found by listing the account's roles and kept only
 * when their tags say they are this cluster's — a role of that shape someone else made is not ours.
 */
export async function clusterOwnedRoles(iam: IamPort, cluster: string, names: ClusterResourceNames): Promise<string[]> {
  const prefix = mlflowJobRolePrefix(cluster);
  const mlflow: string[] = [];
  for (const role of await iam.listRoleTrusts()) {
    if (!role.roleName.startsWith(prefix)) continue;
    const facts = await iam.describeRole(role.roleName);
    if (facts && isClusterMlflowRole(cluster, role.roleName, facts.tags)) mlflow.push(role.roleName);
  }
  return [...clusterRoleNames(names), ...mlflow];
}
