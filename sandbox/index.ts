/** The sandbox cloud: a local AWS at the wire level. Product code never imports this. */
export { startSandbox, type RunningSandbox, type SandboxOptions } from './server.js';
export {
  SANDBOX_ACCESS_KEY_ID,
  SANDBOX_SECRET_ACCESS_KEY,
  SANDBOX_ACCOUNT_ID,
  SANDBOX_DEFAULT_REGION,
} from './core/credentials.js';
export { sandboxEnvironment } from './environment.js';
