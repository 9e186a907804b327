import type { ClusterNetwork, NetworkPlan } from '../../../../cloud/ports.js';
import { CloudError, PreconditionError } from '../../../../domain/errors.js';
import { instanceGroupTarget } from '../../../../domain/naming.js';
import { placeComputeSubnet } from '../../../../domain/network/capacity-placement.js';
import type { AddInstanceGroupInput } from '../../../../domain/schemas/instance-groups.js';
import type { PhaseContext, PhaseDefinition } from '../../../../engine/workflow.js';
import type { WorkflowDeps } from '../../../../workflows/context.js';
import { checkCapacity, eventMark } from '../../../../workflows/capacity-watch.js';
import { clusterChangeLocks, defineWorkflow, type KindWorkflow } from '../../../../workflows/define.js';
import { instanceGroupSpec } from '../../../../workflows/instance-group-spec.js';

export type { AddInstanceGroupInput };
export interface AddInstanceGroupState {
  vpcId?: string;
  computeSubnetId?: string;
  securityGroupId?: string;
  capacityEventMark?: number;
}
type Ctx = PhaseContext<AddInstanceGroupInput, AddInstanceGroupState>;
type Phase = PhaseDefinition<AddInstanceGroupInput, AddInstanceGroupState>;

async function clusterNetwork(deps: WorkflowDeps, ctx: Ctx): Promise<ClusterNetwork> {
  const net = await deps.cloud.network.find(ctx.input.region, ctx.input.cluster);
  if (!net.vpcId || !net.securityGroupId) {
    throw new PreconditionError({
      message: `Cluster ${ctx.input.cluster} has no network made by InstantStart in ${ctx.input.region}, so there is no VPC to place the group's compute subnet in.`,
      problems: [{ path: 'cluster', message: 'must be a cluster InstantStart created' }],
    });
  }
  return net;
}

/**
 * Every capacity path (on-demand, spot, training plan) places its group here: the /20 compute
 * subnet of the zone is reused when it exists, else the one capacity-placement function picks the
 * lowest free /20 of the VPC, which is created, tagged and routed through the NAT gateway.
 */
function placementPhase(deps: WorkflowDeps): Phase {
  const computeIn = (net: ClusterNetwork, zone: string) =>
    net.subnets.find((s) => s.role === 'compute' && s.zone === zone);
  return {
    name: 'placement',
    title: 'Compute subnet (/20) in the chosen zone',
    expectedSeconds: 10,
    deadline: { actSeconds: 300, waitSeconds: 300 }, // one subnet
    async observe(ctx) {
      const net = await clusterNetwork(deps, ctx);
      const compute = computeIn(net, ctx.input.availabilityZone);
      if (!compute) return 'needs-act';
      ctx.setState({ vpcId: net.vpcId, computeSubnetId: compute.subnetId, securityGroupId: net.securityGroupId });
      ctx.log(`Using compute subnet ${compute.subnetId} (${compute.cidr}) in ${compute.zone}`);
      return 'done';
    },
    async act(ctx) {
      const net = await clusterNetwork(deps, ctx);
      const placement = placeComputeSubnet({
        vpcCidr: net.vpcCidr!,
        zone: ctx.input.availabilityZone,
        existing: net.subnets,
      });
      const keep = net.subnets
        .filter((s) => s.role !== 'other')
        .map((s) => ({ cidr: s.cidr, zone: s.zone, role: s.role as NetworkPlan['subnets'][number]['role'] }));
      const plan: NetworkPlan = {
        vpcCidr: net.vpcCidr!,
        subnets:
          placement.kind === 'create'
            ? [...keep, { cidr: placement.cidr, zone: ctx.input.availabilityZone, role: 'compute' }]
            : keep,
      };
      const after = await deps.cloud.network.ensure(ctx.input.region, ctx.input.cluster, plan, (m) => ctx.log(m));
      const compute = computeIn(after, ctx.input.availabilityZone)!;
      ctx.setState({ vpcId: after.vpcId, computeSubnetId: compute.subnetId, securityGroupId: after.securityGroupId });
    },
  };
}

