import { isKept, teardownPlan, type FoundResource } from '../../../../domain/cluster-teardown.js';
import { resourceNames } from '../../../../domain/naming.js';
import type { DeleteClusterInput, DeletePlanItem } from '../../../../domain/schemas/clusters.js';
import type { TaggedResource } from '../../../../cloud/ports.js';
import type { PhaseContext, PhaseDefinition } from '../../../../engine/workflow.js';
import { clusterResources } from '../../../../workflows/cluster-resources.js';
import type { WorkflowDeps } from '../../../../workflows/context.js';

// What every phase of delete-cluster shares: its input and state, the cluster's resource names, and which
// of the cluster's resources are to go (all of them but what the delete said it keeps).

/** The stored input (its schema is in src/domain/schemas/clusters.ts). */
export type { DeleteClusterInput };
export interface DeleteClusterState {
  accountId?: string;
  /** Why phase load-balancers could not ask the cluster's Kubernetes API (no EKS cluster, or not ACTIVE): any load balancer left then is orphaned. */
  loadBalancersUnchecked?: string;
}
export type Ctx = PhaseContext<DeleteClusterInput, DeleteClusterState>;
export type Phase = PhaseDefinition<DeleteClusterInput, DeleteClusterState>;

/** The cluster's resource names (the account id is read once, then kept in the state). */
export async function names(deps: WorkflowDeps, ctx: Ctx) {
  let accountId = ctx.state.accountId;
  if (!accountId) {
    accountId = await deps.cloud.accountId();
    ctx.setState({ accountId });
  }
  return resourceNames(ctx.input.name, accountId, ctx.input.region);
}

/** What the delete said it keeps (an operation journaled before it said so: what keepStorage kept then). */
export function keepsOf(ctx: Ctx, found: readonly FoundResource[]): DeletePlanItem[] {
  return ctx.input.keeps ?? teardownPlan({ keepStorage: ctx.input.keepStorage, found, kept: [], mounted: [] }).keeps;
}

/** The cluster's resources of some services, less what the delete keeps. */
export async function toRemove(
  deps: WorkflowDeps,
  ctx: Ctx,
  services: ReadonlyArray<TaggedResource['service']>,
): Promise<FoundResource[]> {
  const found = await clusterResources(deps.cloud, ctx.input.region, ctx.input.name, await names(deps, ctx), services);
  const keeps = keepsOf(ctx, found);
  return found.filter((r) => !isKept(keeps, r));
}
