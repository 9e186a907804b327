import { defineCapability } from '../capability.js';
import { registerOperationRoutes } from './routes.js';
import { registerCancelOperationTool } from './tools/cancel-operation.js';
import { registerGetOperationLogsTool } from './tools/get-operation-logs.js';
import { registerGetOperationTool } from './tools/get-operation.js';
import { registerListOperationsTool } from './tools/list-operations.js';
import { registerRetryOperationPhaseTool } from './tools/retry-operation-phase.js';
import { registerWaitForOperationTool } from './tools/wait-for-operation.js';

/** The durable operations every other capability starts: status, logs, wait, retry a phase, cancel. */
export const operations = defineCapability({
  name: 'operations',
  routes: registerOperationRoutes,
  tools: [
    registerGetOperationTool,
    registerListOperationsTool,
    registerWaitForOperationTool,
    registerRetryOperationPhaseTool,
    registerCancelOperationTool,
    registerGetOperationLogsTool,
  ],
});
