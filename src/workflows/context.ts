import type { CloudPort } from '../cloud/ports.js';

/**
 * What every workflow is built with. A capability whose workflows need more (a store of the server's database) declares
 * its own ports (src/capabilities/capability.ts → `ports`) and its workflows take `WorkflowDeps &` those.
 */
export interface WorkflowDeps {
  cloud: CloudPort;
}
