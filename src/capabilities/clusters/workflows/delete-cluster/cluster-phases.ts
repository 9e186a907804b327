import { CloudError } from '../../../../domain/errors.js';
import type { PhaseDeadline } from '../../../../engine/workflow.js';
import type { WorkflowDeps } from '../../../../workflows/context.js';
import { type Ctx, names, type Phase } from './types.js';

// The HyperPod and the EKS cluster: each one resource, deleted and awaited until its describe call no longer
// finds it — the shape removalPhase gives both.

/**
 * A phase that deletes one resource and waits until it is gone: observe finds it (or not), act
 * asks for the deletion, await polls until the describe call no longer finds it. A resource still
 * settling (`settling`, e.g. an EKS cluster still CREATING after a create was cancelled) cannot be
 * deleted yet: the phase awaits it, then observes again and act deletes it.
 */
function removalPhase(spec: {
  name: string;
  title: string;
  expectedSeconds: number;
  deadline: PhaseDeadline;
  pollKey: (ctx: Ctx) => string;
  /** The resource's status, or undefined when it is gone. */
  status: (ctx: Ctx) => Promise<{ status: string; failure?: string } | undefined>;
  deletingStatus: string;
  /** Statuses in which the cloud refuses the deletion until the resource settles. */
  settling?: readonly string[];
  remove: (ctx: Ctx) => Promise<string>;
}): Phase {
  const settling = (status: string) => spec.settling?.includes(status) ?? false;
  return {
    name: spec.name,
    title: spec.title,
    expectedSeconds: spec.expectedSeconds,
    deadline: spec.deadline,
    onFailure: 'continue',
    async observe(ctx) {
      const found = await spec.status(ctx);
      if (!found) return 'done';
      if (settling(found.status)) ctx.log(`${spec.name} is ${found.status}: it is deleted once that ends`);
      return found.status === spec.deletingStatus || settling(found.status) ? 'in-progress' : 'needs-act';
    },
    async act(ctx) {
      ctx.log(await spec.remove(ctx));
    },
    pollKey: spec.pollKey,
    async await(ctx) {
      const found = await spec.status(ctx);
      if (found?.failure)
        throw new CloudError({ service: spec.name, operation: 'Delete', code: 'DeleteFailed', message: found.failure });
      if (!found) return { done: true, progress: `${spec.name} gone` };
      if (settling(found.status))
        return { done: false, progress: `${spec.name} ${found.status}: deleted once that ends` };
      // Settled and not being deleted (it was settling when observed): observe again, and act deletes it.
      if (found.status !== spec.deletingStatus)
        return { done: false, observeAgain: true, progress: `${spec.name} ${found.status}` };
      return { done: false, progress: `${spec.name} ${found.status}` };
    },
  };
}

/** The HyperPod cluster first: its nodes hold network interfaces in our subnets. */
export function hyperpodPhase(deps: WorkflowDeps): Phase {
  return removalPhase({
    name: 'hyperpod',
    title: 'Delete the HyperPod cluster and its nodes',
    expectedSeconds: 300,
    deadline: { actSeconds: 300, waitSeconds: 3600 }, // HyperPod deletes every node first: minutes, longer for big groups
    pollKey: (ctx) => `sagemaker:${ctx.input.region}:cluster:${ctx.input.name}`,
    deletingStatus: 'Deleting',
    async status(ctx) {
      const c = await deps.cloud.hyperpod.describe(ctx.input.region, (await names(deps, ctx)).hyperpodCluster);
      if (!c) return undefined;
      const failed = c.ClusterStatus === 'Failed' && c.FailureMessage && /delet/i.test(c.FailureMessage);
      return {
        status: c.ClusterStatus!,
        ...(failed ? { failure: `HyperPod could not delete ${ctx.input.name}: ${c.FailureMessage}` } : {}),
      };
    },
    async remove(ctx) {
      await deps.cloud.hyperpod.delete(ctx.input.region, (await names(deps, ctx)).hyperpodCluster);
      return `Deleting HyperPod cluster ${ctx.input.name}`;
    },
  });
}

export function eksPhase(deps: WorkflowDeps): Phase {
  return removalPhase({
    name: 'eks',
    title: 'Delete the EKS cluster (and its add-ons)',
    expectedSeconds: 300,
    deadline: { actSeconds: 300, waitSeconds: 2700 }, // an EKS delete (its add-ons first) takes about 10–15 min
    pollKey: (ctx) => `eks:${ctx.input.region}:cluster:${ctx.input.name}`,
    deletingStatus: 'DELETING',
    // EKS refuses DeleteCluster while the cluster is being created or updated (ResourceInUseException).
    settling: ['CREATING', 'UPDATING'],
    async status(ctx) {
      const c = await deps.cloud.eks.describeCluster(ctx.input.region, (await names(deps, ctx)).eksCluster);
      return c ? { status: c.status! } : undefined;
    },
    async remove(ctx) {
      const n = await names(deps, ctx);
      // Its API goes with it: the server's cached client for it must not outlive it.
      deps.cloud.forgetKube(ctx.input.region, n.eksCluster);
      await deps.cloud.eks.deleteCluster(ctx.input.region, n.eksCluster);
      return `Deleting EKS cluster ${n.eksCluster}`;
    },
  });
}
