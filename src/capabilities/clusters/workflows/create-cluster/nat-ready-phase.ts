import type { PhaseDefinition } from '../../../../engine/workflow.js';
import type { WorkflowDeps } from '../../../../workflows/context.js';
import { ensureNetwork } from './network-phase.js';
import type { CreateClusterInput, CreateClusterState } from './types.js';

/**
 * The NAT gateway the network phase requested becomes available (2–3 minutes on AWS). HyperPod's
 * nodes in the private subnets reach AWS through it, so the hyperpod phase needs this one; the EKS
 * control plane does not, so it is created meanwhile. A NAT gateway that failed or went away is made
 * again by act: the network's ensure finds what exists and makes only what is missing (a new NAT
 * gateway and the private route to it).
 */
export function natReadyPhase(deps: WorkflowDeps): PhaseDefinition<CreateClusterInput, CreateClusterState> {
  const stateOf = async (region: string, natGatewayId: string | undefined) =>
    natGatewayId ? deps.cloud.network.natGatewayState(region, natGatewayId) : undefined;
  return {
    name: 'nat-ready',
    title: 'NAT gateway available (the private subnets reach AWS through it)',
    expectedSeconds: 120,
    deadline: { actSeconds: 600, waitSeconds: 1800 }, // a NAT gateway is available within minutes
    async observe(ctx) {
      const state = await stateOf(ctx.input.region, ctx.state.natGatewayId);
      if (state === 'available') return 'done';
      return state === 'pending' ? 'in-progress' : 'needs-act';
    },
    act: (ctx) => ensureNetwork(deps, ctx),
    pollKey: (ctx) => `ec2:${ctx.input.region}:nat:${ctx.state.natGatewayId}`,
    async await(ctx) {
      const state = await stateOf(ctx.input.region, ctx.state.natGatewayId);
      if (state === 'failed')
        throw new Error(`NAT gateway ${ctx.state.natGatewayId} failed; retry the nat-ready phase to make a new one.`);
      return { done: state === 'available', progress: `NAT gateway ${state ?? 'not found'}` };
    },
  };
}
