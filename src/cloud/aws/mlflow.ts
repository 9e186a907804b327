import { CloudError, InputError, NotFoundError, PreconditionError } from '../../domain/errors.js';
import type {
  MlflowExperiment,
  MlflowKeyValue,
  MlflowMetricHistory,
  MlflowMetricPoint,
  MlflowPort,
  MlflowRun,
  MlflowRunQuery,
  MlflowTrackingServer,
  MlflowTrackingServerSpec,
  MlflowTrackingServerSummary,
} from '../ports.js';
import type { CredentialsProvider } from './eks-token.js';
import type { AwsClients } from './clients.js';
import { hasCode } from './errors.js';
import {
  MLFLOW_SERVICE,
  MlflowRest,
  mlflowEndpoint,
  parseTrackingServerArn,
  type MlflowTarget,
} from './mlflow-rest.js';
import { MlflowTrackingServers } from './mlflow-tracking-servers.js';

export type {
  MlflowExperiment,
  MlflowMetricHistory,
  MlflowMetricPoint,
  MlflowRun,
  MlflowTrackingServer,
  MlflowTrackingServerSpec,
  MlflowTrackingServerSummary,
} from '../ports.js';

/** Default cap on one metric's history: a point per step of a long run, well within a chart's reach. */
export const METRIC_HISTORY_MAX_POINTS = 100_000;
/** Points asked per get-history page (MLflow servers take up to 25 000). */
const HISTORY_PAGE = 10_000;
const RUNS_PAGE = 1000;
/** A server's Describe (its status, where it is) is reused this long, so a chart's polling costs one MLflow call. */
const TARGET_TTL_MS = 10_000;

/**
 * SageMaker managed MLflow for the product: tracking servers through the SageMaker SDK, and the
 * runs and metric histories recipes log there through MLflow's REST API (mlflow-rest.ts).
 *
 * Errors are the project's: a tracking server that does not exist is a NotFoundError, one that is
 * not serving (Creating, Stopped, …) a PreconditionError saying so; an ARN that is not a tracking
 * server's an InputError on `trackingServerArn`; everything the cloud refuses a CloudError with its code.
 */
export class MlflowAdapter implements MlflowPort {
  private readonly servers: MlflowTrackingServers;
  private readonly rest: MlflowRest;
  private readonly targets = new Map<string, { at: number; target: Promise<MlflowTarget> }>();

