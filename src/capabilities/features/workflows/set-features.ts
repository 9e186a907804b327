import { PreconditionError } from '../../../domain/errors.js';
import { planFeatures, refusalProblems, type PlannedInstall } from '../../../domain/features/plan.js';
import { clusterTarget } from '../../../domain/naming.js';
import type { SetAutoscalingInput } from '../../../domain/schemas/autoscaling.js';
import {
  FEATURE_IDS,
  type FeatureChanges,
  type FeatureId,
  type SetFeaturesInput,
} from '../../../domain/schemas/features.js';
import type { PhaseContext, PhaseDefinition } from '../../../engine/workflow.js';
import { describeHyperPod } from '../../../workflows/cluster-access.js';
import type { WorkflowDeps } from '../../../workflows/context.js';
import { clusterChangeLocks, defineWorkflow, type KindWorkflow } from '../../../workflows/define.js';
import { setAutoscalingPhases, type SetAutoscalingState } from '../../../workflows/managed-autoscaling.js';
import { featureActuals, readAllFeatures } from './actual-state.js';
import { existingClusterFacts, type FeatureFacts } from '../../../workflows/feature-reconciliation/feature-facts.js';
import { readSource } from '../../../workflows/feature-reconciliation/feature-reading.js';
import {
  reconcilePhase,
  type FeatureProgress,
  type ReconcileState,
} from '../../../workflows/feature-reconciliation/reconcile.js';

export interface SetFeaturesState extends ReconcileState, SetAutoscalingState {
  featureFacts?: FeatureFacts;
  /** The plan, made once from the cluster as it was when the operation started (journaled: a resume keeps it). */
  plan?: { install: PlannedInstall[]; remove: FeatureId[] };
}
type Ctx = PhaseContext<SetFeaturesInput, SetFeaturesState>;
type Phase = PhaseDefinition<SetFeaturesInput, SetFeaturesState>;

/** The target of set-features on a cluster: what a GET of its features names as running. */
export const featuresTarget = (region: string, cluster: string): string => `${clusterTarget(region, cluster)}/features`;

const source = (deps: WorkflowDeps, ctx: Ctx) =>
  readSource(deps, ctx.state.featureFacts!, () => describeHyperPod(deps.cloud, ctx.input.region, ctx.input.cluster));

/** The features a change names (ids only, in registry order). */
export const changedKeys = (changes: FeatureChanges): FeatureId[] =>
  FEATURE_IDS.filter((id) => Object.hasOwn(changes, id) && changes[id] !== undefined);

/** Reads every feature, plans the change against them, refuses what an enabled feature still needs, checks every add-on version — before any change. */
function planPhase(deps: WorkflowDeps): Phase {
  return {
    name: 'plan',
    title: 'Read the features as the cluster has them and plan the change',
    expectedSeconds: 5,
    deadline: { actSeconds: 120, waitSeconds: 120 }, // reads only
    verdict: 'Planned from the cluster as it is',
    async observe(ctx) {
      if (ctx.state.plan) return 'done';
      const { facts } = await existingClusterFacts(deps, ctx.input.region, ctx.input.cluster);
      ctx.setState({ featureFacts: facts });
      const plan = planFeatures(
        featureActuals(await readAllFeatures(source(deps, ctx)), changedKeys(ctx.input.changes as FeatureChanges)),
        ctx.input.changes as FeatureChanges,
      );
      if (plan.refused.length) {
        const problems = refusalProblems(plan);
        throw new PreconditionError({
          message: `Features cannot be changed as asked: ${problems.map((p) => `${p.path} ${p.message}`).join('; ')}.`,
          problems,
        });
      }
      const progress: FeatureProgress[] = [
        ...plan.remove.map((feature) => ({
          feature,
          action: 'remove' as const,
          step: 'waiting' as const,
          detail: 'to remove',
        })),
        ...plan.install.map((i) => ({
          feature: i.feature,
          action: 'install' as const,
          step: 'waiting' as const,
          detail: i.reason === 'needed' ? `needed by ${i.neededBy.join(', ')}` : i.reason,
        })),
      ];
      ctx.setState({ plan: { install: plan.install, remove: plan.remove }, featureProgress: progress });
      ctx.log(
        [
          plan.remove.length ? `remove ${plan.remove.join(', ')}` : '',
          plan.install.length
            ? `install ${plan.install.map((i) => (i.reason === 'needed' ? `${i.feature} (needed by ${i.neededBy.join(', ')})` : i.feature)).join(', ')}`
            : '',
          plan.unchanged.length ? `unchanged ${plan.unchanged.join(', ')}` : '',
        ]
          .filter(Boolean)
          .join('; ') || 'nothing to change',
      );
      return 'done';
    },
  };
}

/** Autoscaling is set by set-autoscaling's own phases (reused, not copied): the ClusterRole, UpdateCluster AutoScaling, Karpenter's objects. */
const AUTOSCALING: FeatureId = 'autoscaling';
const reconciled = (id: FeatureId) => id !== AUTOSCALING;

