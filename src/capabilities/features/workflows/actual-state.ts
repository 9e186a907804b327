import { CloudError } from '../../../domain/errors.js';
import { dependencyClosure } from '../../../domain/features/graph.js';
import type { FeatureActual } from '../../../domain/features/plan.js';
import { FEATURE_IDS, type FeatureId } from '../../../domain/schemas/features.js';
import {
  readFeature,
  type FeatureReading,
  type ReadSource,
} from '../../../workflows/feature-reconciliation/feature-reading.js';

/**
 * Every feature of a cluster as read now (each read on its own: one that cannot be read is
 * `unknown` with why, and does not hide the others), and the `FeatureActual` map planFeatures takes.
 */
export type FeatureReadResult = FeatureReading | { state: 'unknown'; health: string; config: Record<string, unknown> };

export async function readAllFeatures(
  source: ReadSource,
  ids: readonly FeatureId[] = FEATURE_IDS,
): Promise<Map<FeatureId, FeatureReadResult>> {
  const read = await Promise.all(
    ids.map(async (id): Promise<[FeatureId, FeatureReadResult]> => {
      try {
        return [id, await readFeature(source, id)];
      } catch (err) {
        return [
          id,
          {
            state: 'unknown',
            health: `could not be read: ${err instanceof Error ? err.message : String(err)}`,
            config: {},
          },
        ];
      }
    }),
  );
  return new Map(read);
}

/**
 * What planFeatures compares a change against: on when installed or installing (a repeat of "on"
 * while it installs changes nothing); off, failed or being removed is not on, so "on" installs it
 * again. A feature the change touches (named, needed by one named, or needing one named) that could
 * not be read stops the plan: nothing is planned on a guess.
 */
export function featureActuals(
  readings: ReadonlyMap<FeatureId, FeatureReadResult>,
  changed: readonly FeatureId[],
): Partial<Record<FeatureId, FeatureActual>> {
  const needed = dependencyClosure(changed);
  const touches = (id: FeatureId) => needed.has(id) || changed.some((c) => dependencyClosure([id]).has(c));
  const out: Partial<Record<FeatureId, FeatureActual>> = {};
  for (const [id, r] of readings) {
    if (r.state === 'unknown') {
      if (touches(id))
        throw new CloudError({
          service: 'features',
          operation: 'ReadFeatures',
          code: 'FeatureUnreadable',
          message: `${id} ${r.health}; nothing was changed.`,
          httpStatus: 503,
          retryable: true,
        });
      continue;
    }
    out[id] = {
      enabled: r.state === 'on' || r.state === 'installing',
      config: r.config,
      ...('providedBy' in r && r.providedBy ? { providedBy: r.providedBy } : {}),
      ...('outdated' in r && r.outdated ? { outdated: r.outdated } : {}),
    };
  }
  return out;
}
