import type { KubePort } from '../cloud/ports.js';
import { ConflictError, PreconditionError } from '../domain/errors.js';
import type { FeatureId } from '../domain/schemas/features.js';
import { NAMESPACE } from '../domain/kube/namespace.js';
import {
  featureServiceAccountManifest,
  isFeatureServiceAccount,
  ROLE_ARN_ANNOTATION,
  roleAnnotationManifest,
  SERVICE_ACCOUNT,
  type KubeServiceAccount,
} from '../domain/kube/service-account.js';

/**
 * The Kubernetes half of an IRSA identity: the `eks.amazonaws.com/role-arn` annotation on the
 * service account its pods run as. Ownership markers: a service account we create carries the labels
 * `app.kubernetes.io/managed-by=instantstart` and `instantstart.io/feature=<feature>` (we delete it
 * on removal); on one that existed before, we own only the annotation (server-side apply under the
 * field manager `instantstart`), and removal releases just that field.
 */

export interface ServiceAccountRef {
  namespace: string;
  serviceAccount: string;
}

const where = (sa: ServiceAccountRef) => `${sa.namespace}/${sa.serviceAccount}`;

/** Refuses (before anything is changed) when a service account's namespace does not exist: we never create namespaces. */
export async function checkNamespaces(
  kube: KubePort,
  featureId: FeatureId,
  accounts: readonly ServiceAccountRef[],
): Promise<void> {
  for (const ns of new Set(accounts.map((a) => a.namespace))) {
    if (await kube.find(NAMESPACE, ns)) continue;
    const message = `namespace '${ns}' does not exist in the cluster; create it (kubectl create namespace ${ns}) or choose another`;
    throw new PreconditionError({
      message: `${featureId}.namespace: ${message}.`,
      problems: [{ path: `${featureId}.namespace`, message }],
      remedy: `kubectl create namespace ${ns}`,
    });
  }
}

/** Puts the role on the service account, creating the account when it does not exist; a no-op when it already names the role. */
export async function annotateServiceAccount(
  kube: KubePort,
  featureId: FeatureId,
  sa: ServiceAccountRef,
  roleArn: string,
  log: (m: string) => void,
): Promise<void> {
  const current = await kube.find(SERVICE_ACCOUNT, sa.serviceAccount, sa.namespace);
  if (!current) {
    await kube.apply(
      SERVICE_ACCOUNT,
      featureServiceAccountManifest(sa.namespace, sa.serviceAccount, featureId, roleArn),
    );
    log(`Created service account ${where(sa)} with ${ROLE_ARN_ANNOTATION}=${roleArn}`);
    return;
  }
  const named = current.metadata.annotations?.[ROLE_ARN_ANNOTATION];
  if (named === roleArn) return;
  if (isFeatureServiceAccount(current, featureId)) {
    // Ours: apply the whole manifest again (applying less would drop our labels).
    await kube.apply(
      SERVICE_ACCOUNT,
      featureServiceAccountManifest(sa.namespace, sa.serviceAccount, featureId, roleArn),
    );
  } else {
    if (named) {
      throw new ConflictError({
        message: `Service account ${where(sa)} already names another role (${ROLE_ARN_ANNOTATION}=${named}); InstantStart does not take over a service account bound to someone else's role. Remove that annotation or choose another namespace.`,
        field: `${featureId}.namespace`,
      });
    }
    await kube.apply(SERVICE_ACCOUNT, roleAnnotationManifest(sa.namespace, sa.serviceAccount, roleArn));
  }
  log(`Annotated service account ${where(sa)} with ${ROLE_ARN_ANNOTATION}=${roleArn}`);
}

/**
 * Undoes annotateServiceAccount for every service account bound to `roleArn` or created by us for
 * the feature, except those in `keep` (ensure moves the binding when the feature's namespace changes).
 */
export async function releaseServiceAccounts(
  kube: KubePort,
  featureId: FeatureId,
  roleArn: string,
  log: (m: string) => void,
  keep: readonly ServiceAccountRef[] = [],
): Promise<void> {
  const kept = new Set(keep.map(where));
  const bound = (await kube.list(SERVICE_ACCOUNT)).filter(
    (sa) =>
      !kept.has(`${sa.metadata.namespace}/${sa.metadata.name}`) &&
      (isFeatureServiceAccount(sa, featureId) || sa.metadata.annotations?.[ROLE_ARN_ANNOTATION] === roleArn),
  );
  for (const sa of bound) await releaseOne(kube, featureId, sa, roleArn, log);
}

async function releaseOne(
  kube: KubePort,
  featureId: FeatureId,
  sa: KubeServiceAccount,
  roleArn: string,
  log: (m: string) => void,
): Promise<void> {
  const ref = { namespace: sa.metadata.namespace ?? 'default', serviceAccount: sa.metadata.name };
  if (isFeatureServiceAccount(sa, featureId)) {
    if (await kube.delete(SERVICE_ACCOUNT, ref.serviceAccount, ref.namespace))
      log(`Deleted service account ${where(ref)} (made by InstantStart)`);
    return;
  }
  // Applying the bare name drops the fields our manager owned (the annotation) and nothing else.
  const after = await kube.apply(SERVICE_ACCOUNT, roleAnnotationManifest(ref.namespace, ref.serviceAccount, undefined));
  if (after.metadata.annotations?.[ROLE_ARN_ANNOTATION] === roleArn)
    log(`Left ${ROLE_ARN_ANNOTATION} on service account ${where(ref)}: it was set by someone else`);
  else
    log(
      `Removed ${ROLE_ARN_ANNOTATION} from service account ${where(ref)} (the account itself was not made by InstantStart and stays)`,
    );
}
