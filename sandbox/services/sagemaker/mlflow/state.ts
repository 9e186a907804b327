import { keyed, type Keyed } from '../../../core/keyed.js';
import type { SandboxState } from '../../../core/store.js';

/**
 * SageMaker managed MLflow: the tracking servers of each region (`state['sagemaker-mlflow']`) and,
 * inside each server, its MLflow backend store (experiments, runs, their metrics). A server's data
 * goes with it when it is deleted, as AWS's does. Times are sandbox epoch ms.
 */

export const TRACKING_SERVER_STATUSES = [
  'Creating',
  'Created',
  'CreateFailed',
  'Updating',
  'Updated',
  'UpdateFailed',
  'Deleting',
  'DeleteFailed',
  'Stopping',
  'Stopped',
  'StopFailed',
  'Starting',
  'Started',
  'StartFailed',
  'MaintenanceInProgress',
  'MaintenanceComplete',
  'MaintenanceFailed',
] as const;
export type TrackingServerStatus = (typeof TRACKING_SERVER_STATUSES)[number];

/** The states in which a server answers MLflow's REST API (IsActive `Active`). */
const SERVING: ReadonlySet<TrackingServerStatus> = new Set([
  'Created',
  'Updated',
  'Started',
  'UpdateFailed',
  'MaintenanceComplete',
  'MaintenanceFailed',
]);
export const isServing = (status: TrackingServerStatus): boolean => SERVING.has(status);

/** One metric value at a step: `[step, timestamp ms, value]` (compact: a run keeps thousands). */
export type MetricPoint = [step: number, timestamp: number, value: number];

export type RunStatus = 'RUNNING' | 'SCHEDULED' | 'FINISHED' | 'FAILED' | 'KILLED';
export type LifecycleStage = 'active' | 'deleted';

export interface StoredExperiment {
  id: string;
  name: string;
  artifactLocation: string;
  lifecycleStage: LifecycleStage;
  creationTime: number;
  lastUpdateTime: number;
  tags: Keyed<string>;
}

/** Where the sandbox's simulated trainer that reports to a run is, and how far its log was read. */
export interface ReporterSource {
  /** The EKS cluster's ARN. */
  cluster: string;
  namespace: string;
  pod: string;
  uid: string;
  container: string;
  /** The container run (restart count) being read. */
  restart: number;
  /** Log lines up to this sandbox time were recorded. */
  loggedUntil: number;
}

export interface StoredRun {
  id: string;
  experimentId: string;
  name: string;
  userId: string;
  status: RunStatus;
  startTime: number;
  endTime?: number;
  artifactUri: string;
  lifecycleStage: LifecycleStage;
  tags: Keyed<string>;
  params: Keyed<string>;
  metrics: Keyed<MetricPoint[]>;
  reporter?: ReporterSource;
}

/** An MLflow server's backend store. */
export interface TrackingStore {
  nextExperimentId: number;
  experiments: Keyed<StoredExperiment>;
  runs: Keyed<StoredRun>;
}

export interface StoredTrackingServer {
  name: string;
  arn: string;
  region: string;
  /** `https://t-<id>.<region>.experiments.sagemaker.aws` */
  url: string;
  artifactStoreUri: string;
  size: 'Small' | 'Medium' | 'Large';
  mlflowVersion: string;
  roleArn: string;
  automaticModelRegistration: boolean;
  weeklyMaintenanceWindowStart: string;
  s3BucketOwnerAccountId: string;
  s3BucketOwnerVerification: boolean;
  status: TrackingServerStatus;
  /** When the current transitional status (Creating, Updating, Starting, Stopping, Deleting) ends. */
  settlesAt?: number;
  createdAt: number;
  lastModifiedAt: number;
  createdBy: { arn: string; principalId: string };
  lastModifiedBy: { arn: string; principalId: string };
  tags: { Key: string; Value: string }[];
  tracking: TrackingStore;
}

interface MlflowRegion {
  servers: Keyed<StoredTrackingServer>;
}

const SECTION = 'sagemaker-mlflow';
type Section = Keyed<MlflowRegion>;

const peekRegions = (state: SandboxState): Section | undefined => state[SECTION] as Section | undefined;

export function mlflowRegion(state: SandboxState, region: string): MlflowRegion {
  const section = (state[SECTION] ??= {}) as Section;
  return keyed.ensure(section, region, () => ({ servers: {} }));
}

/** A region's servers, without creating the section. */
export function serversIn(state: SandboxState, region: string): StoredTrackingServer[] {
  return keyed.values(keyed.get(peekRegions(state), region)?.servers);
}

export function allServers(state: SandboxState): StoredTrackingServer[] {
  return keyed.values(peekRegions(state)).flatMap((r) => keyed.values(r.servers));
}

export function findServer(state: SandboxState, region: string, name: string): StoredTrackingServer | undefined {
  return keyed.get(keyed.get(peekRegions(state), region)?.servers, name);
}

/** `arn:aws:sagemaker:<region>:<account>:mlflow-tracking-server/<name>` → region and name. */
export function parseTrackingServerArn(arn: string): { region: string; account: string; name: string } | undefined {
  const m = /^arn:aws[a-z-]*:sagemaker:([a-z0-9-]+):(\d{12}):mlflow-tracking-server\/(.+)$/.exec(arn);
  return m ? { region: m[1]!, account: m[2]!, name: m[3]! } : undefined;
}

export function findServerByArn(state: SandboxState, arn: string): StoredTrackingServer | undefined {
  const parsed = parseTrackingServerArn(arn);
  const server = parsed && findServer(state, parsed.region, parsed.name);
  return server?.arn === arn ? server : undefined;
}

export function removeServer(state: SandboxState, region: string, name: string): void {
  const servers = keyed.get(peekRegions(state), region)?.servers;
  keyed.delete(servers, name);
}

/** A fresh backend store: MLflow servers always have the `Default` experiment, id 0. */
export function emptyTrackingStore(artifactStoreUri: string, now: number): TrackingStore {
  const store: TrackingStore = { nextExperimentId: 1, experiments: {}, runs: {} };
  keyed.set(store.experiments, '0', {
    id: '0',
    name: 'Default',
    artifactLocation: `${artifactStoreUri.replace(/\/+$/, '')}/0`,
    lifecycleStage: 'active',
    creationTime: now,
    lastUpdateTime: now,
    tags: {},
  });
  return store;
}
