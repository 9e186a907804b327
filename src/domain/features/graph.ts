import type { FeatureId } from '../schemas/features.js';
import { FEATURES, type FeatureRegistry } from './registry.js';

/**
 * The dependency graph of features: what a feature needs (closure), the order to install a set
 * in, and what needs a feature. Every function takes the registry it works on (the real one by
 * default) so a test can hand it a broken one; a cycle or an unknown need is a programming error
 * in the registry and throws.
 */

function needsOf(registry: FeatureRegistry, id: string): readonly string[] {
  const d = registry.get(id);
  if (!d) throw new Error(`feature registry has no '${id}'`);
  return d.needs;
}

/**
 * Every feature of the registry, needs before what needs them; among independent features, the
 * registry's own order (so the order is stable and reads like the registry).
 *
 * @example
 * registryOrder().indexOf('cert-manager') < registryOrder().indexOf('training-operator') // true
 */
export function registryOrder<Id extends string = FeatureId>(registry: FeatureRegistry = FEATURES): Id[] {
  const order: Id[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (id: Id, path: readonly string[]) => {
    const s = state.get(id);
    if (s === 'done') return;
    if (s === 'visiting')
      throw new Error(`feature dependency cycle: ${[...path.slice(path.indexOf(id)), id].join(' → ')}`);
    state.set(id, 'visiting');
    for (const need of needsOf(registry, id)) visit(need as Id, [...path, id]);
    state.set(id, 'done');
    order.push(id);
  };
  for (const id of registry.keys()) visit(id as Id, []);
  return order;
}

/** `ids` and everything they need, directly or through others. */
export function dependencyClosure<Id extends string>(ids: Iterable<Id>, registry: FeatureRegistry = FEATURES): Set<Id> {
  const seen = new Set<Id>();
  const walk = (id: Id) => {
    if (seen.has(id)) return;
    seen.add(id);
    for (const need of needsOf(registry, id)) walk(need as Id);
  };
  for (const id of ids) walk(id);
  return seen;
}

/** `ids` in the order to install them: each after everything it needs. */
export function installOrder<Id extends string>(ids: Iterable<Id>, registry: FeatureRegistry = FEATURES): Id[] {
  const wanted = new Set(ids);
  return registryOrder<Id>(registry).filter((id) => wanted.has(id));
}

/** `ids` in the order to remove them: each before everything it needs. */
export function removeOrder<Id extends string>(ids: Iterable<Id>, registry: FeatureRegistry = FEATURES): Id[] {
  return installOrder(ids, registry).reverse();
}

/**
 * The features that need `id`: directly, or (transitive) through another feature too.
 *
 * @example
 * whatNeeds('cert-manager') // ['training-operator', 'inference-operator']
 */
export function whatNeeds<Id extends string>(
  id: Id,
  options: { transitive?: boolean; registry?: FeatureRegistry } = {},
): Id[] {
  const registry = options.registry ?? FEATURES;
  const order = registryOrder<Id>(registry);
  return order.filter(
    (other) =>
      other !== id &&
      (options.transitive ? dependencyClosure([other], registry).has(id) : needsOf(registry, other).includes(id)),
  );
}
