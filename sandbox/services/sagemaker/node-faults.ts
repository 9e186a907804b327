import type { NodeFaultApplier } from '../../core/faults.js';
import type { SandboxRuntime } from '../../core/service.js';
import { markFault } from './node-lifecycle.js';
import { findCluster, hyperpodRegions, type StoredCluster } from './state.js';

/**
 * The admin API's `node-fault`: what HyperPod's health-monitoring agent does when it finds a bad
 * GPU. The node gets the health label and fault reason; with NodeRecovery Automatic HyperPod then
 * reboots or replaces it, with None it stays labelled. A fault naming no running node is refused.
 */
export function nodeFaultApplier(runtime: SandboxRuntime): NodeFaultApplier {
  return (fault) => {
    const state = runtime.store.state;
    const regions = fault.region ? [fault.region] : hyperpodRegions(state).map(([region]) => region);
    const found = regions
      .map((region) => findCluster(state, region, fault.cluster))
      .filter((c): c is StoredCluster => c !== undefined);
    if (found.length === 0)
      throw new Error(`node-fault: no HyperPod cluster '${fault.cluster}'${fault.region ? ` in ${fault.region}` : ''}`);
    if (found.length > 1)
      throw new Error(`node-fault: HyperPod cluster '${fault.cluster}' exists in several regions; give region`);
    const cluster = found[0]!;
    const node = cluster.nodes.find((n) => n.instanceId === fault.instanceId && !n.terminating);
    if (!node)
      throw new Error(`node-fault: instance ${fault.instanceId} is not a node of HyperPod cluster '${cluster.name}'`);
    if (node.status !== 'Running' || node.phase !== undefined) {
      throw new Error(`node-fault: instance ${fault.instanceId} is ${node.status}; only Running nodes can be faulted`);
    }
    markFault(cluster, node, fault.health, fault.reason, runtime.clock.now(), cluster.nodeRecovery === 'Automatic');
    runtime.store.markDirty();
  };
}
