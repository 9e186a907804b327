import { clusterTarget } from '../../../domain/naming.js';
import { storageTarget } from '../../../domain/storage.js';
import { exclusive, shared, type LockClaim } from '../../../engine/workflow.js';

/**
 * A change of one storage holds the cluster shared (it is neither created nor deleted meanwhile;
 * other changes of it run freely: storage does not go through UpdateCluster) and that storage alone.
 */
export function storageLocks(region: string, cluster: string, namespace: string, name: string): LockClaim[] {
  return [shared(clusterTarget(region, cluster)), exclusive(storageTarget(region, cluster, namespace, name))];
}
