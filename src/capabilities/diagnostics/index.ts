import { defineCapability } from '../capability.js';
import { readPortOf } from './read-port.js';
import { registerDiagnosticsRoutes } from './routes.js';
import { DiagnosticsService } from './service.js';
import { registerDiagnoseClusterCreationTool } from './tools/diagnose-cluster-creation.js';
import { registerDiagnoseNcclTool } from './tools/diagnose-nccl.js';
import { registerDiagnoseNodeTool } from './tools/diagnose-node.js';

/**
 * Read-only diagnostics (issue 29): why a cluster's create failed, a node's health and its escalation step, what stops a training job's NCCL traffic. The
 * service gets the read port only (read-port.ts): GET routes, read-only tools, suggestions as text.
 */
export const diagnostics = defineCapability<DiagnosticsService>({
  name: 'diagnostics',
  service: (deps) => new DiagnosticsService(readPortOf(deps)),
  routes: registerDiagnosticsRoutes,
  tools: [registerDiagnoseClusterCreationTool, registerDiagnoseNodeTool, registerDiagnoseNcclTool],
});

export type { DiagnosticsKubeReads, DiagnosticsReadPort } from './read-port.js';
export type { DiagnosticsService };
