import { PreconditionError } from '../errors.js';
import { clusterTags } from '../naming.js';
import type { FeatureId } from '../schemas/features.js';
import type { PolicyDocument, PolicyStatement } from './policy-document.js';
import { publishedPolicy } from './published-policies.js';
import { featureDefinition, featureRoleName } from './registry.js';
import type { FeatureIdentity, IdentityBinding, PermissionGrant } from './types.js';

/**
 * What a feature's IAM identity is, as IAM documents: the role's trust policy from its bindings and
 * its least-privilege inline policy from its permission sketches (registry.ts → identities). Pure:
 * the workflow (src/workflows/feature-identities.ts) reads the cluster's facts, calls these and
 * compares the answer with what IAM holds.
 */

/** The audience IRSA tokens carry and the client id the cluster's IAM OIDC provider must list. */
export const IRSA_AUDIENCE = 'sts.amazonaws.com';
/** EKS Pod Identity assumes roles as this service, with a tagged session. */
export const POD_IDENTITY_SERVICE = 'pods.eks.amazonaws.com';
export const POD_IDENTITY_ACTIONS = ['sts:AssumeRole', 'sts:TagSession'];
/**
 * The prefix of the shared bucket the checkpointing identity may write: training code passes
 * `s3://<shared bucket>/checkpoints/<run>` as the checkpoint library's `s3_tier_base_path`.
 */
export const CHECKPOINT_PREFIX = 'checkpoints/';
/** The one inline policy of a feature's role (its permission sketches, or a vendored published policy). */
export const FEATURE_POLICY_NAME = 'instantstart-permissions';
/** The tag naming the feature a role was made for (with the cluster tags every role of ours carries). */
export const TAG_FEATURE = 'instantstart.io/feature';

/** The cluster facts a role's documents are built from. */
export interface IdentityFacts {
  /** The cluster's Region (a role name that must be unique per Region carries a hash of it). */
  region: string;
  hyperpodClusterArn: string;
  /** The cluster's IAM OIDC provider: needed when an identity has an IRSA binding. */
  oidcProviderArn?: string;
  sharedBucket?: string;
  tlsBucket?: string;
}

/** A feature's role as IAM should hold it. */
export interface FeatureRoleSpec {
  featureId: FeatureId;
  identityId: string;
  roleName: string;
  description: string;
  trustPolicy: PolicyDocument;
  managedPolicyArns: string[];
  /** The inline policy (named FEATURE_POLICY_NAME), absent when the identity's permissions are all managed policies. */
  inlinePolicy?: PolicyDocument;
  tags: Record<string, string>;
}

