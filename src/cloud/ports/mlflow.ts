/** SageMaker managed MLflow: tracking servers (SageMaker API) and what they hold (the MLflow REST API, signed for `sagemaker-mlflow`). */

/** A tracking server as DescribeMlflowTrackingServer reports it. */
export interface MlflowTrackingServer {
  arn: string;
  name: string;
  /** Creating, Created, Updating, Updated, Stopping, Stopped, Starting, Started, Deleting, *Failed, Maintenance*. */
  status: string;
  /** Whether it answers MLflow's API now (IsActive `Active`). */
  active: boolean;
  url?: string;
  artifactStoreUri?: string;
  size?: string;
  mlflowVersion?: string;
  roleArn?: string;
  automaticModelRegistration?: boolean;
  weeklyMaintenanceWindowStart?: string;
  createdAt?: Date;
  lastModifiedAt?: Date;
}

/** One row of ListMlflowTrackingServers. */
export type MlflowTrackingServerSummary = Pick<
  MlflowTrackingServer,
  'arn' | 'name' | 'status' | 'active' | 'mlflowVersion' | 'createdAt' | 'lastModifiedAt'
>;

export interface MlflowTrackingServerSpec {
  name: string;
  /** `s3://bucket/prefix` */
  artifactStoreUri: string;
  /** The role SageMaker assumes to reach the artifact store (trusts sagemaker.amazonaws.com). */
  roleArn: string;
  size?: 'Small' | 'Medium' | 'Large';
  mlflowVersion?: string;
  automaticModelRegistration?: boolean;
  /** e.g. `Tue:03:30` (UTC). */
  weeklyMaintenanceWindowStart?: string;
  tags?: Record<string, string>;
}

export interface MlflowKeyValue {
  key: string;
  value: string;
}

export interface MlflowExperiment {
  id: string;
  name: string;
  artifactLocation?: string;
  lifecycleStage: string;
  creationTime?: number;
  lastUpdateTime?: number;
  tags: MlflowKeyValue[];
}

/** One value of a metric: `timestamp` in epoch ms. */
export interface MlflowMetricPoint {
  step: number;
  timestamp: number;
  value: number;
}

export interface MlflowRun {
  id: string;
  name: string;
  experimentId: string;
  /** RUNNING, SCHEDULED, FINISHED, FAILED, KILLED. */
  status: string;
  startTime?: number;
  endTime?: number;
  artifactUri?: string;
  lifecycleStage: string;
  tags: MlflowKeyValue[];
  params: MlflowKeyValue[];
  /** The latest value of each metric the run logged (its keys: what can be charted). */
  latestMetrics: Array<MlflowMetricPoint & { key: string }>;
}

/** A metric's history, sorted by step then timestamp; `truncated` when it had more than `limit` points. */
export interface MlflowMetricHistory {
  runId: string;
  metricKey: string;
  points: MlflowMetricPoint[];
  truncated: boolean;
  /** The most points read (the cap). */
  limit: number;
  /** How many get-history pages were read. */
  pages: number;
}

/** Where an MLflow read goes: the tracking server (by ARN, which names its Region) and what to find there. */
export interface MlflowRunQuery {
  trackingServerArn: string;
  experimentName: string;
  runName: string;
}

export interface MlflowPort {
  /** Every tracking server in the Region (all pages), newest first. */
  listTrackingServers(region: string): Promise<MlflowTrackingServerSummary[]>;
  /** Undefined when there is none of that name. */
  describeTrackingServer(region: string, name: string): Promise<MlflowTrackingServer | undefined>;
  /** CreateMlflowTrackingServer; its ARN (the server is Creating for up to 25 minutes). */
  createTrackingServer(region: string, spec: MlflowTrackingServerSpec): Promise<string>;
  /** The server's tags (SageMaker ListTags); undefined when it does not exist. */
  trackingServerTags(region: string, arn: string): Promise<Record<string, string> | undefined>;
  /** DeleteMlflowTrackingServer; a server already gone is fine. */
  deleteTrackingServer(region: string, name: string): Promise<void>;
  /** The experiment of that name (an active one first); undefined when there is none. */
  findExperiment(query: { trackingServerArn: string; experimentName: string }): Promise<MlflowExperiment | undefined>;
  /** The newest run of that name in the experiment; undefined when the experiment or the run does not exist. */
  findRun(query: MlflowRunQuery): Promise<MlflowRun | undefined>;
  /** The experiment's runs, newest first, optionally only those with that run name and all of those tags. */
  searchRuns(query: {
    trackingServerArn: string;
    experimentName: string;
    runName?: string;
    tags?: MlflowKeyValue[];
    maxResults?: number;
  }): Promise<MlflowRun[]>;
  /** A metric's whole history, every page followed, at most `maxPoints` (default 100 000) points. */
  metricHistory(query: {
    trackingServerArn: string;
    runId: string;
    metricKey: string;
    maxPoints?: number;
    pageSize?: number;
  }): Promise<MlflowMetricHistory>;
}
