import type { IamOidcProvider } from '../cloud/ports.js';
import { CloudError, PreconditionError } from '../domain/errors.js';
import { IRSA_AUDIENCE, issuerHostPath } from '../domain/features/identity-policies.js';
import { federatedPrincipals } from '../domain/features/policy-document.js';
import { clusterTags, MANAGED_BY_VALUE, TAG_CLUSTER, TAG_MANAGED_BY, TAG_PART } from '../domain/naming.js';
import type { WorkflowDeps } from './context.js';

/**
 * The cluster's IAM OIDC provider, the trust anchor of every IRSA role: made when missing (tagged
 * as ours for this cluster), used as it is when someone made it before us, and deleted only when we
 * made it and no role of the account trusts it anymore.
 */

const PART = 'oidc-provider';

interface Where {
  clusterName: string;
  region: string;
  eksClusterName: string;
}

/** Whether InstantStart made this provider for this cluster (its tags; a provider made by anyone else is never ours). */
export const isOurProvider = (p: IamOidcProvider, cluster: string): boolean =>
  p.tags[TAG_MANAGED_BY] === MANAGED_BY_VALUE && p.tags[TAG_CLUSTER] === cluster && p.tags[TAG_PART] === PART;

/** The EKS cluster's OIDC issuer URL (DescribeCluster identity.oidc.issuer); undefined when the cluster is gone. */
export async function clusterIssuer(deps: WorkflowDeps, where: Where): Promise<string | undefined> {
  const cluster = await deps.cloud.eks.describeCluster(where.region, where.eksClusterName);
  if (!cluster) return undefined;
  const issuer = cluster.identity?.oidc?.issuer;
  if (!issuer)
    throw new CloudError({
      service: 'eks',
      operation: 'DescribeCluster',
      code: 'NoOidcIssuer',
      message: `EKS cluster ${where.eksClusterName} has no OIDC issuer yet (status ${cluster.status}); IRSA needs it.`,
      retryable: true,
    });
  return issuer;
}

/** The provider of the cluster's issuer as IAM holds it, or undefined. */
export async function findClusterProvider(deps: WorkflowDeps, issuer: string): Promise<IamOidcProvider | undefined> {
  const hostPath = issuerHostPath(issuer);
  return (await deps.cloud.oidcProviders.list()).find((p) => p.url === hostPath);
}

/** The provider's ARN, made first when the issuer has none. One that cannot serve IRSA (no `sts.amazonaws.com` client id) is refused, not changed. */
export async function ensureClusterProvider(
  deps: WorkflowDeps,
  where: Where,
  log: (m: string) => void,
): Promise<string> {
  const issuer = await clusterIssuer(deps, where);
  if (!issuer)
    throw new CloudError({
      service: 'eks',
      operation: 'DescribeCluster',
      code: 'ResourceNotFoundException',
      message: `EKS cluster ${where.eksClusterName} does not exist.`,
      httpStatus: 404,
    });
  const found = await findClusterProvider(deps, issuer);
  if (found) {
    if (!found.clientIds.includes(IRSA_AUDIENCE)) {
      throw new PreconditionError({
        message: `The IAM OIDC provider ${found.arn} of this cluster's issuer does not list the client id ${IRSA_AUDIENCE}, so IRSA tokens would be refused; InstantStart does not change a provider it did not make.`,
        problems: [],
        remedy: `aws iam add-client-id-to-open-id-connect-provider --open-id-connect-provider-arn ${found.arn} --client-id ${IRSA_AUDIENCE}`,
      });
    }
    return found.arn;
  }
  const { Name: _name, ...tags } = clusterTags(where.clusterName, PART);
  const arn = await deps.cloud.oidcProviders.create(issuer, [IRSA_AUDIENCE], tags);
  log(`Created the IAM OIDC provider for ${issuerHostPath(issuer)}`);
  return arn;
}

/**
 * Deletes the cluster's provider when we made it and no role trusts it anymore (another feature's
 * role, a role someone made by hand: anything in the account). When the EKS cluster is gone its
 * issuer is found by our tags.
 */
export async function releaseClusterProvider(
  deps: WorkflowDeps,
  where: Where,
  log: (m: string) => void,
): Promise<void> {
  const issuer = await clusterIssuer(deps, where);
  const providers = await deps.cloud.oidcProviders.list();
  const candidates = issuer
    ? providers.filter((p) => p.url === issuerHostPath(issuer))
    : providers.filter((p) => isOurProvider(p, where.clusterName));
  for (const provider of candidates) {
    if (!isOurProvider(provider, where.clusterName)) {
      log(`Kept the IAM OIDC provider ${provider.url}: InstantStart did not make it`);
      continue;
    }
    const trusting = (await deps.cloud.iam.listRoleTrusts()).filter((r) =>
      federatedPrincipals(r.trustPolicy).includes(provider.arn),
    );
    if (trusting.length > 0) {
      log(`Kept the IAM OIDC provider ${provider.url}: still trusted by ${trusting.map((r) => r.roleName).join(', ')}`);
      continue;
    }
    await deps.cloud.oidcProviders.delete(provider.arn);
    log(`Deleted the IAM OIDC provider ${provider.url} (no role trusts it anymore)`);
  }
}