  constructor(
    private readonly clients: AwsClients,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {
    this.servers = new MlflowTrackingServers(clients);
    this.rest = new MlflowRest(
      (region) => clients.sagemaker(region).config.credentials as CredentialsProvider,
      clients.timeouts.requestMs,
    );
  }

  listTrackingServers(region: string): Promise<MlflowTrackingServerSummary[]> {
    return this.servers.list(region);
  }

  describeTrackingServer(region: string, name: string): Promise<MlflowTrackingServer | undefined> {
    return this.servers.describe(region, name);
  }

  createTrackingServer(region: string, spec: MlflowTrackingServerSpec): Promise<string> {
    return this.servers.create(region, spec);
  }

  trackingServerTags(region: string, arn: string): Promise<Record<string, string> | undefined> {
    return this.servers.tags(region, arn);
  }

  async deleteTrackingServer(region: string, name: string): Promise<void> {
    await this.servers.delete(region, name);
    this.targets.clear();
  }

  async findExperiment(query: {
    trackingServerArn: string;
    experimentName: string;
  }): Promise<MlflowExperiment | undefined> {
    const target = await this.target(query.trackingServerArn);
    try {
      const r = await this.rest.get<{ experiment?: WireExperiment }>(
        target,
        'GetExperimentByName',
        'experiments/get-by-name',
        { experiment_name: query.experimentName },
      );
      return r.experiment ? experimentOf(r.experiment) : undefined;
    } catch (err) {
      if (hasCode(err, 'RESOURCE_DOES_NOT_EXIST')) return undefined;
      throw err;
    }
  }

  async findRun(query: MlflowRunQuery): Promise<MlflowRun | undefined> {
    return (await this.searchRuns({ ...query, maxResults: 1 }))[0];
  }

  async searchRuns(query: {
    trackingServerArn: string;
    experimentName: string;
    runName?: string;
    tags?: MlflowKeyValue[];
    maxResults?: number;
  }): Promise<MlflowRun[]> {
    const experiment = await this.findExperiment(query);
    if (!experiment) return [];
    const target = await this.target(query.trackingServerArn);
    const conditions = [
      ...(query.runName !== undefined ? [`tags."mlflow.runName" = ${literal('runName', query.runName)}`] : []),
      ...(query.tags ?? []).map(
        (t, i) => `tags.${quotedKey(`tags[${i}].key`, t.key)} = ${literal(`tags[${i}].value`, t.value)}`,
      ),
    ];
    const limit = Math.max(1, query.maxResults ?? RUNS_PAGE);
    const runs: MlflowRun[] = [];
    let token: string | undefined;
    do {
      const r = await this.rest.post<{ runs?: WireRun[]; next_page_token?: string }>(
        target,
        'SearchRuns',
        'runs/search',
        {
          experiment_ids: [experiment.id],
          ...(conditions.length ? { filter: conditions.join(' AND ') } : {}),
          run_view_type: 'ACTIVE_ONLY',
          max_results: Math.min(RUNS_PAGE, limit - runs.length),
          order_by: ['attributes.start_time DESC'],
          ...(token ? { page_token: token } : {}),
        },
      );
      for (const run of r.runs ?? []) runs.push(runOf(run));
      token = r.next_page_token || undefined;
    } while (token && runs.length < limit);
    return runs.slice(0, limit);
  }

  /**
   * Every page of the metric's history (`next_page_token` followed until none comes), sorted by step
   * then timestamp — servers do not promise an order, and older ones ignore paging and answer all at
   * once. More than `maxPoints` points: the first `maxPoints` read, with `truncated` set.
   */
  async metricHistory(query: {
    trackingServerArn: string;
    runId: string;
    metricKey: string;
    maxPoints?: number;
    pageSize?: number;
  }): Promise<MlflowMetricHistory> {
    const limit = Math.max(1, query.maxPoints ?? METRIC_HISTORY_MAX_POINTS);
    const pageSize = Math.max(1, Math.min(query.pageSize ?? HISTORY_PAGE, 25_000));
    const target = await this.target(query.trackingServerArn);
    const points: MlflowMetricPoint[] = [];
    const seen = new Set<string>();
    let token: string | undefined;
    let pages = 0;
    let truncated = false;
    for (;;) {
      let r: { metrics?: WireMetric[]; next_page_token?: string };
      try {
        r = await this.rest.get(target, 'GetMetricHistory', 'metrics/get-history', {
          run_id: query.runId,
          metric_key: query.metricKey,
          max_results: pageSize,
          page_token: token,
        });
      } catch (err) {
        if (hasCode(err, 'RESOURCE_DOES_NOT_EXIST'))
          throw new NotFoundError({
            resource: 'MLflow run',
            id: query.runId,
            message: `MLflow run '${query.runId}' does not exist on tracking server '${target.server.name}'.`,
          });
        throw err;
      }
      pages++;
      for (const m of r.metrics ?? [])
        points.push({ step: num(m.step), timestamp: num(m.timestamp), value: num(m.value) });
      const next = r.next_page_token || undefined;
      if (points.length > limit || (points.length === limit && next)) {
        truncated = true;
        points.length = limit;
        break;
      }
      if (!next) break;
      if (seen.has(next))
        throw new CloudError({
          service: MLFLOW_SERVICE,
          operation: 'GetMetricHistory',
          code: 'RepeatedPageToken',
          message: `MLflow GetMetricHistory on tracking server '${target.server.name}' returned the same page token twice; stopped after ${pages} pages.`,
          retryable: false,
        });
      seen.add(next);
      token = next;
    }
    points.sort((a, b) => a.step - b.step || a.timestamp - b.timestamp);
    return { runId: query.runId, metricKey: query.metricKey, points, truncated, limit, pages };
  }

  /** Where a server's MLflow calls go, after checking it exists and serves (Describe, kept a few seconds). */
  private target(arn: string): Promise<MlflowTarget> {
    const ref = parseTrackingServerArn(arn);
    if (!ref)
      throw InputError.field(
        'trackingServerArn',
        `'${arn}' is not an MLflow tracking server ARN (arn:aws:sagemaker:<region>:<account>:mlflow-tracking-server/<name>).`,
      );
    const now = Date.now();
    const cached = this.targets.get(arn);
    if (cached && now - cached.at < TARGET_TTL_MS) return cached.target;
    const target = this.servers.describe(ref.region, ref.name).then((server) => {
      if (!server || server.arn !== arn)
        throw new NotFoundError({
          resource: 'MLflow tracking server',
          id: arn,
          message: `MLflow tracking server '${ref.name}' does not exist in ${ref.region}.`,
        });
      if (!server.active) {
        throw new PreconditionError({
          message: `MLflow tracking server '${ref.name}' is ${server.status}: it answers MLflow requests only while it runs.`,
          problems: [{ path: 'trackingServerArn', message: `tracking server is ${server.status}` }],
          remedy: /Creating|Updating|Starting/.test(server.status)
            ? 'Wait until it is Created or Started, then ask again.'
            : /Stop/.test(server.status)
              ? 'Start it (StartMlflowTrackingServer), then ask again.'
              : undefined,
        });
      }
      const baseUrl = mlflowEndpoint(ref, server.url, this.env);
      if (!baseUrl)
        throw new CloudError({
          service: MLFLOW_SERVICE,
          operation: 'Connect',
          code: 'UnknownEndpoint',
          message: `No MLflow endpoint is known for partition '${ref.partition}'; set SAGEMAKER_MLFLOW_CUSTOM_ENDPOINT.`,
        });
      return { server: ref, baseUrl };
    });
    this.targets.set(arn, { at: now, target });
    // A failed look-up is not kept: the next call asks again.
    target.catch(() => this.targets.delete(arn));
    return target;
  }
}

// ── MLflow's JSON (snake_case; int64 as numbers, or strings from old servers) ─────────────────────

interface WireKeyValue {
  key?: string;
  value?: string;
}
interface WireExperiment {
  experiment_id?: string;
  name?: string;
  artifact_location?: string;
  lifecycle_stage?: string;
  creation_time?: number | string;
  last_update_time?: number | string;
  tags?: WireKeyValue[];
}
interface WireMetric {
  key?: string;
  value?: number | string;
  timestamp?: number | string;
  step?: number | string;
}
interface WireRun {
  info?: {
    run_id?: string;
    run_uuid?: string;
    run_name?: string;
    experiment_id?: string;
    status?: string;
    start_time?: number | string;
    end_time?: number | string;
    artifact_uri?: string;
    lifecycle_stage?: string;
  };
  data?: { metrics?: WireMetric[]; params?: WireKeyValue[]; tags?: WireKeyValue[] };
}

/** A number from MLflow's JSON: int64s may come as strings, doubles as "NaN"/"Infinity". */
const num = (v: number | string | undefined): number => (typeof v === 'number' ? v : v === undefined ? 0 : Number(v));
const optionalNum = (v: number | string | undefined) => (v === undefined || v === null ? undefined : num(v));
const pairs = (list: WireKeyValue[] | undefined): MlflowKeyValue[] =>
  (list ?? []).map((t) => ({ key: String(t.key ?? ''), value: String(t.value ?? '') }));

function experimentOf(e: WireExperiment): MlflowExperiment {
  const creationTime = optionalNum(e.creation_time);
  const lastUpdateTime = optionalNum(e.last_update_time);
  return {
    id: String(e.experiment_id ?? ''),
    name: String(e.name ?? ''),
    ...(e.artifact_location ? { artifactLocation: e.artifact_location } : {}),
    lifecycleStage: e.lifecycle_stage ?? 'active',
    ...(creationTime !== undefined ? { creationTime } : {}),
    ...(lastUpdateTime !== undefined ? { lastUpdateTime } : {}),
    tags: pairs(e.tags),
  };
}

function runOf(r: WireRun): MlflowRun {
  const info = r.info ?? {};
  const tags = pairs(r.data?.tags);
  const startTime = optionalNum(info.start_time);
  const endTime = optionalNum(info.end_time);
  return {
    id: String(info.run_id ?? info.run_uuid ?? ''),
    name: info.run_name ?? tags.find((t) => t.key === 'mlflow.runName')?.value ?? '',
    experimentId: String(info.experiment_id ?? ''),
    status: info.status ?? 'RUNNING',
    ...(startTime !== undefined ? { startTime } : {}),
    ...(endTime !== undefined ? { endTime } : {}),
    ...(info.artifact_uri ? { artifactUri: info.artifact_uri } : {}),
    lifecycleStage: info.lifecycle_stage ?? 'active',
    tags,
    params: pairs(r.data?.params),
    latestMetrics: (r.data?.metrics ?? []).map((m) => ({
      key: String(m.key ?? ''),
      step: num(m.step),
      timestamp: num(m.timestamp),
      value: num(m.value),
    })),
  };
}

/** A string literal of MLflow's search grammar: single quotes, or double when the text has one. */
function literal(field: string, value: string): string {
  if (!value.includes("'")) return `'${value}'`;
  if (!value.includes('"')) return `"${value}"`;
  throw InputError.field(
    field,
    'cannot contain both single and double quotes (MLflow search strings have no escapes).',
  );
}

/** A tag key in backticks (MLflow's quoting for keys with dots, dashes or spaces). */
function quotedKey(field: string, key: string): string {
  if (key.includes('`')) throw InputError.field(field, 'cannot contain a backtick.');
  return `\`${key}\``;
}
