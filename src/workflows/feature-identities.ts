import { ConflictError } from '../domain/errors.js';
import {
  annotatedServiceAccounts,
  FEATURE_POLICY_NAME,
  featureIdentities,
  featureRoleSpec,
  identityPermissionsPolicy,
  needsOidcProvider,
  type FeatureRoleSpec,
} from '../domain/features/identity-policies.js';
import { samePolicy } from '../domain/features/policy-document.js';
import { featureRoleName, formerFeatureRoleName } from '../domain/features/registry.js';
import { ROLE_ARN_ANNOTATION, SERVICE_ACCOUNT } from '../domain/kube/service-account.js';
import { MANAGED_BY_VALUE, TAG_CLUSTER, TAG_MANAGED_BY } from '../domain/naming.js';
import type { FeatureId } from '../domain/schemas/features.js';
import type { IamPort } from '../cloud/ports.js';
import type { WorkflowDeps } from './context.js';
import {
  clusterIssuer,
  ensureClusterProvider,
  findClusterProvider,
  isOurProvider,
  releaseClusterProvider,
} from './feature-oidc-provider.js';
import { annotateServiceAccount, checkNamespaces, releaseServiceAccounts } from './feature-service-accounts.js';

/**
 * The IAM identities of managed features (src/domain/features/registry.ts → identities), made and
 * removed as exactly the chain the registry states: role, trust policy, inline policy, the cluster's
 * IAM OIDC provider (IRSA), and the service account annotation where the registry says `annotate`.
 * The documents are built in src/domain/features/identity-policies.ts; this module compares them with
 * what IAM and Kubernetes hold and changes only what differs (a repeat makes no call that mutates).
 *
 * Ownership: a role or OIDC provider is ours when it carries the tags `instantstart.io/managed-by=instantstart`
 * and `instantstart.io/cluster=<cluster>` (roles also `instantstart.io/feature`); service accounts as
 * feature-service-accounts.ts says. Removal touches only what is ours.
 */

/** The facts of one cluster an identity's trust and permissions are built from. */
export interface FeatureClusterFacts {
  /** InstantStart's cluster name (roles are instantstart-<name>-<suffix> or <prefix>-<name>-<hash>, see featureRoleName). */
  clusterName: string;
  region: string;
  eksClusterName: string;
  hyperpodClusterArn: string;
  /** The shared S3 bucket, when the cluster has one. */
  sharedBucket?: string;
  /** The inference operator's TLS certificate bucket, once made. */
  tlsBucket?: string;
}

/** One identity of a feature as it exists now. */
export interface FeatureIdentityState {
  identity: string;
  title: string;
  roleName: string;
  roleArn?: string;
  /** The role exists (and, for an annotated service account, the annotation names it). */
  present: boolean;
  detail: string;
}

type Log = (message: string) => void;

const isOurs = (tags: Record<string, string>, cluster: string) =>
  tags[TAG_MANAGED_BY] === MANAGED_BY_VALUE && tags[TAG_CLUSTER] === cluster;
const roleArnOf = (accountId: string, roleName: string) => `arn:aws:iam::${accountId}:role/${roleName}`;

/** A role of ours as IAM should hold it: what ensureOwnedRole makes right. */
export interface OwnedRoleSpec {
  roleName: string;
  description: string;
  trustPolicy: unknown;
  managedPolicyArns: readonly string[];
  /** The one inline policy, under `inlinePolicyName` (default FEATURE_POLICY_NAME). */
  inlinePolicy?: unknown;
  inlinePolicyName?: string;
  tags: Record<string, string>;
}

/**
 * Makes a role of ours right: created when missing, its trust, managed policies and inline policy
 * set where they differ (a right role costs reads only). A role of that name that does not carry
 * every one of `ownerTags` is someone else's: refused with a 409 naming `conflictField`, never changed.
 * The one way InstantStart makes roles for features and for training's MLflow identities.
 */
