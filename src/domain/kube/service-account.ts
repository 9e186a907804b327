import type { KubeObject } from '../kube-object.js';
import { health, kubeKind, MANAGED_BY, parseBase, type KubeHealth, type KubeResource } from './kind.js';

/** ServiceAccount: the identity of an agent InstantStart installs (pod identity maps it to an IAM role). */

export type KubeServiceAccount = KubeResource;

export const parseServiceAccount = (raw: unknown): KubeServiceAccount =>
  parseBase(raw, { apiVersion: 'v1', kind: 'ServiceAccount' });

export const SERVICE_ACCOUNT = kubeKind<KubeServiceAccount>(
  { apiVersion: 'v1', kind: 'ServiceAccount', plural: 'serviceaccounts', namespaced: true },
  parseServiceAccount,
);

export const serviceAccountManifest = (namespace: string, name: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ServiceAccount',
  metadata: { name, namespace },
});

/** A service account has no status: it exists or it does not. */
export const serviceAccountHealth = (sa: KubeServiceAccount): KubeHealth =>
  health('healthy', 'present', `ServiceAccount ${sa.metadata.namespace ?? ''}/${sa.metadata.name} exists.`);

/** The annotation EKS's pod identity webhook reads to give a service account's pods an IAM role (IRSA). */
export const ROLE_ARN_ANNOTATION = 'eks.amazonaws.com/role-arn';
/** The label naming the feature a service account was created for (with MANAGED_BY: our ownership marker). */
export const FEATURE_LABEL = 'instantstart.io/feature';

/** A service account InstantStart creates for a feature's identity: ours by its labels, bound to the role by the annotation. */
export const featureServiceAccountManifest = (
  namespace: string,
  name: string,
  featureId: string,
  roleArn: string,
): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ServiceAccount',
  metadata: {
    name,
    namespace,
    labels: { ...MANAGED_BY, [FEATURE_LABEL]: featureId },
    annotations: { [ROLE_ARN_ANNOTATION]: roleArn },
  },
});

/**
 * The annotation alone, applied (server-side apply, our field manager) to a service account someone
 * else made: we then own only that field, and applying the bare name later releases it again.
 */
export const roleAnnotationManifest = (namespace: string, name: string, roleArn: string | undefined): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ServiceAccount',
  metadata: { name, namespace, ...(roleArn ? { annotations: { [ROLE_ARN_ANNOTATION]: roleArn } } : {}) },
});

/** Whether InstantStart created this service account for `featureId`. */
export const isFeatureServiceAccount = (sa: KubeServiceAccount, featureId: string): boolean =>
  sa.metadata.labels?.['app.kubernetes.io/managed-by'] === MANAGED_BY['app.kubernetes.io/managed-by'] &&
  sa.metadata.labels?.[FEATURE_LABEL] === featureId;
