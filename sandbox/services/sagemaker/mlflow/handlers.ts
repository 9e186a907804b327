import { keyed } from '../../../core/keyed.js';
import { offsetPage } from '../../../core/paging.js';
import { experimentJson, pointJson, runInfoJson, runJson } from './entities.js';
import { invalidParameter, missingParameter, notFound } from './errors.js';
import { compare, orderItems, parseFilter, parseOrderBy, type Comparison, type OrderBy } from './search.js';
import type { RunStatus, StoredExperiment, StoredRun, StoredTrackingServer } from './state.js';
import {
  createExperiment,
  createRun,
  experimentById,
  experimentByName,
  latestMetrics,
  logToRun,
  metricHistory,
  runById,
  updateRun,
  type LoggedMetric,
} from './tracking.js';

/**
 * The MLflow REST operations the sandbox serves (mlflow/protos/service.proto), on one tracking
 * server's store. Input is the decoded query (GET) or JSON body (POST); output is the response body.
 */

export type Input = Record<string, unknown>;
export interface MlflowHandler {
  method: 'GET' | 'POST' | 'GET|POST';
  /** Writes to the store (the sandbox saves its state after it). */
  writes: boolean;
  run(input: Input, server: StoredTrackingServer, now: number): unknown;
}

const SEARCH_MAX = 50_000;
const HISTORY_MAX = 25_000;
const RUN_STATUSES: RunStatus[] = ['RUNNING', 'SCHEDULED', 'FINISHED', 'FAILED', 'KILLED'];

// ── reading parameters: query strings carry text, JSON bodies numbers; both are accepted ─────────

function text(input: Input, name: string): string | undefined;
function text(input: Input, name: string, required: true): string;
function text(input: Input, name: string, required = false): string | undefined {
  const v = Object.hasOwn(input, name) ? input[name] : undefined;
  if (v === undefined || v === null || v === '') {
    if (required) throw missingParameter(name);
    return undefined;
  }
  if (typeof v !== 'string')
    throw invalidParameter(`Invalid value ${JSON.stringify(v)} for parameter '${name}' supplied: expected a string.`);
  return v;
}

function integer(input: Input, name: string, required = false): number | undefined {
  const v = Object.hasOwn(input, name) ? input[name] : undefined;
  if (v === undefined || v === null || v === '') {
    if (required) throw missingParameter(name);
    return undefined;
  }
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : NaN;
  if (!Number.isSafeInteger(n))
    throw invalidParameter(`Invalid value ${JSON.stringify(v)} for parameter '${name}' supplied: expected an integer.`);
  return n;
}

function double(v: unknown, name: string): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && ['NaN', 'Infinity', '-Infinity'].includes(v)) return Number(v);
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  throw invalidParameter(`Invalid value ${JSON.stringify(v)} for parameter '${name}' supplied: expected a number.`);
}

function list<T>(input: Input, name: string, item: (v: unknown, i: number) => T): T[] {
  const v = Object.hasOwn(input, name) ? input[name] : undefined;
  if (v === undefined || v === null) return [];
  const arr = Array.isArray(v) ? v : typeof v === 'string' ? [v] : undefined;
  if (!arr)
    throw invalidParameter(`Invalid value ${JSON.stringify(v)} for parameter '${name}' supplied: expected a list.`);
  return arr.map(item);
}

const object = (v: unknown, name: string): Input => {
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw invalidParameter(`Invalid value ${JSON.stringify(v)} for parameter '${name}' supplied: expected an object.`);
  return v as Input;
};
const keyValues = (input: Input, name: string) =>
  list(input, name, (v, i) => {
    const o = object(v, `${name}[${i}]`);
    return { key: text(o, 'key', true), value: String(text(o, 'value') ?? '') };
  });

function maxResults(input: Input, fallback: number | undefined, max: number): number | undefined {
  const n = integer(input, 'max_results') ?? fallback;
  if (n !== undefined && (n < 1 || n > max))
    throw invalidParameter(
      `Invalid value ${n} for parameter 'max_results' supplied. It must be at most ${max} and at least 1.`,
    );
  return n;
}

/** MLflow's page tokens: opaque, base64 of an offset. */
function paged<T>(items: T[], input: Input, size: number | undefined): { items: T[]; next_page_token?: string } {
  const { items: slice, next } = offsetPage(items, text(input, 'page_token'), size, () =>
    invalidParameter('Invalid page token, could not base64-decode or JSON-decode.'),
  );
  return { items: slice, ...(next ? { next_page_token: next } : {}) };
}

/** `run_id`, or the deprecated `run_uuid` older clients send. */
function runIdOf(input: Input): string {
  const id = text(input, 'run_id') ?? text(input, 'run_uuid');
  if (id === undefined) throw missingParameter('run_id');
  return id;
}

function runStatus(v: string | undefined): RunStatus | undefined {
  if (v === undefined) return undefined;
  if (!RUN_STATUSES.includes(v as RunStatus))
    throw invalidParameter(`Invalid value '${v}' for parameter 'status': must be one of ${RUN_STATUSES.join(', ')}.`);
  return v as RunStatus;
}

