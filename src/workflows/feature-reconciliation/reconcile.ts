import { canonicalJson } from '../../domain/canonical-json.js';
import { CloudError } from '../../domain/errors.js';
import { dependencyClosure } from '../../domain/features/graph.js';
import { featureDefinition } from '../../domain/features/registry.js';
import type { FeatureId } from '../../domain/schemas/features.js';
import type { PhaseContext, PhaseDeadline, PhaseDefinition } from '../../engine/workflow.js';
import { resolveAddonVersion } from '../addon-compatibility.js';
import type { WorkflowDeps } from '../context.js';
import {
  deleteFailedAddon,
  hasIdentities,
  installFeature,
  reconfigureFeature,
  removeIdentities,
  uninstallFeature,
} from './feature-actions.js';
import type { FeatureFacts } from './feature-facts.js';
import { primaryInstall, readFeature, type FeatureReading, type ReadSource } from './feature-reading.js';

/**
 * The one reconciler of managed features: a phase that brings a list of features to on (needs
 * first) or to off (dependents first), each observed before anything is done, so a feature already
 * as wanted costs no mutation and a retry or a resume continues where the cluster is. create-cluster's
 * dependencies phase and set-features' install and remove phases are this phase.
 *
 * A feature starts only once the features of the same list it stands on are settled (on: its needs
 * are on; off: what needs it is gone); act starts every feature that may start, await waits, and
 * hands back to observe (`observeAgain`) when the next wave may start — every wait an await step.
 * An add-on whose install failed is deleted by act, awaited until EKS has forgotten it, and installed
 * again by the next act.
 */

export type ReconcileAction = 'install' | 'remove';

/** One feature to bring to on (with these settings) or off. */
export interface ReconcileItem {
  feature: FeatureId;
  config: Record<string, unknown>;
}

/** Where a feature of an operation stands, for the faces: waiting for others, being changed, being re-made after a failure, done. */
export type FeatureStep = 'waiting' | 'changing' | 'replacing' | 'removing-identities' | 'done';
export interface FeatureProgress {
  feature: FeatureId;
  action: ReconcileAction;
  step: FeatureStep;
  detail: string;
}

/** The part of an operation's state the reconciler keeps. */
export interface ReconcileState {
  /** Per feature: where it stands (the operation's progress by feature). */
  featureProgress?: FeatureProgress[];
  /** The add-on versions to install, resolved for every add-on of the operation before any change. */
  addonVersions?: Array<{ feature: FeatureId; version: string }>;
}

export interface ReconcileSpec<I, S extends ReconcileState> {
  name: string;
  title: string;
  expectedSeconds: number;
  deadline: PhaseDeadline;
  action: ReconcileAction;
  /** The features to reconcile, in order (install: needs first; remove: dependents first). */
  items(ctx: PhaseContext<I, S>): ReconcileItem[];
  /** The cluster's facts and where to read its features (called once per step). */
  source(ctx: PhaseContext<I, S>): Promise<ReadSource>;
  pollKey(ctx: PhaseContext<I, S>): string;
}

type Ctx<I, S extends ReconcileState> = PhaseContext<I, S>;
type Situation = 'settled' | 'busy' | 'actionable';

interface Row {
  item: ReconcileItem;
  reading: FeatureReading;
  step: FeatureStep;
  /** Seen settled earlier in this wait: not read again. */
  known?: boolean;
}

/** Settings a reading reports back and a request may pin (others, like a namespace, are applied when the feature is installed). */
const READ_BACK = ['version', 'instanceMemoryAllocationPercentage', 'instanceGroups'];
const configMatches = (wanted: Record<string, unknown>, actual: Record<string, unknown>) =>
  READ_BACK.every(
    (k) =>
      !Object.hasOwn(wanted, k) ||
      wanted[k] === undefined ||
      canonicalJson(wanted[k]) === canonicalJson(Object.hasOwn(actual, k) ? actual[k] : undefined),
  );

function situation(action: ReconcileAction, row: Row): Situation {
  if (row.known) return 'settled';
  const s = row.reading.state;
  if (action === 'install') {
    if (s === 'on')
      return configMatches(row.item.config, row.reading.config) && !row.reading.outdated ? 'settled' : 'actionable';
    return s === 'installing' || s === 'removing' ? 'busy' : 'actionable';
  }
  if (s === 'off') return hasIdentities(row.item.feature) && row.step !== 'done' ? 'actionable' : 'settled';
  // Another install provides it: nothing of ours to remove (the plan refuses turning it off).
  if (row.reading.providedBy) return 'settled';
  return s === 'removing' || s === 'installing' ? 'busy' : 'actionable';
}

