import { createHash, randomUUID } from 'node:crypto';
import { keyed } from '../../../core/keyed.js';
import { invalidParameter, mlflowError, notFound } from './errors.js';
import type { MetricPoint, RunStatus, StoredExperiment, StoredRun, TrackingStore } from './state.js';

/**
 * An MLflow tracking server's backend store, with MLflow's own rules: experiment names unique,
 * metric/param/tag keys of MLflow's alphabet, params that never change once logged, logging only
 * to active runs, the run name kept in the `mlflow.runName` tag. Used by the REST endpoint
 * (rest.ts) and by the sandbox's simulated trainers (the MLflow reporter).
 */

export const RUN_NAME_TAG = 'mlflow.runName';
const KEY = /^[/\w.\- :]*$/;
const MAX_KEY = 250;
const MAX_PARAM_VALUE = 6000;
const MAX_TAG_VALUE = 8000;

function checkKey(kind: string, key: string): void {
  if (
    key.length === 0 ||
    key.length > MAX_KEY ||
    !KEY.test(key) ||
    key.split('/').includes('..') ||
    key.startsWith('/')
  ) {
    throw invalidParameter(
      `Invalid ${kind} name: '${key}'. Names may only contain alphanumerics, underscores (_), dashes (-), periods (.), spaces ( ), colons (:) and slashes (/), and be at most ${MAX_KEY} characters.`,
    );
  }
}

// ── experiments ─────────────────────────────────────────────────────────────────────────────────

/** The active experiment of that name, else a deleted one (MLflow prefers the active one). */
export function experimentByName(store: TrackingStore, name: string): StoredExperiment | undefined {
  const all = keyed.values(store.experiments).filter((e) => e.name === name);
  return all.find((e) => e.lifecycleStage === 'active') ?? all[0];
}

export function experimentById(store: TrackingStore, id: string): StoredExperiment {
  const found = keyed.get(store.experiments, id);
  if (!found) throw notFound(`No Experiment with id=${id} exists`);
  return found;
}

export function createExperiment(
  store: TrackingStore,
  artifactStoreUri: string,
  input: { name: string; artifactLocation?: string; tags?: Array<{ key: string; value: string }> },
  now: number,
): StoredExperiment {
  if (input.name.trim() === '') throw invalidParameter(`Invalid experiment name: '${input.name}'`);
  if (experimentByName(store, input.name))
    throw mlflowError('RESOURCE_ALREADY_EXISTS', `Experiment '${input.name}' already exists.`);
  for (const t of input.tags ?? []) checkKey('tag', t.key);
  const id = String(store.nextExperimentId++);
  const experiment: StoredExperiment = {
    id,
    name: input.name,
    artifactLocation: input.artifactLocation ?? `${artifactStoreUri.replace(/\/+$/, '')}/${id}`,
    lifecycleStage: 'active',
    creationTime: now,
    lastUpdateTime: now,
    tags: keyed.from((input.tags ?? []).map((t) => [t.key, t.value] as const)),
  };
  keyed.set(store.experiments, id, experiment);
  return experiment;
}

// ── runs ────────────────────────────────────────────────────────────────────────────────────────

export function runById(store: TrackingStore, id: string): StoredRun {
  const found = keyed.get(store.runs, id);
  if (!found) throw notFound(`Run with id=${id} not found`);
  return found;
}

const ADJECTIVES = [
  'amazing',
  'bold',
  'calm',
  'clever',
  'dapper',
  'eager',
  'gentle',
  'honest',
  'lucky',
  'merciful',
  'nimble',
  'rogue',
  'shy',
  'silent',
  'vaunted',
  'wise',
];
const NOUNS = [
  'ant',
  'bass',
  'cat',
  'colt',
  'crane',
  'deer',
  'finch',
  'fox',
  'hare',
  'hawk',
  'lark',
  'mole',
  'owl',
  'ram',
  'seal',
  'wolf',
];

/** MLflow's generated run names (`bold-cat-123`), derived from the run id. */
function generatedRunName(runId: string): string {
  const h = createHash('sha256').update(runId).digest();
  return `${ADJECTIVES[h[0]! % ADJECTIVES.length]}-${NOUNS[h[1]! % NOUNS.length]}-${h.readUInt16BE(2) % 1000}`;
}