function viewFilter(v: string | undefined, name: string): (stage: string) => boolean {
  switch (v ?? 'ACTIVE_ONLY') {
    case 'ACTIVE_ONLY':
      return (s) => s === 'active';
    case 'DELETED_ONLY':
      return (s) => s === 'deleted';
    case 'ALL':
      return () => true;
    default:
      throw invalidParameter(`Invalid value '${v}' for parameter '${name}': must be ACTIVE_ONLY, DELETED_ONLY or ALL.`);
  }
}

// ── searches ─────────────────────────────────────────────────────────────────────────────────────

function experimentValue(e: StoredExperiment, c: { entity: string; key: string }): string | number | undefined {
  if (c.entity === 'tag') return keyed.get(e.tags, c.key);
  if (c.entity !== 'attribute')
    throw invalidParameter(
      `Invalid search expression for experiments: '${c.entity}s.${c.key}' (experiments have attributes and tags).`,
    );
  switch (c.key) {
    case 'name':
      return e.name;
    case 'experiment_id':
      return e.id;
    case 'creation_time':
      return e.creationTime;
    case 'last_update_time':
      return e.lastUpdateTime;
    default:
      throw invalidParameter(
        `Invalid attribute key '${c.key}' specified. Valid keys are name, experiment_id, creation_time, last_update_time.`,
      );
  }
}

function runValue(r: StoredRun, c: { entity: string; key: string }): string | number | undefined {
  switch (c.entity) {
    case 'tag':
      return keyed.get(r.tags, c.key);
    case 'param':
      return keyed.get(r.params, c.key);
    case 'metric':
      return latestMetrics(r).find((m) => m.key === c.key)?.value;
    default:
      switch (c.key) {
        case 'run_name':
          return r.name;
        case 'run_id':
          return r.id;
        case 'status':
          return r.status;
        case 'user_id':
          return r.userId;
        case 'start_time':
          return r.startTime;
        case 'end_time':
          return r.endTime;
        case 'artifact_uri':
          return r.artifactUri;
        default:
          throw invalidParameter(
            `Invalid attribute key '${c.key}' specified. Valid keys are run_name, run_id, status, user_id, start_time, end_time, artifact_uri.`,
          );
      }
  }
}

const matches = <T>(item: T, filter: Comparison[], valueOf: (item: T, c: Comparison) => string | number | undefined) =>
  filter.every((c) => compare(c, valueOf(item, c)));

// ── the operations ───────────────────────────────────────────────────────────────────────────────

const store = (server: StoredTrackingServer) => server.tracking;

