import { defineCapability } from '../capability.js';
import { registerTrainingRoutes } from './routes.js';
import { TrainingService } from './service.js';
import { registerDeleteJobTool } from './tools/delete-job.js';
import { registerGetJobMetricsTool } from './tools/get-job-metrics.js';
import { registerGetJobTool } from './tools/get-job.js';
import { registerListJobsTool } from './tools/list-jobs.js';
import { registerListRecipesTool } from './tools/list-recipes.js';
import { registerCreateMlflowServerTool, registerListMlflowServersTool } from './tools/mlflow-servers.js';
import { registerSubmitTrainingJobTool } from './tools/submit-training-job.js';

/**
 * Training jobs (docs/TRAINING.md): recipes, HyperPodPyTorchJobs and RayJobs submitted at once and
 * read live, templates per cluster, SageMaker managed MLflow servers and a job's metrics. No
 * workflows: a submit is one server-side apply, and what follows is Kubernetes' and SageMaker's state.
 */
export const training = defineCapability<TrainingService>({
  name: 'training',
  service: (deps) => new TrainingService(deps),
  routes: registerTrainingRoutes,
  tools: [
    registerListRecipesTool,
    registerSubmitTrainingJobTool,
    registerListJobsTool,
    registerGetJobTool,
    registerGetJobMetricsTool,
    registerDeleteJobTool,
    registerListMlflowServersTool,
    registerCreateMlflowServerTool,
  ],
});
