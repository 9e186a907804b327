import type { FeatureId } from '../domain/schemas/features.js';
import type { WorkflowDeps } from './context.js';

/**
 * The IAM identities of managed features (src/domain/features/registry.ts → identities), made and
 * removed as exactly the chain the registry states: role, trust policy, inline policy, the cluster's
 * IAM OIDC provider (IRSA), and the service account annotation where the registry says `annotate`.
 *
 * CONTRACT STUB (issue 16): the signatures are fixed; the bodies are being built.
 */

/** The facts of one cluster an identity's trust and permissions are built from. */
export interface FeatureClusterFacts {
  /** InstantStart's cluster name (roles are instantstart-<name>-<suffix>, see featureRoleName). */
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

/**
 * Makes every identity feature `id` needs, idempotently (an existing right object is left alone).
 * `config` is the feature's settings (tiered checkpointing's `namespace`). Answers the role ARN of
 * each identity by its registry id.
 */
export async function ensureFeatureIdentities(
  _deps: WorkflowDeps,
  _facts: FeatureClusterFacts,
  _id: FeatureId,
  _config: Record<string, unknown>,
  _log: (message: string) => void,
): Promise<ReadonlyMap<string, string>> {
  throw new Error('ensureFeatureIdentities is not built yet (issue 16)');
}

/**
 * Removes exactly what ensureFeatureIdentities made for feature `id`: never an object it did not
 * make, and the OIDC provider only when nothing else trusts it.
 */
export async function removeFeatureIdentities(
  _deps: WorkflowDeps,
  _facts: FeatureClusterFacts,
  _id: FeatureId,
  _config: Record<string, unknown>,
  _log: (message: string) => void,
): Promise<void> {
  throw new Error('removeFeatureIdentities is not built yet (issue 16)');
}

/** What exists now of feature `id`'s identities (read from IAM and Kubernetes). */
export async function featureIdentityStates(_deps: WorkflowDeps, _facts: FeatureClusterFacts, _id: FeatureId, _config: Record<string, unknown>): Promise<FeatureIdentityState[]> {
  throw new Error('featureIdentityStates is not built yet (issue 16)');
}
