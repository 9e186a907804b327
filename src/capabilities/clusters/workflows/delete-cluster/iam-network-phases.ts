import { CloudError } from '../../../../domain/errors.js';
import { IAM_ROLE } from '../../../../workflows/cluster-resources.js';
import type { WorkflowDeps } from '../../../../workflows/context.js';
import { clusterOwnedRoles } from '../../../../workflows/cluster-owned-roles.js';
import { isOurProvider, releaseClusterProvider } from '../../../../workflows/feature-oidc-provider.js';
import { type Ctx, names, type Phase, toRemove } from './types.js';

// What goes once the clusters are gone: the IAM roles (and the OIDC provider) they acted with, then the
// network they ran in — which waits for the network interfaces the clusters and file systems release.

export function iamPhase(deps: WorkflowDeps): Phase {
  // The roles of fixed names and the MLflow job roles, and every other role tagged with the cluster (an
  // MLflow server's role made for the cluster, a feature identity).
  const roles = async (ctx: Ctx) => {
    const n = await names(deps, ctx);
    const tagged = (await toRemove(deps, ctx, ['iam'])).filter((r) => r.kind === IAM_ROLE).map((r) => r.id);
    return [...new Set([...(await clusterOwnedRoles(deps.cloud.iam, ctx.input.name, n)), ...tagged])];
  };
  return {
    name: 'iam',
    title: 'Delete IAM roles',
    expectedSeconds: 20,
    deadline: { actSeconds: 300, waitSeconds: 300 }, // IAM calls
    onFailure: 'continue',
    async observe(ctx) {
      for (const r of await roles(ctx)) if (await deps.cloud.iam.find(r)) return 'needs-act';
      // The IAM OIDC provider a feature's IRSA identity made for this cluster's issuer goes with its roles.
      if ((await deps.cloud.oidcProviders.list()).some((p) => isOurProvider(p, ctx.input.name))) return 'needs-act';
      return 'done';
    },
    async act(ctx) {
      const log = (m: string) => ctx.log(m);
      for (const r of await roles(ctx)) await deps.cloud.iam.delete(r, log);
      const n = await names(deps, ctx);
      await releaseClusterProvider(
        deps,
        { clusterName: ctx.input.name, region: ctx.input.region, eksClusterName: n.eksCluster },
        log,
      );
    },
  };
}

export function networkPhase(deps: WorkflowDeps): Phase {
  return {
    name: 'network',
    title: 'Delete the network (NAT gateway, subnets, gateways, VPC)',
    expectedSeconds: 120,
    deadline: { actSeconds: 900, waitSeconds: 3600 }, // the NAT gateway's delete, and ENIs that EKS and load balancers release late
    onFailure: 'continue',
    async observe(ctx) {
      const net = await deps.cloud.network.find(ctx.input.region, ctx.input.name);
      return net.vpcId || net.allocationId || net.internetGatewayId ? 'needs-act' : 'done';
    },
    async act(ctx) {
      await deps.cloud.teardown.startTeardown(ctx.input.region, ctx.input.name, (m) => ctx.log(m));
    },
    pollKey: (ctx) => `ec2:${ctx.input.region}:teardown:${ctx.input.name}`,
    // Deleting is idempotent ("already gone" is success), so finishing the teardown while polling is safe.
    async await(ctx) {
      const left = await deps.cloud.teardown.finishTeardown(ctx.input.region, ctx.input.name, (m) => ctx.log(m));
      if (left.length === 0) return { done: true, progress: 'network gone' };
      const heldBy = await networkHeldByFailedPhase(deps, ctx, left);
      if (heldBy)
        throw new CloudError({
          service: 'ec2',
          operation: 'DeleteSubnet',
          code: 'DependencyViolation',
          message: `${left.join(', ')} cannot be deleted: ${heldBy}`,
        });
      return { done: false, progress: `waiting for ${left.join(', ')}` };
    },
  };
}

/**
 * Why the rest of the network cannot go in this run, or undefined while it can still go on its own.
 * Subnets wait for the network interfaces in them to leave; when an earlier phase failed, what it
 * should have removed (HyperPod nodes, the EKS control plane, FSx, a load balancer) keeps its
 * interfaces for good, so the phase stops waiting — but only after the NAT gateway and its address are
 * gone: they cost money. So do a load balancer's when phase load-balancers found no Kubernetes API to
 * delete it through (the EKS cluster was deleted first, outside InstantStart): it was orphaned then.
 */
async function networkHeldByFailedPhase(deps: WorkflowDeps, ctx: Ctx, left: string[]): Promise<string | undefined> {
  const failures = ctx.earlierFailures;
  const unchecked = ctx.state.loadBalancersUnchecked;
  if (failures.length === 0 && !unchecked) return undefined;
  const { region, name } = ctx.input;
  const net = await deps.cloud.network.find(region, name);
  if (net.natGatewayId || net.allocationId) return undefined;
  const holders: string[] = [];
  if (failures.length) holders.push(...(await clusterHolders(deps, ctx)));
  // A load balancer outlives the cluster whose Service or Ingress made it: its interfaces (described `ELB net/…`,
  // `ELB app/…`, `ELB <name>`) stay until it is deleted by hand.
  const orphaned = left.filter((l) => l.includes('"ELB '));
  if (orphaned.length)
    holders.push(
      `load balancers that the cluster's Kubernetes Services or Ingresses made still have network interfaces in them (${orphaned.join('; ')}): delete them (aws elbv2 delete-load-balancer, or aws elb delete-load-balancer for a Classic one), then retry`,
    );
  if (holders.length === 0) return undefined;
  const why = [
    ...failures.map((f) => `phase '${f.phase}' failed (${f.code})`),
    ...(unchecked ? [`phase 'load-balancers' could not reach the cluster's Kubernetes API (${unchecked})`] : []),
  ];
  return `${holders.join('; ')}, because ${why.join(' and ')}.`;
}

/** The clusters and file system of the cluster still holding interfaces in its subnets (not being deleted). */
async function clusterHolders(deps: WorkflowDeps, ctx: Ctx): Promise<string[]> {
  const { region, name } = ctx.input;
  const n = await names(deps, ctx);
  const holders: string[] = [];
  const hp = await deps.cloud.hyperpod.describe(region, n.hyperpodCluster);
  if (hp && hp.ClusterStatus !== 'Deleting')
    holders.push(`HyperPod cluster ${n.hyperpodCluster} (${hp.ClusterStatus}) still has nodes in them`);
  const eks = await deps.cloud.eks.describeCluster(region, n.eksCluster);
  if (eks && eks.status !== 'DELETING')
    holders.push(`EKS cluster ${n.eksCluster} (${eks.status}) still has network interfaces in them`);
  const fs = await deps.cloud.storage.findFileSystem(region, name);
  if (fs && fs.Lifecycle !== 'DELETING')
    holders.push(`FSx file system ${fs.FileSystemId} (${fs.Lifecycle}) still has network interfaces in them`);
  return holders;
}
