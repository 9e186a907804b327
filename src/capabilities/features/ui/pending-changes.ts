import type { FeatureChanges, FeatureId, FeatureState } from '@domain/schemas/features.js';

/**
 * The panel's half of the diff contract: the user's edits are kept per feature, and only the ones
 * that differ from the cluster's actual state are sent. A toggle flipped back, or a setting typed
 * back to what the cluster has, drops out of the request.
 */

export type PendingChange = boolean | Record<string, unknown>;

/** Settings the user typed: empty strings and empty lists mean "not set", so they are not sent. */
export function cleanSettings(settings: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(settings)) {
    if (v === '' || v === undefined || (Array.isArray(v) && v.length === 0)) continue;
    out[k] = v;
  }
  return out;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** True when the change would leave the feature as it is. */
function isNoChange(feature: FeatureState, change: PendingChange): boolean {
  const on = feature.state === 'on' || feature.state === 'installing';
  if (change === false) return !on;
  if (change === true) return on;
  if (!on) return false;
  const settings = cleanSettings(change);
  return Object.keys(settings).every((k) =>
    same(settings[k], Object.hasOwn(feature.config, k) ? feature.config[k] : undefined),
  );
}

/** The PATCH body: only the features the user changed, each as little as says the change. */
export function changesToSend(
  features: readonly FeatureState[],
  pending: ReadonlyMap<FeatureId, PendingChange>,
): FeatureChanges {
  const body: Record<string, unknown> = {};
  for (const f of features) {
    const change = pending.get(f.id);
    if (change === undefined || isNoChange(f, change)) continue;
    const settings = typeof change === 'boolean' ? undefined : cleanSettings(change);
    // On with no settings typed is plain `true`: the feature's defaults (or its current settings).
    body[f.id] = settings === undefined ? change : Object.keys(settings).length ? settings : true;
  }
  return body as FeatureChanges;
}
