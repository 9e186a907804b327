import type { HyperPodNode } from '../../../cloud/ports.js';
import type { NodeActionName, NodeOutcome } from '../../../domain/schemas/nodes.js';

/**
 * Where each node of a node-action operation stands, and how what HyperPod reports
 * (ListClusterNodes: InstanceId, NodeLogicalId, InstanceStatus) moves it on. Pure: the workflow
 * reads the nodes, these rules judge them.
 */

/** asked → sent (journaled before the call) → accepted (HyperPod took it) → succeeded | failed. */
export type NodeStep = 'asked' | 'sent' | 'accepted' | 'succeeded' | 'failed';

export interface NodeTrack {
  nodeId: string;
  step: NodeStep;
  /** HyperPod's id of the node's slot, read before the call: a replaced node keeps it under a new instance id. */
  logicalId?: string;
  /** Seen in a state other than Running since it was accepted: the action visibly started. */
  seenBusy?: boolean;
  /** Reads that found it Running without ever having seen it busy (a reboot that ended between two reads). */
  quietReads?: number;
  code?: string;
  message?: string;
  newInstanceId?: string;
}

export interface NodeActionState {
  nodes: NodeTrack[];
}

/** Reads of Running with no busy state seen that count as done: HyperPod flips a node's status within one read of accepting. */
export const QUIET_READS_DONE = 3;

/** One read of a cluster's nodes, by instance id and by logical id. */
export interface ObservedNodes {
  byId: Map<string, HyperPodNode>;
  byLogicalId: Map<string, HyperPodNode>;
}

export function observed(summaries: readonly HyperPodNode[]): ObservedNodes {
  const byId = new Map<string, HyperPodNode>();
  const byLogicalId = new Map<string, HyperPodNode>();
  for (const n of summaries) {
    if (n.InstanceId) byId.set(n.InstanceId, n);
    if (n.NodeLogicalId) byLogicalId.set(n.NodeLogicalId, n);
  }
  return { byId, byLogicalId };
}

const statusOf = (n: HyperPodNode | undefined) => n?.InstanceStatus?.Status;
const failed = (t: NodeTrack, code: string, message: string): NodeTrack => ({ ...t, step: 'failed', code, message });

/**
 * After a crash between "sent" and HyperPod's answer: is the action already under way for this
 * node? Then it is accepted without asking again (observe before act: a node already rebooting is
 * not rebooted twice). A reboot that already ended cannot be told from one never asked: that node
 * is asked again.
 */
export function underWay(action: NodeActionName, t: NodeTrack, seen: ObservedNodes): boolean {
  const node = seen.byId.get(t.nodeId);
  switch (action) {
    case 'reboot':
      return node !== undefined && statusOf(node) !== 'Running';
    case 'replace':
      return node === undefined
        ? t.logicalId !== undefined && seen.byLogicalId.has(t.logicalId)
        : statusOf(node) !== 'Running';
    case 'delete':
      return node === undefined || statusOf(node) === 'ShuttingDown';
    case 'deep-health-check':
      return statusOf(node) === 'DeepHealthCheckInProgress';
  }
}

/** Moves an accepted node on from one read; any other node is returned as it is. */
export function judge(action: NodeActionName, t: NodeTrack, seen: ObservedNodes): NodeTrack {
  if (t.step !== 'accepted') return t;
  const node = seen.byId.get(t.nodeId);
  const slot = t.logicalId ? seen.byLogicalId.get(t.logicalId) : undefined;
  const status = statusOf(node);
  const said = node?.InstanceStatus?.Message ? `: ${node.InstanceStatus.Message}` : '';

  if (action === 'delete') {
    if (!node) return { ...t, step: 'succeeded' };
    if (status === 'Failure') return failed(t, 'Failure', `HyperPod reports the node as Failure${said}`);
    return t;
  }

  if (action === 'replace') {
    const current = slot ?? node;
    if (!current)
      return failed(
        t,
        'NodeGone',
        'The node left the cluster before its replacement ran (its group shrank or was deleted).',
      );
    const currentStatus = statusOf(current);
    const currentSaid = current.InstanceStatus?.Message ? `: ${current.InstanceStatus.Message}` : '';
    if (currentStatus === 'Failure')
      return failed(t, 'Failure', `HyperPod reports the replacement as Failure${currentSaid}`);
    if (current.InstanceId && current.InstanceId !== t.nodeId && currentStatus === 'Running')
      return { ...t, step: 'succeeded', newInstanceId: current.InstanceId };
    return t;
  }

  // reboot and deep health checks: the same instance comes back Running.
  if (!node) {
    const now = slot?.InstanceId ? ` (the slot now runs ${slot.InstanceId})` : '';
    const why =
      action === 'reboot'
        ? 'The node left the cluster during the reboot'
        : 'The node left the cluster during the checks: HyperPod replaces a node whose checks fail';
    return failed(t, action === 'reboot' ? 'NodeGone' : 'DeepHealthCheckFailed', `${why}${now}.`);
  }
  if (status === 'Failure')
    return failed(
      t,
      action === 'reboot' ? 'Failure' : 'DeepHealthCheckFailed',
      `HyperPod reports the node as Failure${said}`,
    );
  if (status !== 'Running') return { ...t, seenBusy: true };
  if (t.seenBusy || (t.quietReads ?? 0) + 1 >= QUIET_READS_DONE) return { ...t, step: 'succeeded' };
  return { ...t, quietReads: (t.quietReads ?? 0) + 1 };
}

/** The per-node results, in the order asked. */
export function outcomes(nodes: readonly NodeTrack[]): NodeOutcome[] {
  return nodes.map((t) => ({
    nodeId: t.nodeId,
    outcome: t.step === 'succeeded' ? 'succeeded' : 'failed',
    ...(t.step === 'succeeded'
      ? {}
      : { code: t.code ?? 'Unfinished', message: t.message ?? 'The operation ended before this node did.' }),
    ...(t.newInstanceId ? { newInstanceId: t.newInstanceId } : {}),
  }));
}

/** One line for the progress panel: how many are done, how many failed, which one is awaited. */
export function progressLine(action: NodeActionName, nodes: readonly NodeTrack[], seen: ObservedNodes): string {
  const done = nodes.filter((t) => t.step === 'succeeded').length;
  const bad = nodes.filter((t) => t.step === 'failed').length;
  const waiting = nodes.filter((t) => t.step === 'accepted');
  const first = waiting[0];
  const node = first
    ? (seen.byId.get(first.nodeId) ?? (first.logicalId ? seen.byLogicalId.get(first.logicalId) : undefined))
    : undefined;
  const where = first
    ? `; waiting for ${first.nodeId}${node ? ` (${statusOf(node) ?? 'unknown'}${node.InstanceStatus?.Message ? `: ${node.InstanceStatus.Message}` : ''})` : ''}`
    : '';
  return `${action}: ${done} of ${nodes.length} done, ${bad} failed${where}`;
}
