import { clusterTarget, clusterUpdateChannel } from '../domain/naming.js';
import type { InputOf, OperationKind } from '../domain/operation-kinds.js';
import { exclusive, shared, type LockClaim, type WorkflowDefinition } from '../engine/workflow.js';

/** A workflow of one of the product's operation kinds: its input is that kind's (domain/operation-kinds.ts). */
export type KindWorkflow<K extends OperationKind, S> = WorkflowDefinition<InputOf<K>, S> & { kind: K };

/**
 * Declares the workflow of an operation kind: the kind's input type (from its schema in
 * src/domain/operation-kinds.ts) is the phases' `ctx.input`, so a workflow cannot disagree with what
 * `start(kind, input)` accepts, and a kind missing from the map does not compile.
 *
 * The state type comes from the declared return type (NoInfer: `initialState: () => ({})` must not
 * make it `{}`).
 *
 * @example
 * export function deleteGroupWorkflow(deps: WorkflowDeps): KindWorkflow<'delete-instance-group', Empty> {
 *   return defineWorkflow('delete-instance-group', { target: …, locks: …, initialState: () => ({}), phases:
 * [deleteGroupPhase(deps)] });
 * }
 */
export function defineWorkflow<K extends OperationKind, S>(
  kind: K,
  definition: Omit<WorkflowDefinition<InputOf<K>, NoInfer<S>>, 'kind'>,
): KindWorkflow<K, S> {
  return { kind, ...definition };
}

/** A create or delete of a cluster holds the cluster alone: nothing else may change it meanwhile. */
export function wholeClusterLocks(region: string, cluster: string): LockClaim[] {
  return [exclusive(clusterTarget(region, cluster))];
}

/**
 * A change of a cluster's groups or settings holds the cluster shared (it is neither created nor
 * deleted meanwhile; changes of other clusters run freely) and its UpdateCluster channel alone (one
 * change of the cluster at a time: naming.ts, clusterUpdateChannel).
 */
export function clusterChangeLocks(region: string, cluster: string): LockClaim[] {
  return [shared(clusterTarget(region, cluster)), exclusive(clusterUpdateChannel(region, cluster))];
}