export function createRun(
  store: TrackingStore,
  input: {
    experimentId: string;
    userId?: string;
    runName?: string;
    startTime?: number;
    tags?: Array<{ key: string; value: string }>;
  },
  now: number,
): StoredRun {
  const experiment = experimentById(store, input.experimentId);
  if (experiment.lifecycleStage !== 'active')
    throw invalidParameter(
      `The experiment ${experiment.id} must be in the 'active' state. Current state is ${experiment.lifecycleStage}.`,
    );
  for (const t of input.tags ?? []) checkKey('tag', t.key);
  const tagged = input.tags?.find((t) => t.key === RUN_NAME_TAG)?.value;
  if (input.runName !== undefined && tagged !== undefined && tagged !== input.runName) {
    throw invalidParameter(
      `Both 'run_name' argument and 'mlflow.runName' tag are specified, but with different values (run_name='${input.runName}', mlflow.runName='${tagged}').`,
    );
  }
  const id = randomUUID().replaceAll('-', '');
  const name = input.runName ?? tagged ?? generatedRunName(id);
  const run: StoredRun = {
    id,
    experimentId: experiment.id,
    name,
    userId: input.userId ?? '',
    status: 'RUNNING',
    startTime: input.startTime ?? now,
    artifactUri: `${experiment.artifactLocation}/${id}/artifacts`,
    lifecycleStage: 'active',
    tags: keyed.from((input.tags ?? []).map((t) => [t.key, t.value] as const)),
    params: {},
    metrics: {},
  };
  keyed.set(run.tags, RUN_NAME_TAG, name);
  keyed.set(store.runs, id, run);
  return run;
}

export function updateRun(run: StoredRun, input: { status?: RunStatus; endTime?: number; runName?: string }): void {
  checkActive(run);
  if (input.status !== undefined) run.status = input.status;
  if (input.endTime !== undefined) run.endTime = input.endTime;
  if (input.runName !== undefined && input.runName !== '') {
    run.name = input.runName;
    keyed.set(run.tags, RUN_NAME_TAG, input.runName);
  }
}

function checkActive(run: StoredRun): void {
  if (run.lifecycleStage !== 'active')
    throw invalidParameter(`The run ${run.id} must be in the 'active' state. Current state is ${run.lifecycleStage}.`);
}

export interface LoggedMetric {
  key: string;
  value: number;
  timestamp: number;
  step: number;
}

/** LogMetric / LogBatch: every entry is checked before any is written. */
export function logToRun(
  run: StoredRun,
  batch: {
    metrics?: LoggedMetric[];
    params?: Array<{ key: string; value: string }>;
    tags?: Array<{ key: string; value: string }>;
  },
): void {
  checkActive(run);
  for (const m of batch.metrics ?? []) checkKey('metric', m.key);
  for (const p of batch.params ?? []) {
    checkKey('param', p.key);
    if (p.value.length > MAX_PARAM_VALUE)
      throw invalidParameter(
        `Param value '${p.value.slice(0, 50)}…' had length ${p.value.length}, which exceeded length limit of ${MAX_PARAM_VALUE}`,
      );
    const before = keyed.get(run.params, p.key);
    if (before !== undefined && before !== p.value) {
      throw invalidParameter(
        `Changing param values is not allowed. Param with key='${p.key}' was already logged with value='${before}' for run ID='${run.id}'. Attempted logging new value '${p.value}'.`,
      );
    }
  }
  for (const t of batch.tags ?? []) {
    checkKey('tag', t.key);
    if (t.value.length > MAX_TAG_VALUE)
      throw invalidParameter(`Tag value had length ${t.value.length}, which exceeded length limit of ${MAX_TAG_VALUE}`);
  }
  for (const m of batch.metrics ?? []) appendPoints(run, m.key, [[m.step, m.timestamp, m.value]]);
  for (const p of batch.params ?? []) keyed.set(run.params, p.key, p.value);
  for (const t of batch.tags ?? []) {
    keyed.set(run.tags, t.key, t.value);
    if (t.key === RUN_NAME_TAG) run.name = t.value;
  }
}

/** Appends values to a metric's history (the reporter calls it directly, already validated). */
export function appendPoints(run: StoredRun, key: string, points: MetricPoint[]): void {
  const history = keyed.ensure(run.metrics, key, () => []);
  for (const p of points) history.push(p);
}

/**
 * The latest value of each metric, as GetRun and SearchRuns report it: the greatest step, then
 * the latest timestamp, then the greatest value (MLflow's stores compare the same triple).
 */
export function latestMetrics(run: StoredRun): LoggedMetric[] {
  return keyed.entries(run.metrics).flatMap(([key, history]) => {
    let best: MetricPoint | undefined;
    for (const p of history) {
      if (!best || p[0] > best[0] || (p[0] === best[0] && (p[1] > best[1] || (p[1] === best[1] && p[2] > best[2]))))
        best = p;
    }
    return best ? [{ key, step: best[0], timestamp: best[1], value: best[2] }] : [];
  });
}

/** A metric's whole history in a stable order: by step, then timestamp (insertion order breaks ties). */
export function metricHistory(run: StoredRun, key: string): MetricPoint[] {
  const history = keyed.get(run.metrics, key) ?? [];
  return history
    .map((p, i) => [p, i] as const)
    .sort(([a, i], [b, j]) => a[0] - b[0] || a[1] - b[1] || i - j)
    .map(([p]) => p);
}
