import { CloudError } from '../../../../domain/errors.js';
import { clusterTarget, resourceNames } from '../../../../domain/naming.js';
import {
  FSX_FILE_SYSTEM,
  isKept,
  S3_BUCKET,
  teardownPlan,
  type FoundResource,
} from '../../../../domain/cluster-teardown.js';
import type { DeleteClusterInput, DeletePlanItem } from '../../../../domain/schemas/clusters.js';
import type { TaggedResource } from '../../../../cloud/ports.js';
import { clusterResources, IAM_ROLE, MLFLOW_SERVER } from '../../../../workflows/cluster-resources.js';
import type { PhaseContext, PhaseDeadline, PhaseDefinition } from '../../../../engine/workflow.js';
import type { WorkflowDeps } from '../../../../workflows/context.js';
import type { ClusterWorkflowDeps } from '../../ports.js';
import { defineWorkflow, wholeClusterLocks, type KindWorkflow } from '../../../../workflows/define.js';
import { clusterOwnedRoles } from '../../../../workflows/cluster-owned-roles.js';
import { isOurProvider, releaseClusterProvider } from '../../../../workflows/feature-oidc-provider.js';

export type { DeleteClusterInput };
export interface DeleteClusterState {
  accountId?: string;
}
type Ctx = PhaseContext<DeleteClusterInput, DeleteClusterState>;
type Phase = PhaseDefinition<DeleteClusterInput, DeleteClusterState>;