function groupPhase(deps: WorkflowDeps): Phase {
  const group = async (ctx: Ctx) => {
    const c = await deps.cloud.hyperpod.describe(ctx.input.region, ctx.input.cluster);
    if (!c)
      throw new PreconditionError({
        message: `HyperPod cluster ${ctx.input.cluster} does not exist in ${ctx.input.region}.`,
        problems: [{ path: 'cluster', message: 'no such cluster' }],
      });
    return { cluster: c, group: c.InstanceGroups?.find((g) => g.InstanceGroupName === ctx.input.name) };
  };
  const ready = (g: { Status?: string; CurrentCount?: number; TargetCount?: number }) =>
    g.Status === 'InService' && (g.CurrentCount ?? 0) >= (g.TargetCount ?? 0);
  return {
    name: 'instance-group',
    title: 'HyperPod instance group',
    expectedSeconds: 600,
    deadline: { actSeconds: 300, waitSeconds: 21_600 }, // big groups with deep health checks run for hours; no capacity fails sooner (capacity-watch.ts)
    async observe(ctx) {
      const { group: g } = await group(ctx);
      if (!g) return 'needs-act';
      return ready(g) ? 'done' : 'in-progress';
    },
    async act(ctx) {
      const { cluster } = await group(ctx);
      // New groups run with the cluster's execution role: one role per cluster keeps its trust simple.
      const executionRole = cluster.InstanceGroups?.[0]?.ExecutionRole;
      if (!executionRole)
        throw new PreconditionError({
          message: `Cluster ${ctx.input.cluster} has no instance group whose execution role a new group could use.`,
        });
      const spec = instanceGroupSpec(ctx.input, executionRole, {
        subnetId: ctx.state.computeSubnetId!,
        securityGroupId: ctx.state.securityGroupId!,
      });
      ctx.setState({ capacityEventMark: await eventMark(deps.cloud, ctx.input.region, ctx.input.cluster) });
      await deps.cloud.hyperpodGroups.putGroups(ctx.input.region, ctx.input.cluster, [spec]);
      ctx.log(
        `Requested instance group ${ctx.input.name}: ${ctx.input.instanceCount} × ${ctx.input.instanceType} (${ctx.input.capacityType}) in ${ctx.input.availabilityZone}`,
      );
    },
    pollKey: (ctx) => `sagemaker:${ctx.input.region}:cluster:${ctx.input.cluster}`,
    async await(ctx) {
      const { cluster, group: g } = await group(ctx);
      if (!g) {
        if (cluster.ClusterStatus === 'InService')
          throw new CloudError({
            service: 'sagemaker',
            operation: 'UpdateCluster',
            code: 'InstanceGroupMissing',
            message: `HyperPod finished updating ${ctx.input.cluster} without group ${ctx.input.name}${cluster.FailureMessage ? `: ${cluster.FailureMessage}` : ''}.`,
          });
        return { done: false, progress: `HyperPod ${cluster.ClusterStatus}` };
      }
      if (g.Status === 'Failed')
        throw new CloudError({
          service: 'sagemaker',
          operation: 'UpdateCluster',
          code: 'InstanceGroupFailed',
          message: `Instance group ${ctx.input.name} failed${cluster.FailureMessage ? `: ${cluster.FailureMessage}` : ''}.`,
        });
      const waiting = ready(g)
        ? ''
        : await checkCapacity(
            deps.cloud,
            ctx.input.region,
            ctx.input.cluster,
            ctx.input.name,
            ctx.state.capacityEventMark ?? 0,
            'UpdateCluster',
            () => removeHalfMadeGroup(deps, ctx),
          );
      return {
        done: ready(g),
        progress: `${ctx.input.name} ${g.Status} ${g.CurrentCount ?? 0}/${g.TargetCount ?? 0} nodes${waiting}`,
      };
    },
  };
}

/** No capacity: the group this operation added goes again, so no half-made group keeps HyperPod retrying. */
async function removeHalfMadeGroup(deps: WorkflowDeps, ctx: Ctx): Promise<string> {
  await deps.cloud.hyperpodGroups.deleteGroups(ctx.input.region, ctx.input.cluster, [ctx.input.name]);
  ctx.log(
    `No capacity for ${ctx.input.name}: removing the group (UpdateCluster InstanceGroupsToDelete) so nothing is left half-made`,
  );
  return (
    `The group '${ctx.input.name}' is being removed, so nothing is left half-made (its zone's compute subnet stays for later groups). ` +
    'Add it again in another Availability Zone, with another instance type, or on a training plan (list_training_plans).'
  );
}

/** add-instance-group: placement (/20 compute subnet) → instance-group (UpdateCluster, polled until its nodes run). */
export function addInstanceGroupWorkflow(
  deps: WorkflowDeps,
): KindWorkflow<'add-instance-group', AddInstanceGroupState> {
  return defineWorkflow('add-instance-group', {
    target: (input) => instanceGroupTarget(input.region, input.cluster, input.name),
    locks: (input) => clusterChangeLocks(input.region, input.cluster),
    initialState: () => ({}),
    phases: [placementPhase(deps), groupPhase(deps)],
    result: (state, input) => ({
      cluster: input.cluster,
      instanceGroup: input.name,
      availabilityZone: input.availabilityZone,
      computeSubnetId: state.computeSubnetId,
    }),
  });
}