function autoscalingInput(ctx: Ctx): SetAutoscalingInput | undefined {
  const plan = ctx.state.plan;
  const install = plan?.install.find((i) => i.feature === AUTOSCALING);
  if (install)
    return {
      cluster: ctx.input.cluster,
      region: ctx.input.region,
      enabled: true,
      instanceGroups: install.config.instanceGroups as string[],
    };
  if (plan?.remove.includes(AUTOSCALING))
    return { cluster: ctx.input.cluster, region: ctx.input.region, enabled: false };
  return undefined;
}

/** One of set-autoscaling's phases, run on the input the plan gives it; skipped when the plan does not touch autoscaling. */
function autoscalingPhase(phase: PhaseDefinition<SetAutoscalingInput, SetAutoscalingState>, last: boolean): Phase {
  const inner = (ctx: Ctx, input: SetAutoscalingInput): PhaseContext<SetAutoscalingInput, SetAutoscalingState> => ({
    operationId: ctx.operationId,
    input,
    get state() {
      return ctx.state;
    },
    setState: (patch) => ctx.setState(patch),
    log: (m, level) => ctx.log(m, level),
    signal: ctx.signal,
    attempt: ctx.attempt,
    earlierFailures: ctx.earlierFailures,
  });
  const mark = (ctx: Ctx, step: FeatureProgress['step'], detail: string) => {
    const input = autoscalingInput(ctx)!;
    const action = input.enabled ? 'install' : 'remove';
    const others = (ctx.state.featureProgress ?? []).filter((p) => p.feature !== AUTOSCALING);
    ctx.setState({ featureProgress: [...others, { feature: AUTOSCALING, action, step, detail }] });
  };
  return {
    name: phase.name === 'autoscaling' ? 'autoscaling' : `autoscaling-${phase.name}`,
    title: `Autoscaling: ${phase.title}`,
    expectedSeconds: phase.expectedSeconds,
    deadline: phase.deadline,
    async observe(ctx) {
      const input = autoscalingInput(ctx);
      if (!input) return 'done';
      const outcome = await phase.observe(inner(ctx, input));
      if (outcome === 'done' && last)
        mark(ctx, 'done', input.enabled ? `on for ${input.instanceGroups!.join(', ')}` : 'off');
      return outcome;
    },
    ...(phase.act
      ? {
          async act(ctx: Ctx) {
            mark(ctx, 'changing', phase.title);
            await phase.act!(inner(ctx, autoscalingInput(ctx)!));
          },
        }
      : {}),
    ...(phase.await
      ? {
          async await(ctx: Ctx) {
            const input = autoscalingInput(ctx)!;
            const outcome = await phase.await!(inner(ctx, input));
            if (outcome.done && last)
              mark(ctx, 'done', input.enabled ? `on for ${input.instanceGroups!.join(', ')}` : 'off');
            return outcome;
          },
        }
      : {}),
    ...(phase.pollKey ? { pollKey: (ctx: Ctx) => phase.pollKey!(inner(ctx, autoscalingInput(ctx)!)) } : {}),
  };
}

/**
 * set-features: the diff contract applied. plan → remove (dependents first) → install (needs
 * first) → autoscaling (set-autoscaling's phases). Every phase observes first: a feature already as
 * planned costs nothing, and a resume continues where the cluster is.
 */
export function setFeaturesWorkflow(deps: WorkflowDeps): KindWorkflow<'set-features', SetFeaturesState> {
  const pollKey = (ctx: Ctx) => `features:${ctx.input.region}:${ctx.input.cluster}`;
  const [role, mode, karpenter] = setAutoscalingPhases(deps);
  return defineWorkflow('set-features', {
    target: (i) => featuresTarget(i.region, i.cluster),
    // TieredStorageConfig and AutoScaling go through UpdateCluster: one change of the cluster at a time.
    locks: (i) => clusterChangeLocks(i.region, i.cluster),
    initialState: () => ({}),
    phases: [
      planPhase(deps),
      reconcilePhase<SetFeaturesInput, SetFeaturesState>(deps, {
        name: 'remove',
        title: 'Remove features (what needs another first)',
        expectedSeconds: 120,
        deadline: { actSeconds: 900, waitSeconds: 2700 }, // several features, each an add-on or a chart, one after another
        action: 'remove',
        items: (ctx) => (ctx.state.plan?.remove ?? []).filter(reconciled).map((feature) => ({ feature, config: {} })),
        source: async (ctx) => source(deps, ctx),
        pollKey,
      }),
      reconcilePhase<SetFeaturesInput, SetFeaturesState>(deps, {
        name: 'install',
        title: 'Install features (what they need first)',
        expectedSeconds: 150,
        deadline: { actSeconds: 900, waitSeconds: 3600 }, // several features, each an add-on or a chart, one after another
        action: 'install',
        items: (ctx) =>
          (ctx.state.plan?.install ?? [])
            .filter((i) => reconciled(i.feature))
            .map((i) => ({ feature: i.feature, config: i.config })),
        source: async (ctx) => source(deps, ctx),
        pollKey,
      }),
      autoscalingPhase(role!, false),
      autoscalingPhase(mode!, false),
      autoscalingPhase(karpenter!, true),
    ],
    result: (s, i) => ({
      cluster: i.cluster,
      installed: (s.plan?.install ?? []).map((p) => p.feature),
      removed: s.plan?.remove ?? [],
      features: s.featureProgress ?? [],
    }),
  });
}
