// minimal: replaced by the training capability at merge
import { defineCapability } from '../capability.js';
import { JobLogs } from './logs/job-logs.js';
import { registerJobLogRoutes } from './logs/routes.js';
import { registerGetJobLogsTool } from './tools/get-job-logs.js';

/** Only the job logs (REST tail and download, the follow WebSocket, get_job_logs) until the training capability lands. */
export const training = defineCapability<JobLogs>({
  name: 'training',
  service: (deps) => new JobLogs(deps),
  routes: registerJobLogRoutes,
  tools: [registerGetJobLogsTool],
});
