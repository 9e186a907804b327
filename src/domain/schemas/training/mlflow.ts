import { z } from 'zod';
import { RegionSchema } from '../common.js';
import { MlflowTrackingServerArnSchema } from '../mlflow.js';

/**
 * MLflow as training uses it: a job's link to a tracking server, the metrics read back from its run,
 * and a cluster's default server. The tracking servers themselves are in ../mlflow.ts.
 */

export const MlflowLinkSchema = z
  .object({
    trackingServerArn: MlflowTrackingServerArnSchema,
    experimentName: z
      .string()
      .min(1)
      .max(256)
      .optional()
      .describe('MLflow experiment (MLFLOW_EXPERIMENT_NAME); default: the job name.'),
  })
  .strict()
  .describe(
    'Report metrics to a managed MLflow tracking server. MLFLOW_TRACKING_URI is its ARN, the ' +
      'run is named after the job. The image needs mlflow and sagemaker-mlflow; the pods need permission ' +
      'to log (docs/TRAINING.md → MLflow).',
  );

export const TrainingMetricsQuerySchema = z
  .object({
    region: RegionSchema.optional(),
    metrics: z
      .string()
      .regex(/^[A-Za-z0-9_./\- ]+(,[A-Za-z0-9_./\- ]+)*$/, 'must be metric names separated by commas')
      .optional()
      .describe('Comma-separated metric names. Default: loss, throughput, learning_rate (what the recipes report).'),
    maxPoints: z.coerce
      .number()
      .int()
      .min(10)
      .max(100_000)
      .default(5000)
      .describe('At most this many points per series (evenly thinned, last point kept).'),
  })
  .strict();

export const MetricPointSchema = z.object({
  step: z.number().int(),
  value: z.number(),
  timestamp: z.number().int().describe('Milliseconds since the epoch, as MLflow records it.'),
});

export const TrainingMetricsAnswerSchema = z
  .object({
    job: z.string(),
    source: z
      .enum(['mlflow', 'none'])
      .describe("mlflow: read from the job's MLflow run; none: the job reports to no tracking server."),
    trackingServerArn: z.string().optional(),
    runId: z.string().optional().describe('The MLflow run (named after the job).'),
    series: z
      .array(z.object({ metric: z.string(), points: z.array(MetricPointSchema).describe('By step.') }))
      .describe('One series per metric.'),
  })
  .describe("A job's metric history: throughput, loss, learning rate per step.");
export type TrainingMetricsAnswer = z.infer<typeof TrainingMetricsAnswerSchema>;

export const ClusterMlflowSchema = z
  .object({
    cluster: z.string(),
    region: z.string(),
    trackingServerArn: z
      .string()
      .nullable()
      .describe("The tracking server the cluster's jobs report to when a submit names none; null: none."),
  })
  .describe("A cluster's default MLflow tracking server.");
