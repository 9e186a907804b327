import { defineCapability } from '../capability.js';
import type { TrainingPorts } from './ports.js';
import { registerJobLogRoutes } from './logs/routes.js';
import { registerTrainingRoutes } from './routes.js';
import { TrainingService } from './service.js';
import { registerDeleteJobTool } from './tools/delete-job.js';
import { registerGetJobLogsTool } from './tools/get-job-logs.js';
import { registerGetJobMetricsTool } from './tools/get-job-metrics.js';
import { registerGetJobTool } from './tools/get-job.js';
import { registerListJobsTool } from './tools/list-jobs.js';
import { registerListRecipesTool } from './tools/list-recipes.js';
import {
  registerCreateMlflowServerTool,
  registerDeleteMlflowServerTool,
  registerListMlflowServersTool,
} from './tools/mlflow-servers.js';
import { registerSubmitTrainingJobTool } from './tools/submit-training-job.js';
import { registerWaitForJobTool } from './tools/wait-for-job.js';
import { registerWaitForMlflowServerTool } from './tools/wait-for-mlflow-server.js';

/**
 * Training jobs (docs/TRAINING.md): recipes, HyperPodPyTorchJobs and RayJobs submitted at once and
 * read live, templates per cluster, SageMaker managed MLflow servers and a job's metrics, and the
 * job logs (REST tail and download, the follow WebSocket). No workflows: a submit is one server-side
 * apply, and what follows is Kubernetes' and SageMaker's state.
 */
export const training = defineCapability<TrainingService, TrainingPorts>({
  name: 'training',
  ports: {
    training: "the training templates and each cluster's default MLflow server",
    catalog: "the catalogue's instance types, which size a job's pods",
  },
  service: (deps) => new TrainingService(deps),
  routes: (r) => {
    registerTrainingRoutes(r);
    registerJobLogRoutes({ ...r, service: () => r.service().logs });
  },
  tools: [
    registerListRecipesTool,
    registerSubmitTrainingJobTool,
    registerListJobsTool,
    registerGetJobTool,
    registerWaitForJobTool,
    registerGetJobLogsTool,
    registerGetJobMetricsTool,
    registerDeleteJobTool,
    registerListMlflowServersTool,
    registerCreateMlflowServerTool,
    registerWaitForMlflowServerTool,
    registerDeleteMlflowServerTool,
  ],
});

export type { TrainingPorts, TrainingRecordsPort, TrainingTemplateRecord } from './ports.js';
