import type { StoredCluster, StoredNode } from './state.js';

/**
 * The batch node operations take instance ids and/or logical ids and answer per identifier. This
 * resolves each (once, in request order) to the node it names, or to nothing.
 */
export interface Resolved {
  by: 'instance' | 'logical';
  id: string;
  node: StoredNode | undefined;
}

export function resolveNodes(cluster: StoredCluster, nodeIds: string[] = [], logicalIds: string[] = []): Resolved[] {
  const out: Resolved[] = [];
  for (const id of new Set(nodeIds))
    out.push({ by: 'instance', id, node: cluster.nodes.find((n) => n.instanceId === id) });
  for (const id of new Set(logicalIds))
    out.push({ by: 'logical', id, node: cluster.nodes.find((n) => n.nodeLogicalId === id) });
  return out;
}

/** Splits per-identifier results into the Successful / Failed members of the four batch responses. */
export function batchResponse(
  results: { r: Resolved; error?: { code: string; message: string } }[],
  errorCodeKey: 'Code' | 'ErrorCode',
  asked: { nodeIds: boolean; logicalIds: boolean },
) {
  const byInstance = results.filter((x) => x.r.by === 'instance');
  const byLogical = results.filter((x) => x.r.by === 'logical');
  return {
    ...(asked.nodeIds
      ? {
          Successful: byInstance.filter((x) => !x.error).map((x) => x.r.id),
          Failed: byInstance
            .filter((x) => x.error)
            .map((x) => ({ NodeId: x.r.id, [errorCodeKey]: x.error!.code, Message: x.error!.message })),
        }
      : {}),
    ...(asked.logicalIds
      ? {
          SuccessfulNodeLogicalIds: byLogical.filter((x) => !x.error).map((x) => x.r.id),
          FailedNodeLogicalIds: byLogical
            .filter((x) => x.error)
            .map((x) => ({ NodeLogicalId: x.r.id, [errorCodeKey]: x.error!.code, Message: x.error!.message })),
        }
      : {}),
  };
}
