import { canonicalJson } from '../canonical-json.js';
import { InputError, type FieldProblem } from '../errors.js';
import { FEATURE_CONFIG_SCHEMAS, FEATURE_IDS, type FeatureChanges, type FeatureId } from '../schemas/features.js';
import { dependencyClosure, installOrder, removeOrder } from './graph.js';
import { featureDefinition } from './registry.js';

/**
 * The diff contract of managed features as one pure function: given what the cluster actually has
 * and only the keys the caller changed, what to install (needs first), what to remove (dependents
 * first), what already matches, and what is refused because an enabled feature still needs it.
 * The reconciler applies a plan; the features API answers it as the dry run.
 */

/** A feature as read from the cluster (AWS and Kubernetes, never our store). */
export interface FeatureActual {
  enabled: boolean;
  /** Its settings as read back (e.g. the add-on version, TieredStorageConfig's percentage). */
  config?: Record<string, unknown>;
  /** Another install provides it (who, in words): InstantStart never removes it. */
  providedBy?: string;
  /** InstantStart's own install lags what it pins now (why): turning it on again upgrades it. */
  outdated?: string;
  /** Objects in the cluster that need it running (`InferenceEndpointConfig default/m`): turning it off is refused. */
  inUseBy?: string[];
}

export interface PlannedInstall {
  feature: FeatureId;
  /** The settings to install or reconfigure it with (the caller's keys over the current ones). */
  config: Record<string, unknown>;
  /**
   * requested: the caller turned it on; reconfigure: it is on and the caller changed a setting (or it is
   * InstantStart's own install is not what it would install now, `outdated`); needed: a requested feature needs it.
   */
  reason: 'requested' | 'reconfigure' | 'needed';
  /** For `needed`: the requested features that need it (directly or through another). */
  neededBy: FeatureId[];
  /** For `reconfigure` of InstantStart's own install that is not what it would install now: why. */
  outdated?: string;
}

export interface FeatureRefusal {
  feature: FeatureId;
  /** The features that stay (or would be turned) on and need it. */
  neededBy: FeatureId[];
  /** Set when turning it off is refused because another install provides it (who, in words). */
  providedBy?: string;
  /** Set when turning it off is refused because objects in the cluster still need it. */
  inUseBy?: string[];
}

export interface FeaturePlan {
  install: PlannedInstall[];
  remove: FeatureId[];
  /** Keys the caller sent that already match the cluster: nothing is done for them. */
  unchanged: FeatureId[];
  /** Turning these off is refused; a plan with refusals must not be applied (422 naming both). */
  refused: FeatureRefusal[];
}

const KNOWN = new Set<string>(FEATURE_IDS);

/** Reads a caller's or the cluster's map by a known id only (never a caller's key on a plain object). */
const own = <T>(record: Partial<Record<FeatureId, T>>, id: FeatureId): T | undefined =>
  Object.hasOwn(record, id) ? record[id] : undefined;

/** The settings a feature would run with, checked against its schema; problems name `<feature>.<field>`. */
function checkedConfig(id: FeatureId, config: Record<string, unknown>): Record<string, unknown> {
  const parsed = FEATURE_CONFIG_SCHEMAS[id].safeParse(config);
  if (parsed.success) return parsed.data as Record<string, unknown>;
  const problems: FieldProblem[] = parsed.error.issues.map((i) => ({
    path: [id, ...i.path.map(String)].join('.'),
    message: i.message,
  }));
  throw new InputError({ message: problems.map((p) => `${p.path}: ${p.message}`).join('; '), problems });
}

/** True when every setting the caller sent already has that value (settings they did not send are not compared). */
const matches = (requested: Record<string, unknown>, current: Record<string, unknown>): boolean =>
  Object.keys(requested).every(
    (k) => canonicalJson(requested[k]) === canonicalJson(Object.hasOwn(current, k) ? current[k] : undefined),
  );

/**
 * @example
 * planFeatures({ 'cert-manager': { enabled: false } }, { 'training-operator': true })
 * // → install: cert-manager (needed), pod-identity-agent (needed), training-operator (requested)
 */
