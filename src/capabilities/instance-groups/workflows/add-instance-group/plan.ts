import type { ClusterNetwork, PricingPort } from '../../../../cloud/ports.js';
import { PreconditionError } from '../../../../domain/errors.js';
import { hourlyCost } from '../../../../domain/hourly-cost.js';
import { placeComputeSubnet } from '../../../../domain/network/capacity-placement.js';
import type { AddInstanceGroupInput } from '../../../../domain/schemas/instance-groups.js';
import type { HourlyCost, PlannedMutation } from '../../../../domain/schemas/plans.js';
import type { WorkflowDeps } from '../../../../workflows/context.js';

type Mutation = Omit<PlannedMutation, 'phase' | 'phaseTitle'>;

/** What the planners of add-instance-group read: the cluster's network as the placement phase finds it. */
export interface AddGroupPlanFacts {
  input: AddInstanceGroupInput;
  network: ClusterNetwork;
}

/**
 * Each phase of add-instance-group by name (docs/PLAN.md): placement reuses the zone's /20 compute subnet or makes
 * the one placeComputeSubnet picks (the network adapter creates it and routes it through the NAT gateway);
 * instance-group adds the group with UpdateCluster.
 */
export const ADD_GROUP_PHASE_PLANNERS: Record<string, (f: AddGroupPlanFacts) => Mutation[]> = {
  placement: ({ input, network }): Mutation[] => {
    if (network.subnets.some((s) => s.role === 'compute' && s.zone === input.availabilityZone)) return [];
    const placement = placeComputeSubnet({
      vpcCidr: network.vpcCidr!,
      zone: input.availabilityZone,
      existing: network.subnets,
    });
    if (placement.kind !== 'create') return [];
    return [
      {
        service: 'ec2',
        operation: 'CreateSubnet',
        resource: 'subnet',
        name: `${input.cluster}-compute`,
        details: { cidr: placement.cidr, zone: input.availabilityZone, role: 'compute' },
      },
      {
        service: 'ec2',
        operation: 'AssociateRouteTable',
        resource: 'route table association',
        name: `${input.cluster}-private-routes`,
        details: { subnet: placement.cidr },
      },
    ];
  },
  'instance-group': ({ input }) => [
    {
      service: 'sagemaker',
      operation: 'UpdateCluster',
      resource: 'HyperPod instance group',
      name: input.name,
      details: {
        cluster: input.cluster,
        instanceGroup: `${input.instanceCount} × ${input.instanceType} (${input.capacityType}) in ${input.availabilityZone}`,
      },
    },
  ],
};

export function plannedGroupMutations(
  phases: ReadonlyArray<{ name: string; title: string }>,
  facts: AddGroupPlanFacts,
): PlannedMutation[] {
  return phases.flatMap((p) => {
    const planner = Object.hasOwn(ADD_GROUP_PHASE_PLANNERS, p.name) ? ADD_GROUP_PHASE_PLANNERS[p.name] : undefined;
    if (!planner) throw new Error(`add-instance-group phase ${p.name} has no planner (add-instance-group/plan.ts)`);
    return planner(facts).map((x) => ({ phase: p.name, phaseTitle: p.title, ...x }));
  });
}

export async function addGroupPlanFacts(deps: WorkflowDeps, input: AddInstanceGroupInput): Promise<AddGroupPlanFacts> {
  const network = await deps.cloud.network.find(input.region, input.cluster);
  if (!network.vpcId || !network.vpcCidr)
    throw new PreconditionError({
      message: `Cluster ${input.cluster} has no network made by InstantStart in ${input.region}, so there is no VPC to place the group's compute subnet in.`,
      problems: [{ path: 'cluster', message: 'must be a cluster InstantStart created' }],
    });
  return { input, network };
}

/**
 * What scaling a group from its target count to `instanceCount` changes per hour: its type's price × the difference
 * (negative when it shrinks). A training plan's instances are paid with the plan.
 */
export async function scaleCost(
  pricing: PricingPort,
  region: string,
  group: { name: string; instanceType: string; capacityType: string; targetCount: number },
  instanceCount: number,
): Promise<HourlyCost> {
  const plan = group.capacityType === 'training-plan';
  const price = plan
    ? undefined
    : await pricing.price(region, { kind: 'hyperpod-instance', instanceType: group.instanceType });
  const change = instanceCount - group.targetCount;
  return hourlyCost([
    {
      item: 'hyperpod-instance',
      description: `${group.name}: ${change > 0 ? '+' : ''}${change} × ${group.instanceType} (${group.targetCount} → ${instanceCount})`,
      quantity: change,
      price,
      ...(plan ? { missing: 'paid up front with the training plan' } : {}),
    },
  ]);
}

/** What the new group adds per hour: its instances × count. */
export async function addGroupCost(pricing: PricingPort, input: AddInstanceGroupInput): Promise<HourlyCost> {
  const plan = input.capacityType === 'training-plan';
  const price = plan
    ? undefined
    : await pricing.price(input.region, { kind: 'hyperpod-instance', instanceType: input.instanceType });
  return hourlyCost([
    {
      item: 'hyperpod-instance',
      description: `${input.name}: ${input.instanceCount} × ${input.instanceType} (${input.capacityType === 'spot' ? 'spot: on-demand price shown, spot bills less' : input.capacityType})`,
      quantity: input.instanceCount,
      price,
      ...(plan ? { missing: 'paid up front with the training plan' } : {}),
    },
  ]);
}
