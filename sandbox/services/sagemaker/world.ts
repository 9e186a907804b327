import type { FaultRegistry } from '../../core/faults.js';
import type { SandboxState } from '../../core/store.js';

/** What HyperPod's controller needs to act in one region: the state, and the fault registry (capacity). */
export interface World {
  state: SandboxState;
  region: string;
  faults: FaultRegistry;
}