export async function ensureOwnedRole(
  iam: IamPort,
  spec: OwnedRoleSpec,
  ownerTags: Record<string, string>,
  conflictField: string,
  log: Log,
): Promise<string> {
  const current = await iam.describeRole(spec.roleName);
  let arn: string;
  if (!current) {
    arn = await iam.createRole({
      roleName: spec.roleName,
      description: spec.description,
      trustPolicy: spec.trustPolicy,
      tags: spec.tags,
    });
    log(`Created IAM role ${spec.roleName}`);
  } else {
    const missingTag = Object.entries(ownerTags).find(([k, v]) => current.tags[k] !== v);
    if (missingTag) {
      throw new ConflictError({
        message: `IAM role ${spec.roleName} exists but InstantStart did not make it for this purpose (it lacks the ${missingTag[0]}=${missingTag[1]} tag); rename or delete that role, then retry.`,
        field: conflictField,
      });
    }
    arn = current.arn;
    if (!samePolicy(current.trustPolicy, spec.trustPolicy)) {
      await iam.updateTrustPolicy(spec.roleName, spec.trustPolicy);
      log(`Updated the trust policy of IAM role ${spec.roleName}`);
    }
  }
  const attached = current ? await iam.attachedPolicies(spec.roleName) : [];
  for (const policyArn of spec.managedPolicyArns.filter((p) => !attached.includes(p))) {
    await iam.attachPolicy(spec.roleName, policyArn);
    log(`Attached ${policyArn.split('/').pop()} to ${spec.roleName}`);
  }
  if (spec.inlinePolicy) {
    const policyName = spec.inlinePolicyName ?? FEATURE_POLICY_NAME;
    const held = current ? await iam.inlinePolicy(spec.roleName, policyName) : undefined;
    if (!held || !samePolicy(held, spec.inlinePolicy)) {
      await iam.putInlinePolicy(spec.roleName, policyName, spec.inlinePolicy);
      log(`Put the inline policy ${policyName} on ${spec.roleName}`);
    }
  }
  return arn;
}

/** A feature's role: ours when tagged as managed by InstantStart for this cluster. */
const ensureRole = (deps: WorkflowDeps, cluster: string, spec: FeatureRoleSpec, log: Log): Promise<string> =>
  ensureOwnedRole(
    deps.cloud.iam,
    spec,
    { [TAG_MANAGED_BY]: MANAGED_BY_VALUE, [TAG_CLUSTER]: cluster },
    spec.featureId,
    log,
  );

/**
 * Makes every identity feature `id` needs, idempotently (an existing right object is left alone).
 * `config` is the feature's settings (tiered checkpointing's `namespace`). Answers the role ARN of
 * each identity by its registry id. Everything that can be refused (a missing namespace, a missing
 * shared bucket) is checked before the first change.
 */
export async function ensureFeatureIdentities(
  deps: WorkflowDeps,
  facts: FeatureClusterFacts,
  id: FeatureId,
  config: Record<string, unknown>,
  log: Log,
): Promise<ReadonlyMap<string, string>> {
  const identities = featureIdentities(id, config);
  const arns = new Map<string, string>();
  if (identities.length === 0) return arns;
  const base = {
    region: facts.region,
    hyperpodClusterArn: facts.hyperpodClusterArn,
    sharedBucket: facts.sharedBucket,
    tlsBucket: facts.tlsBucket,
  };
  // The permissions first: a missing bucket is refused before anything is made.
  for (const identity of identities) identityPermissionsPolicy(id, identity, base);
  const accounts = identities.flatMap(annotatedServiceAccounts);
  const kube = accounts.length > 0 ? await deps.cloud.kube(facts.region, facts.eksClusterName) : undefined;
  if (kube) await checkNamespaces(kube, id, accounts);

  const oidcProviderArn = identities.some(needsOidcProvider)
    ? await ensureClusterProvider(deps, facts, log)
    : undefined;
  for (const identity of identities) {
    const spec = featureRoleSpec(facts.clusterName, id, identity, { ...base, oidcProviderArn });
    const arn = await ensureRole(deps, facts.clusterName, spec, log);
    arns.set(identity.id, arn);
    const mine = annotatedServiceAccounts(identity);
    if (kube && mine.length > 0) {
      for (const sa of mine) await annotateServiceAccount(kube, id, sa, arn, log);
      // A namespace setting that changed leaves the old binding behind: release it.
      await releaseServiceAccounts(kube, id, arn, log, mine);
    }
  }
  return arns;
}

/** Deletes role `roleName` when it is ours for the cluster; one that is not is kept and said so. */
async function deleteOurRole(
  deps: WorkflowDeps,
  facts: FeatureClusterFacts,
  roleName: string,
  log: Log,
): Promise<void> {
  const current = await deps.cloud.iam.describeRole(roleName);
  if (!current) return;
  if (!isOurs(current.tags, facts.clusterName)) {
    log(`Kept IAM role ${roleName}: InstantStart did not make it for cluster ${facts.clusterName}`);
    return;
  }
  await deps.cloud.iam.delete(roleName, log);
}

/**
 * Deletes the roles feature `id`'s identities had under a former name (the inference execution role
 * was `instantstart-<cluster>-inference-exec`, a name its managed policy may not pass), when
 * InstantStart made them. Called once what used the old role has been pointed at the new one.
 */
