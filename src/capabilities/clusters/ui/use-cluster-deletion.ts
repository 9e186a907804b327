import type { ClusterDetail, OperationView } from '@kit/api/types.js';
import { useLiveStatus } from '@kit/hooks/live-context.js';
import { parseClusterTarget } from '@kit/lib/format.js';
import { useEffect, useState } from 'react';

export interface ClusterDeletion {
  id: string;
  status: string;
}

const isDeleteOf = (op: OperationView, name: string, region: string | undefined) => {
  if (op.kind !== 'delete-cluster') return false;
  const target = parseClusterTarget(op.target);
  return !!target && target.name === name && (!region || target.region === region);
};

/**
 * The delete of this cluster as the page learns of it: the operation the cluster's own view names
 * (under way when the page loaded), overtaken by whatever the live channel pushes about any
 * delete-cluster of this cluster — the moment it starts and the moment it succeeds, without waiting
 * for the next refetch of the cluster (which, once it is gone, only answers 404).
 */
export function useClusterDeletion(
  name: string,
  region: string | undefined,
  active: ClusterDetail['activeOperation'],
): ClusterDeletion | undefined {
  const { subscribeOperations } = useLiveStatus();
  const [pushed, setPushed] = useState<{ id: string; status: string; updatedAt: string }>();
  useEffect(() => {
    setPushed(undefined);
    return subscribeOperations((op) => {
      if (!isDeleteOf(op, name, region)) return;
      // Events of one operation may arrive out of order; a newer delete replaces an older one.
      setPushed((prev) =>
        prev && prev.id === op.id && prev.updatedAt > op.updatedAt
          ? prev
          : { id: op.id, status: op.status, updatedAt: op.updatedAt },
      );
    });
  }, [subscribeOperations, name, region]);
  if (pushed) return { id: pushed.id, status: pushed.status };
  return active?.kind === 'delete-cluster' ? { id: active.id, status: active.status } : undefined;
}
