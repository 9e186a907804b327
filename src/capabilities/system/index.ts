import { defineCapability } from '../capability.js';
import { registerSystemRoutes } from './routes.js';
import { registerGetServerInfoTool } from './tools/get-server-info.js';

/** Liveness, which cloud and account the server acts in, and the credential check. */
export const system = defineCapability({
  name: 'system',
  routes: registerSystemRoutes,
  tools: [registerGetServerInfoTool],
});