export async function removeFormerRoles(
  deps: WorkflowDeps,
  facts: FeatureClusterFacts,
  id: FeatureId,
  config: Record<string, unknown>,
  log: Log,
): Promise<void> {
  for (const identity of featureIdentities(id, config)) {
    const former = formerFeatureRoleName(facts.clusterName, identity);
    if (!former) continue;
    if (!(await deps.cloud.iam.describeRole(former))) continue;
    log(`IAM role ${former} is the former name of ${featureRoleName(facts.clusterName, facts.region, identity)}`);
    await deleteOurRole(deps, facts, former, log);
  }
}

/**
 * Removes exactly what ensureFeatureIdentities made for feature `id` (and a role it made under a
 * former name): never an object it did not make, and the OIDC provider only when nothing else trusts it.
 */
export async function removeFeatureIdentities(
  deps: WorkflowDeps,
  facts: FeatureClusterFacts,
  id: FeatureId,
  config: Record<string, unknown>,
  log: Log,
): Promise<void> {
  const identities = featureIdentities(id, config);
  if (identities.length === 0) return;
  const accountId = await deps.cloud.accountId();
  for (const identity of [...identities].reverse()) {
    const roleName = featureRoleName(facts.clusterName, facts.region, identity);
    if (annotatedServiceAccounts(identity).length > 0) {
      const kube = await deps.cloud.kube(facts.region, facts.eksClusterName);
      await releaseServiceAccounts(kube, id, roleArnOf(accountId, roleName), log);
    }
    await deleteOurRole(deps, facts, roleName, log);
  }
  await removeFormerRoles(deps, facts, id, config, log);
  if (identities.some(needsOidcProvider)) await releaseClusterProvider(deps, facts, log);
}

/** What exists now of feature `id`'s identities (read from IAM and Kubernetes). */
export async function featureIdentityStates(
  deps: WorkflowDeps,
  facts: FeatureClusterFacts,
  id: FeatureId,
  config: Record<string, unknown>,
): Promise<FeatureIdentityState[]> {
  const identities = featureIdentities(id, config);
  if (identities.length === 0) return [];
  const irsa = identities.some(needsOidcProvider);
  const issuer = irsa ? await clusterIssuer(deps, facts) : undefined;
  const provider = issuer ? await findClusterProvider(deps, issuer) : undefined;
  const states: FeatureIdentityState[] = [];
  for (const identity of identities) {
    const roleName = featureRoleName(facts.clusterName, facts.region, identity);
    const role = await deps.cloud.iam.describeRole(roleName);
    const base = { identity: identity.id, title: identity.title, roleName, ...(role ? { roleArn: role.arn } : {}) };
    if (!role || !isOurs(role.tags, facts.clusterName)) {
      const former = formerFeatureRoleName(facts.clusterName, identity);
      const formerRole = !role && former ? await deps.cloud.iam.describeRole(former) : undefined;
      const detail = role
        ? `IAM role ${roleName} exists but was not made by InstantStart for this cluster`
        : formerRole
          ? `IAM role ${roleName} missing; the role has its former name ${former}, which ${identity.roleNamePrefix}* policies may not pass: turn the feature on again to move to ${roleName}`
          : `IAM role ${roleName} missing`;
      states.push({ ...base, present: false, detail });
      continue;
    }
    const gaps: string[] = [];
    if (needsOidcProvider(identity) && !provider) gaps.push("the cluster's IAM OIDC provider is missing");
    const accounts = annotatedServiceAccounts(identity);
    if (accounts.length > 0) {
      const kube = await deps.cloud.kube(facts.region, facts.eksClusterName);
      for (const sa of accounts) {
        const found = await kube.find(SERVICE_ACCOUNT, sa.serviceAccount, sa.namespace);
        if (found?.metadata.annotations?.[ROLE_ARN_ANNOTATION] !== role.arn)
          gaps.push(
            `service account ${sa.namespace}/${sa.serviceAccount} ${found ? 'does not name the role' : 'missing'}`,
          );
      }
    }
    const made = [
      `IAM role ${roleName}`,
      ...(provider && needsOidcProvider(identity)
        ? [
            `OIDC provider ${provider.url}${isOurProvider(provider, facts.clusterName) ? '' : ' (not made by InstantStart)'}`,
          ]
        : []),
    ];
    if (accounts.length > 0) made.push(...accounts.map((sa) => `service account ${sa.namespace}/${sa.serviceAccount}`));
    states.push({
      ...base,
      present: gaps.length === 0,
      detail: gaps.length ? gaps.join('; ') : `${made.join(', ')} present`,
    });
  }
  return states;
}