export const MLFLOW_HANDLERS: Record<string, { path: string; handler: MlflowHandler }> = {
  GetExperimentByName: {
    path: 'experiments/get-by-name',
    handler: {
      method: 'GET',
      writes: false,
      run(input, server) {
        const name = text(input, 'experiment_name', true);
        const found = experimentByName(store(server), name);
        if (!found) throw notFound(`Could not find experiment with name '${name}'`);
        return { experiment: experimentJson(found) };
      },
    },
  },
  GetExperiment: {
    path: 'experiments/get',
    handler: {
      method: 'GET',
      writes: false,
      run: (input, server) => ({
        experiment: experimentJson(experimentById(store(server), text(input, 'experiment_id', true))),
      }),
    },
  },
  CreateExperiment: {
    path: 'experiments/create',
    handler: {
      method: 'POST',
      writes: true,
      run(input, server, now) {
        const e = createExperiment(
          store(server),
          server.artifactStoreUri,
          {
            name: text(input, 'name', true),
            ...optional('artifactLocation', text(input, 'artifact_location')),
            tags: keyValues(input, 'tags'),
          },
          now,
        );
        return { experiment_id: e.id };
      },
    },
  },
  SearchExperiments: {
    path: 'experiments/search',
    handler: {
      method: 'GET|POST',
      writes: false,
      run(input, server) {
        const filter = parseFilter(text(input, 'filter'));
        const order = parseOrderBy(list(input, 'order_by', (v) => String(v)));
        const visible = viewFilter(text(input, 'view_type'), 'view_type');
        const found = keyed
          .values(store(server).experiments)
          .filter((e) => visible(e.lifecycleStage) && matches(e, filter, experimentValue));
        const defaultOrder: OrderBy[] = [{ entity: 'attribute', key: 'last_update_time', ascending: false }];
        const ordered = orderItems(
          found,
          order.length ? order : defaultOrder,
          experimentValue,
          (a, b) => Number(b.id) - Number(a.id),
        );
        const { items, next_page_token } = paged(ordered, input, maxResults(input, 1000, SEARCH_MAX));
        return {
          ...(items.length ? { experiments: items.map(experimentJson) } : {}),
          ...(next_page_token ? { next_page_token } : {}),
        };
      },
    },
  },
  CreateRun: {
    path: 'runs/create',
    handler: {
      method: 'POST',
      writes: true,
      run(input, server, now) {
        const run = createRun(
          store(server),
          {
            experimentId: text(input, 'experiment_id') ?? '0',
            ...optional('userId', text(input, 'user_id')),
            ...optional('runName', text(input, 'run_name')),
            ...optional('startTime', integer(input, 'start_time')),
            tags: keyValues(input, 'tags'),
          },
          now,
        );
        return { run: runJson(run) };
      },
    },
  },
  UpdateRun: {
    path: 'runs/update',
    handler: {
      method: 'POST',
      writes: true,
      run(input, server) {
        const run = runById(store(server), runIdOf(input));
        updateRun(run, {
          ...optional('status', runStatus(text(input, 'status'))),
          ...optional('endTime', integer(input, 'end_time')),
          ...optional('runName', text(input, 'run_name')),
        });
        return { run_info: runInfoJson(run) };
      },
    },
  },
  GetRun: {
    path: 'runs/get',
    handler: {
      method: 'GET',
      writes: false,
      run: (input, server) => ({ run: runJson(runById(store(server), runIdOf(input))) }),
    },
  },
  SearchRuns: {
    path: 'runs/search',
    handler: {
      method: 'POST',
      writes: false,
      run(input, server) {
        const ids = list(input, 'experiment_ids', (v) => String(v));
        const filter = parseFilter(text(input, 'filter'));
        const order = parseOrderBy(list(input, 'order_by', (v) => String(v)));
        const visible = viewFilter(text(input, 'run_view_type'), 'run_view_type');
        const found = keyed
          .values(store(server).runs)
          .filter((r) => ids.includes(r.experimentId) && visible(r.lifecycleStage) && matches(r, filter, runValue));
        const defaultOrder: OrderBy[] = [{ entity: 'attribute', key: 'start_time', ascending: false }];
        const ordered = orderItems(found, [...order, ...defaultOrder], runValue, (a, b) => (a.id < b.id ? -1 : 1));
        const { items, next_page_token } = paged(ordered, input, maxResults(input, 1000, SEARCH_MAX));
        return {
          ...(items.length ? { runs: items.map(runJson) } : {}),
          ...(next_page_token ? { next_page_token } : {}),
        };
      },
    },
  },
  GetMetricHistory: {
    path: 'metrics/get-history',
    handler: {
      method: 'GET',
      writes: false,
      run(input, server) {
        const run = runById(store(server), runIdOf(input));
        const key = text(input, 'metric_key', true);
        // Without max_results the history is not paginated, as MLflow's handler does.
        const { items, next_page_token } = paged(
          metricHistory(run, key),
          input,
          maxResults(input, undefined, HISTORY_MAX),
        );
        return {
          ...(items.length ? { metrics: items.map((p) => pointJson(key, p)) } : {}),
          ...(next_page_token ? { next_page_token } : {}),
        };
      },
    },
  },
  LogMetric: {
    path: 'runs/log-metric',
    handler: {
      method: 'POST',
      writes: true,
      run(input, server) {
        const run = runById(store(server), runIdOf(input));
        logToRun(run, { metrics: [metricOf(input, '')] });
        return {};
      },
    },
  },
  LogBatch: {
    path: 'runs/log-batch',
    handler: {
      method: 'POST',
      writes: true,
      run(input, server) {
        const run = runById(store(server), runIdOf(input));
        const metrics = list(input, 'metrics', (v, i) => metricOf(object(v, `metrics[${i}]`), `metrics[${i}].`));
        const params = keyValues(input, 'params');
        const tags = keyValues(input, 'tags');
        if (
          metrics.length > 1000 ||
          params.length > 100 ||
          tags.length > 100 ||
          metrics.length + params.length + tags.length > 1000
        ) {
          throw invalidParameter(
            `A batch logging request can contain at most 1000 metrics, 100 params and 100 tags, 1000 entities in total; got ${metrics.length} metrics, ${params.length} params and ${tags.length} tags.`,
          );
        }
        logToRun(run, { metrics, params, tags });
        return {};
      },
    },
  },
  LogParam: {
    path: 'runs/log-parameter',
    handler: {
      method: 'POST',
      writes: true,
      run(input, server) {
        logToRun(runById(store(server), runIdOf(input)), {
          params: [{ key: text(input, 'key', true), value: String(text(input, 'value') ?? '') }],
        });
        return {};
      },
    },
  },
  SetTag: {
    path: 'runs/set-tag',
    handler: {
      method: 'POST',
      writes: true,
      run(input, server) {
        logToRun(runById(store(server), runIdOf(input)), {
          tags: [{ key: text(input, 'key', true), value: String(text(input, 'value') ?? '') }],
        });
        return {};
      },
    },
  },
};

function metricOf(o: Input, prefix: string): LoggedMetric {
  if (!Object.hasOwn(o, 'value')) throw missingParameter(`${prefix}value`);
  return {
    key: text(o, 'key', true),
    value: double(o.value, `${prefix}value`),
    timestamp: integer(o, 'timestamp', true)!,
    step: integer(o, 'step') ?? 0,
  };
}

const optional = <K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } =>
  value === undefined ? {} : ({ [key]: value } as { [P in K]: V });
