import type { CloudPort } from '../cloud/ports.js';

/** The selection of the active cluster lives in the server's store; workflows reach it through this port. */
export interface ActiveClusterPort {
  get(): { name: string; region: string } | undefined;
  set(value: { name: string; region: string } | undefined): void;
}

/** What every workflow is built with. */
export interface WorkflowDeps {
  cloud: CloudPort;
  activeCluster: ActiveClusterPort;
}
