import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { apiPath } from '../../../domain/api-path.js';
import {
  TrainingMetricsAnswerSchema,
  TrainingMetricsQuerySchema,
  type TrainingMetricsAnswer,
} from '../../../domain/schemas/training.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { READ_ONLY, registerRestTool } from '../../../mcp/tool-kit.js';
import { TRAINING_PATHS } from '../paths.js';
import { JobRefInput } from './get-job.js';

const fmt = (v: number) =>
  Math.abs(v) >= 1000 ? v.toFixed(0) : Math.abs(v) < 0.01 && v !== 0 ? v.toExponential(2) : v.toFixed(4);

/** `get_job_metrics` → GET /api/v1/clusters/{cluster}/jobs/{namespace}/{job}/metrics. */
export function registerGetJobMetricsTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'get_job_metrics',
    title: "Get a training job's metrics",
    description:
      "A training job's metric series (loss, tokens/s, learning_rate by step) from its MLflow run: is training progressing? None for a job submitted without mlflow.",
    input: z
      .object({
        ...JobRefInput,
        metrics: TrainingMetricsQuerySchema.shape.metrics,
        maxPoints: z
          .number()
          .int()
          .min(10)
          .max(100_000)
          .optional()
          .describe('Points per series at most. Evenly thinned, the last point kept.'),
      })
      .strict(),
    output: TrainingMetricsAnswerSchema,
    annotations: { ...READ_ONLY, openWorldHint: true },
    async run({ cluster, namespace, job, region, metrics, maxPoints }, { api, signal }) {
      const answer = await api.get<TrainingMetricsAnswer>(
        apiPath(TRAINING_PATHS.jobMetrics, { name: cluster, namespace, job }),
        { query: { region, metrics, maxPoints: maxPoints?.toString() }, signal },
      );
      if (answer.source === 'none')
        return {
          text: `${job} reports to no MLflow tracking server (submit with mlflow, or link one to the cluster), so there are no metrics.`,
          data: answer,
        };
      const lines = answer.series.map((s) => {
        const first = s.points[0];
        const last = s.points.at(-1);
        return first && last
          ? `- ${s.metric}: ${s.points.length} points, step ${first.step} → ${last.step}, ${fmt(first.value)} → ${fmt(last.value)}`
          : `- ${s.metric}: nothing logged yet`;
      });
      const head = answer.runId
        ? `Metrics of ${job} (MLflow run ${answer.runId}):`
        : `${job} has no MLflow run yet (it starts logging once rank 0 runs and the server is ready).`;
      return { text: [head, ...lines].join('\n'), data: answer };
    },
  });
}
