import type { CloudPort } from '../../cloud/ports.js';
import { KubeApiUnavailable, KubeError } from '../../domain/kube/errors.js';
import { PERSISTENT_VOLUME_CLAIM } from '../../domain/kube/persistent-volume-claim.js';
import type { StorageClaim } from '../../domain/schemas/clusters.js';

/** The namespace InstantStart's shared-storage claims live in (src/domain/storage-manifests.ts). */
const CLAIM_NAMESPACE = 'default';

/**
 * The phase of each shared-storage claim, read from the cluster's Kubernetes API (never from our
 * store: Kubernetes tracks it). A claim that is not there is Missing; a cluster whose API cannot be
 * read (not up yet, or refusing us) gives Unknown rather than failing the whole cluster view.
 */
export async function storageClaims(
  cloud: CloudPort,
  region: string,
  eksClusterName: string,
  wanted: ReadonlyArray<{ store: StorageClaim['store']; name: string }>,
): Promise<StorageClaim[]> {
  const unknown = () =>
    wanted.map((w) => ({ claim: `${CLAIM_NAMESPACE}/${w.name}`, store: w.store, phase: 'Unknown' }));
  try {
    const kube = await cloud.kube(region, eksClusterName);
    return await Promise.all(
      wanted.map(async (w) => {
        const pvc = await kube.find(PERSISTENT_VOLUME_CLAIM, w.name, CLAIM_NAMESPACE);
        return {
          claim: `${CLAIM_NAMESPACE}/${w.name}`,
          store: w.store,
          phase: pvc ? pvc.status.phase : 'Missing',
          ...(pvc?.spec.volumeName ? { volumeName: pvc.spec.volumeName } : {}),
        };
      }),
    );
  } catch (err) {
    if (err instanceof KubeApiUnavailable || err instanceof KubeError) return unknown();
    throw err;
  }
}
