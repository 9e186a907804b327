import { clusterDependencies, type DependencyItem } from '../../../../domain/cluster-dependencies.js';
import { s3CsiDriverRole, trainingOperatorRole } from '../../../../domain/cluster-roles.js';
import { CloudError } from '../../../../domain/errors.js';
import { clusterTags } from '../../../../domain/naming.js';
import type { PhaseContext, PhaseDefinition } from '../../../../engine/workflow.js';
import type { WorkflowDeps } from '../../../../workflows/context.js';
import { namesFor } from './iam-eks-phases.js';
import type { CreateClusterInput, CreateClusterState } from './types.js';

type Ctx = PhaseContext<CreateClusterInput, CreateClusterState>;

const items = (ctx: Ctx) => clusterDependencies({ region: ctx.input.region, s3: ctx.input.storage.s3, fsx: Boolean(ctx.input.storage.fsxLustre) });

/** 'ready' | 'installing' | 'missing' | 'failed' for one item, read from the cluster itself. */
async function itemState(deps: WorkflowDeps, ctx: Ctx, item: DependencyItem): Promise<{ state: 'ready' | 'installing' | 'missing' | 'failed'; detail: string }> {
  const names = await namesFor(deps, ctx);
  if (item.kind === 'eks-addon') {
    const a = await deps.cloud.eks.describeAddon(ctx.input.region, names.eksCluster, item.addonName);
    if (!a) return { state: 'missing', detail: 'not installed' };
    if (a.status === 'ACTIVE' || a.status === 'DEGRADED') return { state: 'ready', detail: `${a.addonVersion} ${a.status}` };
    if (a.status === 'CREATE_FAILED') return { state: 'failed', detail: (a.health?.issues ?? []).map((i) => i.message).join('; ') || 'CREATE_FAILED' };
    return { state: 'installing', detail: a.status ?? 'unknown' };
  }
  const kube = await deps.cloud.kube(ctx.input.region, names.eksCluster);
  for (const obj of item.objects) {
    const found = await kube.read({ apiVersion: obj.apiVersion, kind: obj.kind, name: obj.metadata.name, namespace: obj.metadata.namespace });
    if (!found) return { state: 'missing', detail: `${obj.kind} ${obj.metadata.name} missing` };
  }
  return { state: 'ready', detail: `${item.objects.length} objects present` };
}

async function install(deps: WorkflowDeps, ctx: Ctx, item: DependencyItem): Promise<void> {
  const names = await namesFor(deps, ctx);
  const log = (m: string) => ctx.log(m);
  if (item.kind === 'manifests') {
    const kube = await deps.cloud.kube(ctx.input.region, names.eksCluster);
    await kube.apply(item.objects);
    ctx.log(`${item.title}: applied ${item.objects.map((o) => `${o.kind}/${o.metadata.name}`).join(', ')}`);
    return;
  }
  let podIdentity: { serviceAccount: string; roleArn: string } | undefined;
  if (item.podIdentity) {
    const role = item.podIdentity.role === 'training-operator' ? trainingOperatorRole(names) : s3CsiDriverRole(names);
    podIdentity = { serviceAccount: item.podIdentity.serviceAccount, roleArn: await deps.cloud.iam.ensure(ctx.input.name, role, log) };
  }
  const version = await deps.cloud.eks.defaultAddonVersion(ctx.input.region, item.addonName, ctx.state.kubernetesVersion!);
  await deps.cloud.eks.createAddon(ctx.input.region, names.eksCluster, item.addonName, { version, podIdentity, tags: clusterTags(ctx.input.name, 'addon') });
  ctx.log(`${item.title}: installing add-on ${item.addonName} ${version ?? ''}${podIdentity ? ` with pod identity for ${podIdentity.serviceAccount}` : ''}`.trim());
}

/** Deletes a CREATE_FAILED add-on and waits (briefly, cancellably) until EKS has forgotten it. */
async function removeFailedAddon(deps: WorkflowDeps, ctx: Ctx, addonName: string): Promise<void> {
  const names = await namesFor(deps, ctx);
  await deps.cloud.eks.deleteAddon(ctx.input.region, names.eksCluster, addonName);
  for (let i = 0; i < 120 && !ctx.signal.aborted; i++) {
    if (!(await deps.cloud.eks.describeAddon(ctx.input.region, names.eksCluster, addonName))) return;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new CloudError('eks', 'DeleteAddon', 'AddonStillDeleting', `The failed add-on ${addonName} is still being deleted; retry the phase in a minute.`, undefined, true);
}

/**
 * Reconciles what HyperPod needs, in order. Each item is observed first and skipped when already
 * right, so a retry (or a cluster someone prepared by hand) installs only what is missing.
 */
export function dependenciesPhase(deps: WorkflowDeps): PhaseDefinition<CreateClusterInput, CreateClusterState> {
  return {
    name: 'dependencies',
    title: 'Dependencies: cert-manager, health-monitoring agent, device plugins, training operator, storage CSI drivers',
    expectedSeconds: 120,
    async observe(ctx) {
      const states = await Promise.all(items(ctx).map((i) => itemState(deps, ctx, i)));
      if (states.every((s) => s.state === 'ready')) return 'done';
      return states.some((s) => s.state === 'missing' || s.state === 'failed') ? 'needs-act' : 'in-progress';
    },
    async act(ctx) {
      for (const item of items(ctx)) {
        const s = await itemState(deps, ctx, item);
        if (s.state === 'ready' || s.state === 'installing') {
          ctx.log(`${item.title}: already ${s.state === 'ready' ? 'installed' : 'installing'} (${s.detail}) — skipped`);
          continue;
        }
        if (s.state === 'failed' && item.kind === 'eks-addon') {
          ctx.log(`${item.title}: previous install failed (${s.detail}); removing it to install again`, 'warn');
          await removeFailedAddon(deps, ctx, item.addonName);
        }
        await install(deps, ctx, item);
      }
    },
    pollKey: (ctx) => `eks:${ctx.input.region}:dependencies:${ctx.input.name}`,
    async await(ctx) {
      const list = items(ctx);
      const states = await Promise.all(list.map((i) => itemState(deps, ctx, i)));
      const failed = list.filter((_, i) => states[i]!.state === 'failed');
      if (failed.length) {
        throw new CloudError('eks', 'CreateAddon', 'DependencyFailed', failed.map((f) => `${f.title}: ${states[list.indexOf(f)]!.detail}`).join('; '));
      }
      const missing = list.filter((_, i) => states[i]!.state === 'missing');
      if (missing.length) {
        throw new CloudError('eks', 'DescribeAddon', 'DependencyMissing', `${missing.map((m) => m.title).join(', ')} vanished while installing; retry the phase to install again.`);
      }
      const waiting = list.filter((_, i) => states[i]!.state !== 'ready');
      return { done: waiting.length === 0, progress: waiting.length ? `waiting for ${waiting.map((w) => w.title).join(', ')}` : 'all ready' };
    },
  };
}