/** `https://oidc.eks.<region>.amazonaws.com/id/<ID>` → `oidc.eks.<region>.amazonaws.com/id/<ID>`: how IAM names the provider and its condition keys. */
export const issuerHostPath = (issuerUrl: string): string => issuerUrl.replace(/^https:\/\//, '').replace(/\/+$/, '');

export const oidcProviderArnFor = (accountId: string, issuerUrl: string): string =>
  `arn:aws:iam::${accountId}:oidc-provider/${issuerHostPath(issuerUrl)}`;

/** The issuer host and path an OIDC provider ARN names (the prefix of its condition keys). */
const providerHostPath = (providerArn: string): string =>
  providerArn.replace(/^arn:aws[\w-]*:iam::\d{12}:oidc-provider\//, '');

/**
 * A feature's identities with its settings applied: an annotated IRSA service account lives in the
 * feature's `namespace` setting when it has one (tiered checkpointing's training pods run in the
 * user's namespace), else where the registry says.
 */
export function featureIdentities(id: FeatureId, config: Record<string, unknown>): FeatureIdentity[] {
  const namespace = typeof config.namespace === 'string' && config.namespace ? config.namespace : undefined;
  return featureDefinition(id).identities.map((identity) => ({
    ...identity,
    bindings: identity.bindings.map(
      (b): IdentityBinding => (b.kind === 'irsa' && b.annotate && namespace ? { ...b, namespace } : b),
    ),
  }));
}

export const needsOidcProvider = (identity: FeatureIdentity): boolean =>
  identity.bindings.some((b) => b.kind === 'irsa');

/** The service accounts InstantStart annotates itself for this identity. */
export const annotatedServiceAccounts = (
  identity: FeatureIdentity,
): Array<{ namespace: string; serviceAccount: string }> =>
  identity.bindings.flatMap((b) =>
    b.kind === 'irsa' && b.annotate ? [{ namespace: b.namespace, serviceAccount: b.serviceAccount }] : [],
  );

function trustStatement(
  binding: IdentityBinding,
  oidcProviderArn: string | undefined,
  featureId: FeatureId,
): PolicyStatement {
  if (binding.kind === 'pod-identity')
    return { Effect: 'Allow', Principal: { Service: POD_IDENTITY_SERVICE }, Action: POD_IDENTITY_ACTIONS };
  if (binding.kind === 'service')
    return { Effect: 'Allow', Principal: { Service: binding.service }, Action: 'sts:AssumeRole' };
  if (!oidcProviderArn) throw new Error(`${featureId}: an IRSA trust needs the cluster's IAM OIDC provider`);
  const key = providerHostPath(oidcProviderArn);
  const subject = `system:serviceaccount:${binding.namespace}:${binding.serviceAccount}`;
  // A wildcard subject (an add-on's per-model service accounts) only matches under StringLike.
  const condition: Record<string, Record<string, string>> = subject.includes('*')
    ? { StringLike: { [`${key}:sub`]: subject } }
    : { StringEquals: { [`${key}:sub`]: subject } };
  if (binding.audience) condition.StringEquals = { ...condition.StringEquals, [`${key}:aud`]: IRSA_AUDIENCE };
  return {
    Effect: 'Allow',
    Principal: { Federated: oidcProviderArn },
    Action: 'sts:AssumeRoleWithWebIdentity',
    Condition: condition,
  };
}

/** The role's trust policy: one statement per binding (identical ones once). */
export function identityTrustPolicy(
  featureId: FeatureId,
  identity: FeatureIdentity,
  oidcProviderArn?: string,
): PolicyDocument {
  const statements = identity.bindings.map((b) => trustStatement(b, oidcProviderArn, featureId));
  const unique = statements.filter(
    (s, i) => statements.findIndex((t) => JSON.stringify(t) === JSON.stringify(s)) === i,
  );
  return { Version: '2012-10-17', Statement: unique };
}

function missing(featureId: FeatureId, what: string, remedy: string): PreconditionError {
  return new PreconditionError({
    message: `${featureId} needs ${what}.`,
    problems: [{ path: featureId, message: `needs ${what}` }],
    remedy,
  });
}

function grantResource(
  featureId: FeatureId,
  resource: Extract<PermissionGrant, { resource: string }>['resource'],
  facts: IdentityFacts,
): string {
  const shared = () => {
    if (!facts.sharedBucket)
      throw missing(
        featureId,
        "the cluster's shared S3 bucket",
        'Create the cluster with S3 storage (storage.s3), or add one, before turning this feature on.',
      );
    return `arn:aws:s3:::${facts.sharedBucket}`;
  };
  switch (resource) {
    case 'shared-bucket':
      return shared();
    case 'shared-bucket-objects':
      return `${shared()}/*`;
    case 'shared-bucket-checkpoints':
      return `${shared()}/${CHECKPOINT_PREFIX}*`;
    case 'tls-bucket':
      if (!facts.tlsBucket)
        throw missing(
          featureId,
          'its TLS certificate bucket',
          'The bucket is made before the identities; retry the operation.',
        );
      return `arn:aws:s3:::${facts.tlsBucket}/*`;
    case 'hyperpod-cluster':
      return facts.hyperpodClusterArn;
    case 'any':
      return '*';
  }
}

/** The inline policy of an identity, or undefined when it grants nothing beyond its managed policies. */
export function identityPermissionsPolicy(
  featureId: FeatureId,
  identity: FeatureIdentity,
  facts: IdentityFacts,
): PolicyDocument | undefined {
  const statements = identity.permissions.flatMap((grant): PolicyStatement[] => {
    if ('published' in grant) return publishedPolicy(grant.published, grant.version).Statement;
    if (grant.ifPresent && grant.resource.startsWith('shared-bucket') && !facts.sharedBucket) return [];
    return [{ Effect: 'Allow', Action: [...grant.actions], Resource: grantResource(featureId, grant.resource, facts) }];
  });
  return statements.length > 0 ? { Version: '2012-10-17', Statement: statements } : undefined;
}

/**
 * The role of one identity of a feature on a cluster, as IAM should hold it.
 *
 * @example
 * featureRoleSpec('demo', 'tiered-checkpointing', featureIdentities('tiered-checkpointing', {})[0]!, facts).roleName
 * // 'instantstart-demo-checkpointing'
 * featureRoleSpec('demo', 'inference-operator', featureIdentities('inference-operator', {})[0]!, facts).roleName
 * // 'SageMakerHyperPodInference-demo-<hash>'
 */
export function featureRoleSpec(
  cluster: string,
  featureId: FeatureId,
  identity: FeatureIdentity,
  facts: IdentityFacts,
): FeatureRoleSpec {
  const inlinePolicy = identityPermissionsPolicy(featureId, identity, facts);
  const { Name: _name, ...tags } = clusterTags(cluster, 'role');
  return {
    featureId,
    identityId: identity.id,
    roleName: featureRoleName(cluster, facts.region, identity),
    description: `${identity.title} of ${cluster} (InstantStart feature ${featureId})`,
    trustPolicy: identityTrustPolicy(featureId, identity, facts.oidcProviderArn),
    managedPolicyArns: [...identity.managedPolicies],
    ...(inlinePolicy ? { inlinePolicy } : {}),
    tags: { ...tags, [TAG_FEATURE]: featureId },
  };
}
