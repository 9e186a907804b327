import { clusterDependencies, type DependencyItem } from '../../../../domain/cluster-dependencies.js';
import { s3CsiDriverRole, trainingOperatorRole } from '../../../../domain/cluster-roles.js';
import { CloudError } from '../../../../domain/errors.js';
import { clusterTags } from '../../../../domain/naming.js';
import type { PhaseContext, PhaseDefinition } from '../../../../engine/workflow.js';
import type { WorkflowDeps } from '../../../../workflows/context.js';
import { ADDON_SET_EXPECTED_SECONDS, namesFor } from './iam-eks-phases.js';
import type { CreateClusterInput, CreateClusterState } from './types.js';

type Ctx = PhaseContext<CreateClusterInput, CreateClusterState>;

const items = (ctx: Ctx) => clusterDependencies({ region: ctx.input.region, s3: ctx.input.storage.s3, fsx: Boolean(ctx.input.storage.fsxLustre) });

type ItemState = 'ready' | 'installing' | 'removing' | 'missing' | 'failed';

/** The state of one item, read from the cluster itself. */
async function itemState(deps: WorkflowDeps, ctx: Ctx, item: DependencyItem): Promise<{ state: ItemState; detail: string }> {
  const names = await namesFor(deps, ctx);
  if (item.kind === 'eks-addon') {
    const a = await deps.cloud.eks.describeAddon(ctx.input.region, names.eksCluster, item.addonName);
    if (!a) return { state: 'missing', detail: 'not installed' };
    if (a.status === 'ACTIVE' || a.status === 'DEGRADED') return { state: 'ready', detail: `${a.addonVersion} ${a.status}` };
    if (a.status === 'CREATE_FAILED') return { state: 'failed', detail: (a.health?.issues ?? []).map((i) => i.message).join('; ') || 'CREATE_FAILED' };
    if (a.status === 'DELETING') return { state: 'removing', detail: 'DELETING' };
    return { state: 'installing', detail: a.status ?? 'unknown' };
  }
  const kube = await deps.cloud.kube(ctx.input.region, names.eksCluster);
  for (const obj of item.objects) {
    if (!(await kube.current(obj))) return { state: 'missing', detail: `${obj.kind} ${obj.metadata.name} missing` };
  }
  return { state: 'ready', detail: `${item.objects.length} objects present` };
}

const removing = (ctx: Ctx) => new Set(ctx.state.dependenciesRemoving ?? []);

async function install(deps: WorkflowDeps, ctx: Ctx, item: DependencyItem): Promise<void> {
  const names = await namesFor(deps, ctx);
  const log = (m: string) => ctx.log(m);
  if (item.kind === 'manifests') {
    const kube = await deps.cloud.kube(ctx.input.region, names.eksCluster);
    await kube.applyAll(item.objects);
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

/**
 * Reconciles what HyperPod needs, in order. Each item is observed first and skipped when already
 * right, so a retry (or a cluster someone prepared by hand) installs only what is missing. An
 * add-on whose install failed is deleted by act; await waits until EKS has forgotten it and hands
 * back to observe, so the next act installs it again — no wait inside act.
 */
export function dependenciesPhase(deps: WorkflowDeps): PhaseDefinition<CreateClusterInput, CreateClusterState> {
  return {
    name: 'dependencies',
    title: 'Dependencies: cert-manager, health-monitoring agent, device plugins, training operator, storage CSI drivers',
    expectedSeconds: ADDON_SET_EXPECTED_SECONDS,
    async observe(ctx) {
      const list = items(ctx);
      const states = await Promise.all(list.map((i) => itemState(deps, ctx, i)));
      if (states.every((s) => s.state === 'ready')) return 'done';
      // An add-on being deleted (our removal of a failed one, interrupted) is awaited, then installed again.
      const goingAway = list.flatMap((item, i) => (item.kind === 'eks-addon' && states[i]!.state === 'removing' ? [item.addonName] : []));
      if (goingAway.some((name) => !removing(ctx).has(name))) ctx.setState({ dependenciesRemoving: [...new Set([...removing(ctx), ...goingAway])] });
      if (states.some((s) => s.state === 'missing' || s.state === 'failed')) return 'needs-act';
      ctx.setState({ dependenciesReady: list.filter((_, i) => states[i]!.state === 'ready').map((item) => item.id) });
      return 'in-progress';
    },
    async act(ctx) {
      const names = await namesFor(deps, ctx);
      const gone = removing(ctx);
      ctx.setState({ dependenciesReady: [] });
      for (const item of items(ctx)) {
        const s = await itemState(deps, ctx, item);
        if (s.state === 'ready' || s.state === 'installing' || s.state === 'removing') {
          ctx.log(`${item.title}: ${s.state === 'ready' ? 'already installed' : s.state === 'installing' ? 'already installing' : 'still being removed; installed again once gone'} (${s.detail}) — skipped`);
          continue;
        }
        if (s.state === 'failed' && item.kind === 'eks-addon') {
          ctx.log(`${item.title}: previous install failed (${s.detail}); removing it to install again`, 'warn');
          await deps.cloud.eks.deleteAddon(ctx.input.region, names.eksCluster, item.addonName);
          gone.add(item.addonName);
          ctx.setState({ dependenciesRemoving: [...gone] });
          continue;
        }
        await install(deps, ctx, item);
        if (item.kind === 'eks-addon' && gone.delete(item.addonName)) ctx.setState({ dependenciesRemoving: [...gone] });
      }
    },
    pollKey: (ctx) => `eks:${ctx.input.region}:dependencies:${ctx.input.name}`,
    async await(ctx) {
      // Items seen ready in this wait are not asked again: each poll reads only what is still pending.
      const ready = new Set(ctx.state.dependenciesReady ?? []);
      const list = items(ctx).filter((i) => !ready.has(i.id));
      const states = await Promise.all(list.map((i) => itemState(deps, ctx, i)));
      const gone = removing(ctx);
      const removed = (item: DependencyItem) => item.kind === 'eks-addon' && gone.has(item.addonName);
      const failed = list.filter((item, i) => states[i]!.state === 'failed' && !removed(item));
      if (failed.length) {
        throw new CloudError('eks', 'CreateAddon', 'DependencyFailed', failed.map((f) => `${f.title}: ${states[list.indexOf(f)]!.detail}`).join('; '));
      }
      const missing = list.filter((item, i) => states[i]!.state === 'missing' && !removed(item));
      if (missing.length) {
        throw new CloudError('eks', 'DescribeAddon', 'DependencyMissing', `${missing.map((m) => m.title).join(', ')} vanished while installing; retry the phase to install again.`);
      }
      const nowReady = list.filter((_, i) => states[i]!.state === 'ready').map((i) => i.id);
      if (nowReady.length) ctx.setState({ dependenciesReady: [...ready, ...nowReady] });
      const stillRemoving = list.filter((item, i) => removed(item) && states[i]!.state !== 'missing');
      const removedNow = list.filter((item, i) => removed(item) && states[i]!.state === 'missing');
      if (removedNow.length && stillRemoving.length === 0) {
        return { done: false, observeAgain: true, progress: `removed the failed ${removedNow.map((r) => r.title).join(', ')}; installing again` };
      }
      const waiting = list.filter((_, i) => states[i]!.state !== 'ready');
      const what = waiting.map((w) => (removed(w) ? `${w.title} (removing the failed install)` : w.title));
      return { done: waiting.length === 0, progress: waiting.length ? `waiting for ${what.join(', ')}` : 'all ready' };
    },
  };
}