/** The features of the same list a row waits for: its needs (install) or what needs it (remove). */
function blockers(action: ReconcileAction, row: Row, rows: readonly Row[]): FeatureId[] {
  const id = row.item.feature;
  const waitsFor = rows.filter((other) => {
    const o = other.item.feature;
    if (o === id) return false;
    return action === 'install' ? dependencyClosure([id]).has(o) : dependencyClosure([o]).has(id);
  });
  return waitsFor.filter((other) => situation(action, other) !== 'settled').map((other) => other.item.feature);
}

export function reconcilePhase<I, S extends ReconcileState>(
  deps: WorkflowDeps,
  spec: ReconcileSpec<I, S>,
): PhaseDefinition<I, S> {
  const { action } = spec;
  const progressOf = (ctx: Ctx<I, S>, id: FeatureId) =>
    (ctx.state.featureProgress ?? []).find((p) => p.feature === id && p.action === action);

  const setProgress = (
    ctx: Ctx<I, S>,
    rows: readonly Row[],
    steps: ReadonlyMap<FeatureId, { step: FeatureStep; detail: string }>,
  ) => {
    const others = (ctx.state.featureProgress ?? []).filter(
      (p) => p.action !== action || !rows.some((r) => r.item.feature === p.feature),
    );
    const mine = rows.map((r) => ({
      feature: r.item.feature,
      action,
      ...(steps.get(r.item.feature) ?? { step: r.step, detail: r.reading.health }),
    }));
    const next = [...others, ...mine];
    if (canonicalJson(next) !== canonicalJson(ctx.state.featureProgress ?? []))
      ctx.setState({ featureProgress: next } as Partial<S>);
  };

  /** Reads the features (those already done in this run are not asked again when `skipDone`). */
  const readRows = async (ctx: Ctx<I, S>, source: ReadSource, skipDone: boolean): Promise<Row[]> =>
    Promise.all(
      spec.items(ctx).map(async (item) => {
        const step = progressOf(ctx, item.feature)?.step ?? 'waiting';
        if (skipDone && step === 'done') return { item, step, known: true, reading: doneReading(action) };
        return { item, step, reading: await readFeature(source, item.feature) };
      }),
    );

  /** Every add-on's version, checked against the cluster before the first change (kept in the state, so a resume does not ask again). */
  const resolveVersions = async (ctx: Ctx<I, S>, facts: FeatureFacts) => {
    if (action !== 'install') return;
    const known = new Map((ctx.state.addonVersions ?? []).map((v) => [v.feature, v.version]));
    let added = false;
    for (const item of spec.items(ctx)) {
      const install = primaryInstall(item.feature);
      if (install.kind !== 'eks-addon' || known.has(item.feature)) continue;
      const version = await resolveAddonVersion(deps, {
        region: facts.region,
        feature: item.feature,
        addonName: install.addonName,
        ...(typeof item.config.version === 'string' ? { version: item.config.version } : {}),
        kubernetesVersion: facts.kubernetesVersion,
        ...(facts.authenticationMode ? { authenticationMode: facts.authenticationMode } : {}),
      });
      known.set(item.feature, version);
      added = true;
    }
    if (added)
      ctx.setState({ addonVersions: [...known].map(([feature, version]) => ({ feature, version })) } as Partial<S>);
  };
  const versionOf = (ctx: Ctx<I, S>, id: FeatureId) =>
    (ctx.state.addonVersions ?? []).find((v) => v.feature === id)?.version;

  return {
    name: spec.name,
    title: spec.title,
    expectedSeconds: spec.expectedSeconds,
    deadline: spec.deadline,

    async observe(ctx) {
      const rows = await readRows(ctx, await spec.source(ctx), false);
      const settled = rows.map((r) => situation(action, r) === 'settled');
      setProgress(
        ctx,
        rows,
        new Map(
          rows.flatMap((r, i) =>
            settled[i] ? [[r.item.feature, { step: 'done' as const, detail: r.reading.health }]] : [],
          ),
        ),
      );
      if (settled.every(Boolean)) return 'done';
      const startable = rows.some(
        (r) => situation(action, r) === 'actionable' && blockers(action, r, rows).length === 0,
      );
      return startable ? 'needs-act' : 'in-progress';
    },

    async act(ctx) {
      const source = await spec.source(ctx);
      const facts = source.facts;
      await resolveVersions(ctx, facts);
      const rows = await readRows(ctx, source, false);
      const steps = new Map<FeatureId, { step: FeatureStep; detail: string }>();
      const log = (m: string, level?: 'info' | 'warn') => ctx.log(m, level);
      for (const row of rows) {
        const id = row.item.feature;
        const t = featureDefinition(id).title;
        const s = situation(action, row);
        if (s === 'settled') {
          steps.set(id, { step: 'done', detail: row.reading.health });
          continue;
        }
        const waiting = blockers(action, row, rows);
        if (waiting.length) {
          steps.set(id, { step: 'waiting', detail: `waiting for ${titles(waiting)}` });
          continue;
        }
        if (s === 'busy') {
          ctx.log(
            `${t}: already ${row.reading.state === 'installing' ? 'installing' : 'being removed'} (${row.reading.health}) — skipped`,
          );
          steps.set(id, { step: row.step === 'replacing' ? 'replacing' : 'changing', detail: row.reading.health });
          continue;
        }
        const change = {
          feature: id,
          config: row.item.config,
          ...(versionOf(ctx, id) ? { version: versionOf(ctx, id)! } : {}),
        };
        if (action === 'install') {
          if (row.reading.state === 'failed' && primaryInstall(id).kind === 'eks-addon') {
            ctx.log(`${t}: previous install failed (${row.reading.health}); removing it to install again`, 'warn');
            await deleteFailedAddon(deps, facts, id);
            steps.set(id, { step: 'replacing', detail: 'removing the failed install' });
          } else if (row.reading.state === 'on') {
            await reconfigureFeature(deps, facts, change, log);
            steps.set(id, { step: 'changing', detail: 'changing its settings' });
          } else {
            await installFeature(deps, facts, change, log);
            steps.set(id, { step: 'changing', detail: 'installing' });
          }
        } else if (row.reading.state === 'off') {
          await removeIdentities(deps, facts, id, row.item.config, log);
          steps.set(id, { step: 'done', detail: 'removed, with its identities' });
        } else {
          await uninstallFeature(deps, facts, id, log);
          steps.set(id, { step: hasIdentities(id) ? 'removing-identities' : 'changing', detail: 'removing' });
        }
        // Each change is journaled as it happens: a crash after it resumes by observing, never repeats blindly.
        setProgress(ctx, rows, steps);
      }
      setProgress(ctx, rows, steps);
    },

    pollKey: spec.pollKey,

    async await(ctx) {
      const rows = await readRows(ctx, await spec.source(ctx), true);
      // Only what this run changed fails the wait; a failure found before (waiting its turn) is replaced by act.
      const failed = rows.filter(
        (r) => r.reading.state === 'failed' && (r.step === 'changing' || r.step === 'removing-identities'),
      );
      if (failed.length) {
        const [service, op] = action === 'install' ? ['eks', 'CreateAddon'] : ['eks', 'DeleteAddon'];
        throw new CloudError({
          service: service!,
          operation: op!,
          code: action === 'install' ? 'DependencyFailed' : 'RemovalFailed',
          message: failed.map((f) => `${featureDefinition(f.item.feature).title}: ${f.reading.health}`).join('; '),
        });
      }
      if (action === 'install') {
        const vanished = rows.filter((r) => r.step === 'changing' && r.reading.state === 'off');
        if (vanished.length) {
          throw new CloudError({
            service: 'eks',
            operation: 'DescribeAddon',
            code: 'DependencyMissing',
            message: `${vanished.map((v) => featureDefinition(v.item.feature).title).join(', ')} vanished while installing; retry the phase to install again.`,
          });
        }
      }
      const steps = new Map<FeatureId, { step: FeatureStep; detail: string }>();
      for (const r of rows)
        if (situation(action, r) === 'settled')
          steps.set(r.item.feature, {
            step: 'done',
            detail:
              r.step === 'done' ? (progressOf(ctx, r.item.feature)?.detail ?? r.reading.health) : r.reading.health,
          });
      setProgress(ctx, rows, steps);
      const open = rows.filter((r) => situation(action, r) !== 'settled');
      if (open.length === 0)
        return {
          done: true,
          progress: `${titles(rows.map((r) => r.item.feature))} ${action === 'install' ? 'on' : 'off'}`,
        };
      // The next wave may start: a feature whose blockers are settled now, a failed install now gone, identities to
      // remove.
      const next = open.filter((r) => situation(action, r) === 'actionable' && blockers(action, r, rows).length === 0);
      const progress = open
        .map((r) => `${featureDefinition(r.item.feature).title} ${stepWords(r, blockers(action, r, rows))}`)
        .join('; ');
      if (next.length)
        return {
          done: false,
          observeAgain: true,
          progress: `${progress}; next: ${titles(next.map((r) => r.item.feature))}`,
        };
      return { done: false, progress: `waiting: ${progress}` };
    },
  };
}

/** Features as the progress names them: by their titles (the Features tab's words), not their ids. */
const titles = (ids: readonly FeatureId[]): string => ids.map((id) => featureDefinition(id).title).join(', ');

/** A reading standing in for a feature already seen settled in this run (not asked again). */
const doneReading = (action: ReconcileAction): FeatureReading => ({
  state: action === 'install' ? 'on' : 'off',
  health: action === 'install' ? 'on' : 'off',
  config: {},
});

function stepWords(row: Row, waitingFor: readonly FeatureId[]): string {
  if (waitingFor.length) return `waiting for ${titles(waitingFor)}`;
  if (row.step === 'replacing') return `removing the failed install (${row.reading.health})`;
  return `${row.reading.state} (${row.reading.health})`;
}
