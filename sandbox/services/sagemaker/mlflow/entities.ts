import { keyed, type Keyed } from '../../../core/keyed.js';
import type { MetricPoint, StoredExperiment, StoredRun } from './state.js';
import { latestMetrics, type LoggedMetric } from './tracking.js';

/**
 * MLflow's JSON for its entities, as its server writes protobuf messages: snake_case fields, int64
 * as JSON numbers, enums by name, and empty lists or unset fields left out.
 */

const pairs = (section: Keyed<string>) => keyed.entries(section).map(([key, value]) => ({ key, value }));
const nonEmpty = <T>(name: string, list: T[]) => (list.length > 0 ? { [name]: list } : {});

/** Doubles that JSON has no number for are strings in protobuf JSON. */
const double = (v: number): number | string =>
  Number.isFinite(v) ? v : Number.isNaN(v) ? 'NaN' : v > 0 ? 'Infinity' : '-Infinity';

export function experimentJson(e: StoredExperiment) {
  return {
    experiment_id: e.id,
    name: e.name,
    artifact_location: e.artifactLocation,
    lifecycle_stage: e.lifecycleStage,
    last_update_time: e.lastUpdateTime,
    creation_time: e.creationTime,
    ...nonEmpty('tags', pairs(e.tags)),
  };
}

export function runInfoJson(r: StoredRun) {
  return {
    run_id: r.id,
    run_uuid: r.id,
    run_name: r.name,
    experiment_id: r.experimentId,
    user_id: r.userId,
    status: r.status,
    start_time: r.startTime,
    ...(r.endTime !== undefined ? { end_time: r.endTime } : {}),
    artifact_uri: r.artifactUri,
    lifecycle_stage: r.lifecycleStage,
  };
}

export const metricJson = (m: LoggedMetric) => ({
  key: m.key,
  value: double(m.value),
  timestamp: m.timestamp,
  step: m.step,
});
export const pointJson = (key: string, p: MetricPoint) => metricJson({ key, step: p[0], timestamp: p[1], value: p[2] });

export function runJson(r: StoredRun) {
  return {
    info: runInfoJson(r),
    data: {
      ...nonEmpty('metrics', latestMetrics(r).map(metricJson)),
      ...nonEmpty('params', pairs(r.params)),
      ...nonEmpty('tags', pairs(r.tags)),
    },
    inputs: {},
  };
}
