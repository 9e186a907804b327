import { missingAttributes } from '../../../../cloud/aws/network-attributes.js';
import { NetworkAdapter, type ClusterNetwork, type NetworkPlan } from '../../../../cloud/aws/network.js';
import { planBaseNetwork } from '../../../../domain/network/base-plan.js';
import { placeComputeSubnet } from '../../../../domain/network/capacity-placement.js';
import { InputError } from '../../../../domain/errors.js';
import { describeMissing } from '../../../../domain/network/completeness.js';
import type { PhaseContext, PhaseDefinition } from '../../../../engine/workflow.js';
import type { WorkflowDeps } from '../../../../workflows/context.js';
import type { CreateClusterInput, CreateClusterState } from './types.js';

type Ctx = PhaseContext<CreateClusterInput, CreateClusterState>;
const VPC_CIDR = '10.0.0.0/16';

/**
 * EKS needs subnets in two zones; HyperPod nodes go to the /20 compute subnet in the zone the user
 * chose. The second zone is the first other available zone AWS lists (never a hard-coded name).
 */
async function zonesFor(deps: WorkflowDeps, ctx: Ctx): Promise<string[]> {
  if (ctx.state.zones) return ctx.state.zones;
  const { region, availabilityZone } = ctx.input;
  const available = await deps.cloud.network.availableZones(region);
  if (!available.includes(availabilityZone))
    throw InputError.field(
      'availabilityZone',
      `${availabilityZone} is not an available zone of ${region} (available: ${available.join(', ')})`,
    );
  const other = available.find((z) => z !== availabilityZone);
  if (!other)
    throw InputError.field(
      'availabilityZone',
      `${region} has no second available zone; EKS needs subnets in two zones`,
    );
  const zones = [availabilityZone, other];
  ctx.setState({ zones });
  return zones;
}

/** The subnets to have: the fixed base plan plus the compute /20 from the one capacity-placement function. */
export function networkPlan(zones: string[], existing: ClusterNetwork): NetworkPlan {
  const base = planBaseNetwork({ vpcCidr: existing.vpcCidr ?? VPC_CIDR, zones });
  const subnets: NetworkPlan['subnets'] = [
    ...base.public.map((s) => ({ cidr: s.cidr, zone: s.zone, role: 'public' as const })),
    ...base.private.map((s) => ({ cidr: s.cidr, zone: s.zone, role: 'private' as const })),
  ];
  const placement = placeComputeSubnet({
    vpcCidr: base.vpcCidr,
    zone: zones[0]!,
    existing: [
      ...existing.subnets,
      ...subnets.filter((p) => !existing.subnets.some((s) => s.cidr === p.cidr)).map((p) => ({ subnetId: '', ...p })),
    ],
  });
  subnets.push({ cidr: placement.cidr, zone: zones[0]!, role: 'compute' });
  return { vpcCidr: base.vpcCidr, subnets };
}

function record(ctx: Ctx, net: ClusterNetwork, zones: string[]): void {
  const ids = (role: string) => net.subnets.filter((s) => s.role === role).map((s) => s.subnetId);
  const compute = net.subnets.find((s) => s.role === 'compute' && s.zone === zones[0]);
  ctx.setState({
    vpcId: net.vpcId,
    subnets: { public: ids('public'), private: ids('private'), compute: compute?.subnetId ?? '' },
    securityGroupId: net.securityGroupId,
    natGatewayId: net.natGatewayId,
  });
}

/** Makes whatever of the network is missing (finding what exists first) and records its ids. */
export async function ensureNetwork(deps: WorkflowDeps, ctx: Ctx): Promise<void> {
  const zones = await zonesFor(deps, ctx);
  const existing = await deps.cloud.network.find(ctx.input.region, ctx.input.name);
  const net = await deps.cloud.network.ensure(ctx.input.region, ctx.input.name, networkPlan(zones, existing), (m) =>
    ctx.log(m),
  );
  record(ctx, net, zones);
}

/**
 * Everything is made and the NAT gateway is requested: done here. Waiting for the NAT gateway is the
 * nat-ready phase's, so that EKS (which needs the subnets and the security group, not the NAT
 * gateway) is created meanwhile.
 */
export function networkPhase(deps: WorkflowDeps): PhaseDefinition<CreateClusterInput, CreateClusterState> {
  return {
    name: 'network',
    title: 'Network: VPC, subnets in two zones, gateways, routes, security group, S3 endpoint',
    expectedSeconds: 30,
    deadline: { actSeconds: 600, waitSeconds: 300 }, // act: a dozen EC2 creates, each seconds; nothing long to wait for
    async observe(ctx) {
      const zones = await zonesFor(deps, ctx);
      const net = await deps.cloud.network.find(ctx.input.region, ctx.input.name);
      if (!net.vpcId) return 'needs-act';
      const plan = networkPlan(zones, net);
      const made =
        NetworkAdapter.isComplete({ ...net, natGatewayState: 'available' }, plan) &&
        (net.natGatewayState === 'pending' || net.natGatewayState === 'available');
      if (made) {
        record(ctx, net, zones);
        return 'done';
      }
      // Pieces that exist but lack an attribute (a create whose attribute change never ran): act finishes them.
      const unfinished = missingAttributes(net);
      if (unfinished.length) ctx.log(`Incomplete: ${unfinished.map(describeMissing).join('; ')}`);
      return 'needs-act';
    },
    act: (ctx) => ensureNetwork(deps, ctx),
  };
}