async function names(deps: WorkflowDeps, ctx: Ctx) {
  let accountId = ctx.state.accountId;
  if (!accountId) {
    accountId = await deps.cloud.accountId();
    ctx.setState({ accountId });
  }
  return resourceNames(ctx.input.name, accountId, ctx.input.region);
}

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
function hyperpodPhase(deps: WorkflowDeps): Phase {
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

/** What the delete said it keeps (an operation journaled before it said so: what keepStorage kept then). */
function keepsOf(ctx: Ctx, found: readonly FoundResource[]): DeletePlanItem[] {
  return ctx.input.keeps ?? teardownPlan({ keepStorage: ctx.input.keepStorage, found, kept: [], mounted: [] }).keeps;
}

/** The cluster's resources of some services, less what the delete keeps. */
async function toRemove(
  deps: WorkflowDeps,
  ctx: Ctx,
  services: ReadonlyArray<TaggedResource['service']>,
): Promise<FoundResource[]> {
  const found = await clusterResources(deps.cloud, ctx.input.region, ctx.input.name, await names(deps, ctx), services);
  const keeps = keepsOf(ctx, found);
  return found.filter((r) => !isKept(keeps, r));
}

/**
 * The MLflow tracking servers made for the cluster (tagged with it; they bill by the hour), before
 * its storage: a server's artifact store may be in the cluster's bucket. Awaited until gone. A
 * cluster whose default server is one of them is unlinked (before the delete, and again while it is
 * awaited: a resume after a crash between the two finds the servers Deleting and never acts).
 */
function mlflowPhase(deps: ClusterWorkflowDeps): Phase {
  const servers = async (ctx: Ctx) => {
    const found = (await toRemove(deps, ctx, ['sagemaker'])).filter((r) => r.kind === MLFLOW_SERVER);
    for (const s of found)
      if (s.arn)
        for (const l of deps.mlflowLinks.unlinkServer(s.arn))
          ctx.log(`Cluster ${l.cluster} (${l.region}) no longer reports to ${s.id} by default`);
    return found;
  };
  return {
    name: 'mlflow',
    title: 'Delete the MLflow tracking servers made for the cluster',
    expectedSeconds: 120,
    deadline: { actSeconds: 300, waitSeconds: 1800 }, // a tracking server is deleted within minutes
    onFailure: 'continue',
    async observe(ctx) {
      const left = await servers(ctx);
      if (left.length === 0) return 'done';
      return left.every((s) => s.status === 'Deleting') ? 'in-progress' : 'needs-act';
    },
    async act(ctx) {
      for (const s of await servers(ctx)) {
        if (s.status === 'Deleting') continue;
        await deps.cloud.mlflow.deleteTrackingServer(ctx.input.region, s.id);
        ctx.log(`Deleting MLflow tracking server ${s.id}`);
      }
    },
    pollKey: (ctx) => `sagemaker:${ctx.input.region}:mlflow:${ctx.input.name}`,
    async await(ctx) {
      const left = await servers(ctx);
      const failed = left.find((s) => s.status === 'DeleteFailed');
      if (failed)
        throw new CloudError({
          service: 'sagemaker',
          operation: 'DeleteMlflowTrackingServer',
          code: 'DeleteFailed',
          message: `SageMaker could not delete MLflow tracking server ${failed.id}.`,
        });
      if (left.length === 0) return { done: true, progress: 'MLflow tracking servers gone' };
      if (left.some((s) => s.status !== 'Deleting'))
        return { done: false, observeAgain: true, progress: `${left.length} tracking server(s) left` };
      return { done: false, progress: `Deleting ${left.map((s) => s.id).join(', ')}` };
    },
  };
}

/**
 * Every bucket and FSx file system tagged with the cluster — the shared ones, the inference
 * operator's TLS bucket, those add-storage made — less what the delete keeps (storages removed
 * keeping their data; everything with keepStorage). Found by tag, never by the shared bucket's name.
 */
function storagePhase(deps: WorkflowDeps): Phase {
  const data = async (ctx: Ctx) => {
    const left = await toRemove(deps, ctx, ['s3', 'fsx']);
    return {
      buckets: left.filter((r) => r.kind === S3_BUCKET),
      fileSystems: left.filter((r) => r.kind === FSX_FILE_SYSTEM),
    };
  };
  return {
    name: 'storage',
    title: "Delete the cluster's buckets and file systems (but what it keeps)",
    expectedSeconds: 120,
    deadline: { actSeconds: 7200, waitSeconds: 3600 }, // act empties buckets (1,000 objects a call: millions take a while); FSx deletes take minutes
    onFailure: 'continue',
    async observe(ctx) {
      const { buckets, fileSystems } = await data(ctx);
      if (buckets.length === 0 && fileSystems.length === 0) return 'done';
      // FSx refuses DeleteFileSystem while CREATING (a create cancelled while it was made): await it first.
      return buckets.length === 0 && fileSystems.every((f) => f.status === 'DELETING' || f.status === 'CREATING')
        ? 'in-progress'
        : 'needs-act';
    },
    async act(ctx) {
      const { buckets, fileSystems } = await data(ctx);
      for (const b of buckets) await deps.cloud.storage.deleteBucket(ctx.input.region, b.id, (m) => ctx.log(m));
      for (const f of fileSystems) {
        if (f.status === 'DELETING') continue;
        if (f.status === 'CREATING') {
          ctx.log(`FSx file system ${f.id} is still CREATING: it is deleted once that ends`);
          continue;
        }
        await deps.cloud.storage.deleteFileSystem(ctx.input.region, f.id);
        ctx.log(`Deleting FSx file system ${f.id}`);
      }
      for (const k of ctx.input.keeps ?? [])
        if (k.kind === S3_BUCKET || k.kind === FSX_FILE_SYSTEM)
          ctx.log(`Keeping ${k.kind} ${k.name}: ${k.reason ?? 'kept'}`);
    },
    pollKey: (ctx) => `fsx:${ctx.input.region}:teardown:${ctx.input.name}`,
    async await(ctx) {
      const { buckets, fileSystems } = await data(ctx);
      if (buckets.length === 0 && fileSystems.length === 0)
        return { done: true, progress: 'buckets and file systems gone' };
      // A bucket left, or a file system settled (AVAILABLE, FAILED, or CREATING no more): observe again, and act
      // deletes it.
      if (buckets.length || fileSystems.some((f) => f.status !== 'DELETING' && f.status !== 'CREATING')) {
        return { done: false, observeAgain: true, progress: `${buckets.length + fileSystems.length} left` };
      }
      return { done: false, progress: fileSystems.map((f) => `FSx ${f.id} ${f.status}`).join(', ') };
    },
  };
}

function eksPhase(deps: WorkflowDeps): Phase {
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

function iamPhase(deps: WorkflowDeps): Phase {
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

function networkPhase(deps: WorkflowDeps): Phase {
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
      const heldBy = await networkHeldByFailedPhase(deps, ctx);
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
 * should have removed (HyperPod nodes, the EKS control plane, FSx) keeps its interfaces for good, so
 * the phase stops waiting — but only after the NAT gateway and its address are gone: they cost money.
 */
async function networkHeldByFailedPhase(deps: WorkflowDeps, ctx: Ctx): Promise<string | undefined> {
  const failures = ctx.earlierFailures;
  if (failures.length === 0) return undefined;
  const { region, name } = ctx.input;
  const net = await deps.cloud.network.find(region, name);
  if (net.natGatewayId || net.allocationId) return undefined;
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
  if (holders.length === 0) return undefined;
  return `${holders.join('; ')}, because ${failures.map((f) => `phase '${f.phase}' failed (${f.code})`).join(' and ')}.`;
}

/**
 * Ends the saga with the truth: lists every resource of the cluster left in every service (by tag,
 * and the clusters and roles of its fixed names) but what the delete said it keeps, and fails naming
 * them and the failed phases (with their errors) that left them — one message says what and why.
 */
function verifyPhase(deps: ClusterWorkflowDeps): Phase {
  return {
    name: 'verify',
    title: 'Verify nothing of the cluster remains but what it keeps',
    expectedSeconds: 10,
    deadline: { actSeconds: 300, waitSeconds: 300 }, // one tagged-resources read
    verdict: 'Verified: nothing tagged with the cluster remains but what it keeps',
    async observe(ctx) {
      const found = await clusterResources(deps.cloud, ctx.input.region, ctx.input.name, await names(deps, ctx));
      const keeps = keepsOf(ctx, found);
      const left = found
        .filter((r) => !isKept(keeps, r))
        .map((r) => `${r.kind} ${r.id}${r.status ? ` (${r.status})` : ''}`);
      if (left.length) {
        const failures = ctx.earlierFailures;
        const why = failures.length
          ? ` They remain because ${failures.length === 1 ? 'this phase' : 'these phases'} failed: ${failures.map((f) => `'${f.phase}' (${f.code}: ${f.message.replace(/\.$/, '')})`).join('; ')}. Fix the cause, then retry a failed phase: every failed phase runs again, in order, then this check.`
          : " Retry this operation's failed phase, or delete them by hand.";
        throw new CloudError({
          service: 'instantstart',
          operation: 'DeleteCluster',
          code: 'ResourcesRemain',
          message: `These resources of ${ctx.input.name} still exist: ${left.join('; ')}.${why}`,
        });
      }
      const active = deps.activeCluster.get();
      if (active?.name === ctx.input.name && active.region === ctx.input.region) deps.activeCluster.set(undefined);
      // The cluster is gone: so is its default MLflow link (a same-named cluster made later starts unlinked).
      deps.mlflowLinks.setClusterMlflow(ctx.input.region, ctx.input.name, undefined);
      const kept = found.filter((r) => isKept(keeps, r));
      if (kept.length) ctx.log(`Kept as the delete said: ${kept.map((r) => `${r.kind} ${r.id}`).join(', ')}`);
      return 'done';
    },
  };
}

/**
 * delete-cluster: the create in reverse, as a saga. Every step treats "already gone" as success, so
 * a second delete — or a delete after a failed create — is harmless. Every removal goes on past its
 * own failure (onFailure: 'continue'): a HyperPod cluster that cannot be deleted must not leave the
 * EKS cluster, roles and NAT gateway behind. The verify phase then lists what remains and why, and
 * the operation fails; a retry re-runs every failed phase, then verify.
 */
export function deleteClusterWorkflow(deps: ClusterWorkflowDeps): KindWorkflow<'delete-cluster', DeleteClusterState> {
  return defineWorkflow('delete-cluster', {
    target: (input) => clusterTarget(input.region, input.name),
    locks: (input) => wholeClusterLocks(input.region, input.name),
    initialState: () => ({}),
    phases: [
      hyperpodPhase(deps),
      mlflowPhase(deps),
      storagePhase(deps),
      eksPhase(deps),
      iamPhase(deps),
      networkPhase(deps),
      verifyPhase(deps),
    ],
    result: (_state, input) => ({
      clusterName: input.name,
      region: input.region,
      storageKept: input.keepStorage,
      kept: (input.keeps ?? []).map((k) => `${k.kind} ${k.name}`),
    }),
  });
}
