import type { Log } from './log.js';

/** Removing a cluster's network (EC2) in the order AWS allows, over as many calls as it takes. */
export interface NetworkTeardownPort {
  startTeardown(region: string, cluster: string, log: Log): Promise<void>;
  /** What still exists; empty when the network is gone. */
  finishTeardown(region: string, cluster: string, log: Log): Promise<string[]>;
}
