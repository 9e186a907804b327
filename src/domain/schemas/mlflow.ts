import { z } from 'zod';
import { ClusterRefSchema, RegionSchema } from './common.js';

/**
 * SageMaker managed MLflow tracking servers (CreateMlflowTrackingServer and friends): what training
 * jobs report metrics to (docs/TRAINING.md → MLflow). Names and patterns are SageMaker's own.
 */

export const MlflowTrackingServerArnSchema = z
  .string()
  .max(2048)
  .regex(
    /^arn:aws[a-z-]*:sagemaker:[a-z0-9-]+:\d{12}:mlflow-tracking-server\/[a-zA-Z0-9](-*[a-zA-Z0-9]){0,255}$/,
    'must be a SageMaker MLflow tracking server ARN (arn:aws:sagemaker:<region>:<account>:mlflow-tracking-server/<name>)',
  )
  .describe('ARN of a SageMaker managed MLflow tracking server; list them with list_mlflow_servers.');

export const MlflowTrackingServerNameSchema = z
  .string()
  .regex(
    /^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,255}$/,
    'must be 1–256 letters, digits and hyphens, starting and ending with a letter or digit',
  )
  .describe('Tracking server name.');

export const MlflowServerSizeSchema = z
  .enum(['Small', 'Medium', 'Large'])
  .describe('Small: up to 25 users; Medium: up to 50; Large: up to 100 (AWS guidance).');

export const CreateMlflowServerRequestSchema = z
  .object({
    region: RegionSchema.optional(),
    name: MlflowTrackingServerNameSchema,
    artifactStoreUri: z
      .string()
      .max(1024)
      .regex(/^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/.*)?$/, 'must be an S3 URI such as s3://my-bucket/mlflow')
      .describe('Where the server keeps run artifacts: s3://bucket/prefix.'),
    size: MlflowServerSizeSchema.default('Small'),
    mlflowVersion: z
      .string()
      .regex(/^\d+(\.\d+)+$/, 'must be a version such as 3.0')
      .optional()
      .describe("MLflow version, e.g. 3.0. Default: SageMaker's current default."),
    roleArn: z
      .string()
      .regex(/^arn:aws[a-z-]*:iam::\d{12}:role\/[\w+=,.@/-]{1,512}$/, 'must be an IAM role ARN')
      .optional()
      .describe(
        'Role SageMaker assumes to reach the artifact store. Absent: the role InstantStart manages for MLflow (docs/TRAINING.md → MLflow).',
      ),
    automaticModelRegistration: z.boolean().default(false).describe('Register logged models in the Model Registry.'),
    cluster: ClusterRefSchema.optional().describe(
      "The HyperPod cluster the server is for: the server and the role InstantStart makes for it carry that cluster's tag, and deleting the cluster deletes them. Absent: a server of the Region, which no cluster delete touches.",
    ),
    weeklyMaintenanceWindowStart: z
      .string()
      .regex(
        /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun|MON|TUE|WED|THU|FRI|SAT|SUN):([01]\d|2[0-3]):[0-5]\d$/,
        'must be DAY:HH:MM in UTC, e.g. TUE:03:30',
      )
      .optional()
      .describe('Weekly maintenance window start, DAY:HH:MM in UTC.'),
  })
  .strict()
  .describe('Create a SageMaker managed MLflow tracking server (takes ~20 minutes to reach Created).');
export type CreateMlflowServerRequest = z.output<typeof CreateMlflowServerRequestSchema>;

export const MlflowTrackingServerViewSchema = z
  .object({
    name: z.string(),
    arn: z.string(),
    status: z
      .string()
      .describe(
        'Creating, Created, CreateFailed, Updating, Updated, Deleting, Stopping, Stopped, Starting, Started, Maintenance…, as SageMaker reports it.',
      ),
    ready: z
      .boolean()
      .describe('Whether jobs can log to it now (Created, Updated, Started or MaintenanceComplete, and active).'),
    isActive: z.string().optional().describe('Active or Inactive.'),
    size: z.string().optional(),
    mlflowVersion: z.string().optional(),
    artifactStoreUri: z.string().optional(),
    roleArn: z.string().optional(),
    url: z.string().optional().describe('The MLflow UI (sign in through a presigned URL).'),
    createdAt: z.string().optional(),
    lastModifiedAt: z.string().optional(),
  })
  .describe('A SageMaker managed MLflow tracking server.');
export type MlflowTrackingServerView = z.infer<typeof MlflowTrackingServerViewSchema>;

export const MlflowServerListSchema = z.object({
  region: z.string(),
  servers: z.array(MlflowTrackingServerViewSchema).describe('Newest first.'),
});

/** SageMaker's statuses in which a server takes MLflow calls. */
export const MLFLOW_READY_STATUSES = ['Created', 'Updated', 'Started', 'MaintenanceComplete'] as const;

/**
 * SageMaker's statuses that are on the way to another (TrackingServerStatus in the SageMaker API model,
 * @aws-sdk/client-sagemaker): each ends in its done status (Created, Updated, Started, Stopped,
 * MaintenanceComplete, or gone after Deleting) or its failure (CreateFailed, UpdateFailed, …).
 * A wait for a server waits while its status is one of these.
 */
export const MLFLOW_TRANSITIONAL_STATUSES = [
  'Creating',
  'Updating',
  'Starting',
  'Stopping',
  'Deleting',
  'MaintenanceInProgress',
] as const;

export const LinkMlflowServerRequestSchema = z
  .object({
    region: RegionSchema.optional(),
    trackingServerArn: MlflowTrackingServerArnSchema.nullable().describe(
      "The server this cluster's jobs report to by default; null unlinks.",
    ),
  })
  .strict()
  .describe("Make a tracking server the cluster's default for training jobs (a submit may still name another).");

export const DeleteMlflowServerQuerySchema = z
  .object({
    region: RegionSchema.optional(),
    confirm: z
      .literal(
        'true',
        'must be true: deleting a tracking server deletes its experiments, runs and metrics (the artifacts in S3 stay)',
      )
      .describe(
        'Must be "true": SageMaker deletes the server with its experiments, runs and metrics; the artifact store in S3 stays.',
      ),
  })
  .strict();

export const DeleteMlflowServerAnswerSchema = z
  .object({
    server: z.string(),
    region: z.string(),
    deleted: z.boolean().describe('False when there was no such server.'),
    status: z
      .string()
      .optional()
      .describe(
        'Its status after the call (Deleting: SageMaker removes it over a few minutes; gone from the list after).',
      ),
    unlinkedClusters: z
      .array(z.string())
      .describe('Clusters whose default server it was: their jobs now report to none unless a submit names a server.'),
    deletedRole: z
      .string()
      .optional()
      .describe('The IAM role InstantStart had made for the server (tagged as its own), deleted with it.'),
  })
  .describe('The tracking server being deleted.');
export type DeleteMlflowServerAnswer = z.infer<typeof DeleteMlflowServerAnswerSchema>;