export function planFeatures(actual: Partial<Record<FeatureId, FeatureActual>>, changes: FeatureChanges): FeaturePlan {
  for (const key of Object.keys(changes)) {
    if (!KNOWN.has(key)) throw InputError.field(key, `is not a feature (features: ${FEATURE_IDS.join(', ')})`);
    if (!featureDefinition(key as FeatureId).toggleable)
      throw InputError.field(key, 'is part of every HyperPod cluster and cannot be turned on or off');
  }
  const isOn = (id: FeatureId) => own(actual, id)?.enabled === true;
  const requested = new Map<FeatureId, PlannedInstall>();
  const removals: FeatureId[] = [];
  const turnedOff = new Set<FeatureId>();
  const unchanged: FeatureId[] = [];
  /** Off asked for a feature another install provides, or one objects in the cluster still use: refused. */
  const external: FeatureRefusal[] = [];

  for (const id of FEATURE_IDS) {
    const change = own(changes as Partial<Record<FeatureId, boolean | Record<string, unknown>>>, id);
    if (change === undefined) continue;
    const providedBy = own(actual, id)?.providedBy;
    const inUseBy = own(actual, id)?.inUseBy ?? [];
    if (change === false) {
      turnedOff.add(id);
      if (isOn(id) && providedBy) external.push({ feature: id, neededBy: [], providedBy });
      else if (isOn(id) && inUseBy.length) external.push({ feature: id, neededBy: [], inUseBy });
      else if (isOn(id)) removals.push(id);
      else unchanged.push(id);
      continue;
    }
    const sent = change === true ? {} : change;
    const current = isOn(id) ? (own(actual, id)?.config ?? {}) : {};
    const config = checkedConfig(id, { ...current, ...sent });
    const outdated = isOn(id) && !providedBy ? own(actual, id)?.outdated : undefined;
    if (isOn(id) && matches(sent, current) && !outdated) unchanged.push(id);
    else
      requested.set(id, {
        feature: id,
        config,
        reason: isOn(id) ? 'reconfigure' : 'requested',
        neededBy: [],
        ...(outdated ? { outdated } : {}),
      });
  }

  // What the requested features need and the cluster lacks, installed first with their defaults.
  const needed = new Map<FeatureId, PlannedInstall>();
  for (const id of dependencyClosure(requested.keys())) {
    if (requested.has(id) || isOn(id)) continue;
    const neededBy = [...requested.keys()].filter((r) => r !== id && dependencyClosure([r]).has(id));
    needed.set(id, { feature: id, config: checkedConfig(id, {}), reason: 'needed', neededBy });
  }

  const refused: FeatureRefusal[] = [...external];
  // Off was asked for something a requested feature would install: refused, not silently overridden.
  for (const id of [...turnedOff].filter((t) => needed.has(t))) {
    refused.push({ feature: id, neededBy: needed.get(id)!.neededBy });
    unchanged.splice(unchanged.indexOf(id), 1);
  }

  // A removal is refused while anything that stays on needs it; a refused removal stays on, which
  // may keep what it needs on too, so this runs until nothing more is refused.
  const removing = new Set(removals);
  const onAfter = () => FEATURE_IDS.filter((f) => !removing.has(f) && (isOn(f) || requested.has(f) || needed.has(f)));
  for (let changed = true; changed; ) {
    changed = false;
    for (const r of [...removing]) {
      const neededBy = onAfter().filter((f) => f !== r && dependencyClosure([f]).has(r));
      if (neededBy.length === 0) continue;
      refused.push({ feature: r, neededBy });
      removing.delete(r);
      changed = true;
    }
  }

  const installs = new Map([...needed, ...requested]);
  return {
    install: installOrder(installs.keys()).map((id) => installs.get(id)!),
    remove: removeOrder(removing),
    unchanged: FEATURE_IDS.filter((id) => unchanged.includes(id)),
    refused: FEATURE_IDS.flatMap((id) => refused.filter((r) => r.feature === id)),
  };
}

/** The 422 problems of a plan's refusals, each on the refused feature's key and naming what needs it. */
export function refusalProblems(plan: Pick<FeaturePlan, 'refused'>): FieldProblem[] {
  return plan.refused.map((r) => ({
    path: r.feature,
    message: r.providedBy
      ? `cannot be turned off: it is provided by ${r.providedBy}, which InstantStart did not install and leaves in charge; remove it with the tool that installed it`
      : r.inUseBy?.length
        ? `cannot be turned off while ${r.inUseBy.join(', ')} ${r.inUseBy.length === 1 ? 'uses' : 'use'} it: without it nothing deletes their load balancers (they would be left in the VPC, billing); delete ${r.inUseBy.length === 1 ? 'it' : 'them'} first`
        : `cannot be turned off while ${r.neededBy.join(', ')} ${r.neededBy.length === 1 ? 'needs' : 'need'} it; turn ${r.neededBy.length === 1 ? 'that' : 'those'} off first or in the same request`,
  }));
}

/** A plan that changes nothing: every key the caller sent already matches the cluster. */
export const isNoOp = (plan: FeaturePlan): boolean =>
  plan.install.length === 0 && plan.remove.length === 0 && plan.refused.length === 0;
