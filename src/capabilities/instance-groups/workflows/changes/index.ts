import type { HyperPodGroupDetails } from '../../../../cloud/ports.js';
import { CloudError, NotFoundError } from '../../../../domain/errors.js';
import { instanceGroupTarget } from '../../../../domain/naming.js';
import type { ScaleInstanceGroupInput } from '../../../../domain/schemas/instance-groups.js';
import type { PhaseContext, PhaseDefinition } from '../../../../engine/workflow.js';
import type { WorkflowDeps } from '../../../../workflows/context.js';
import { checkCapacity, eventMark } from '../../../../workflows/capacity-watch.js';
import { describeHyperPod } from '../../../../workflows/cluster-access.js';
import { clusterChangeLocks, defineWorkflow, type KindWorkflow } from '../../../../workflows/define.js';
import { specFromDetails } from '../../../../workflows/instance-group-spec.js';

export type { ScaleInstanceGroupInput };
export interface GroupRef {
  cluster: string;
  region: string;
  name: string;
}
type Empty = Record<string, never>;
export interface ScaleState {
  capacityEventMark?: number;
  /** The group's target before this operation raised it: what a give-up restores. */
  previousTarget?: number;
}

const groupTarget = (g: GroupRef) => instanceGroupTarget(g.region, g.cluster, g.name);

export async function describeGroup(
  deps: WorkflowDeps,
  g: GroupRef,
): Promise<{ continuous: boolean; group?: HyperPodGroupDetails; clusterStatus?: string }> {
  const c = await describeHyperPod(deps.cloud, g.region, g.cluster);
  return {
    continuous: c.NodeProvisioningMode === 'Continuous',
    group: c.InstanceGroups?.find((x) => x.InstanceGroupName === g.name),
    clusterStatus: c.ClusterStatus,
  };
}

const counts = (g: HyperPodGroupDetails) => `${g.CurrentCount ?? 0}/${g.TargetCount ?? 0} nodes`;

/**
 * Scale: a no-op (no AWS mutation at all) when the group already has the requested target; growth
 * of a Continuous-mode cluster goes through BatchAddClusterNodes, everything else through
 * UpdateCluster restating the group as HyperPod describes it with the new count.
 */
export function scalePhase<I extends ScaleInstanceGroupInput, S extends ScaleState>(
  deps: WorkflowDeps,
): PhaseDefinition<I, S> {
  return {
    name: 'scale',
    title: 'Scale the instance group',
    expectedSeconds: 420,
    deadline: { actSeconds: 300, waitSeconds: 21_600 }, // new nodes' deep health checks run for hours; no capacity fails sooner (capacity-watch.ts)
    async observe(ctx) {
      const { group } = await describeGroup(deps, ctx.input);
      if (!group)
        throw new NotFoundError({
          resource: 'instance group',
          id: ctx.input.name,
          message: `Cluster ${ctx.input.cluster} has no instance group '${ctx.input.name}'.`,
        });
      if (ctx.input.instanceCount === undefined) return 'done';
      if ((group.TargetCount ?? 0) !== ctx.input.instanceCount) return 'needs-act';
      return group.CurrentCount === ctx.input.instanceCount && group.Status === 'InService' ? 'done' : 'in-progress';
    },
    async act(ctx: PhaseContext<I, S>) {
      const { group, continuous } = await describeGroup(deps, ctx.input);
      ctx.setState({
        capacityEventMark: await eventMark(deps.cloud, ctx.input.region, ctx.input.cluster),
        previousTarget: group!.TargetCount ?? 0,
      } as Partial<S>);
      const wanted = ctx.input.instanceCount!;
      const target = group!.TargetCount ?? 0;
      const delta = wanted - target;
      if (delta > 0 && continuous) {
        const r = await deps.cloud.hyperpodGroups.addNodes(
          ctx.input.region,
          ctx.input.cluster,
          ctx.input.name,
          delta,
          ctx.operationId.slice(-36),
        );
        const failed = r.Failed?.[0];
        if (failed)
          throw new CloudError({
            service: 'sagemaker',
            operation: 'BatchAddClusterNodes',
            code: failed.ErrorCode ?? 'AddNodesFailed',
            message: failed.Message ?? `HyperPod refused to add ${delta} nodes to ${ctx.input.name}.`,
          });
        ctx.log(`Adding ${delta} node(s) to ${ctx.input.name} (BatchAddClusterNodes): ${target} → ${wanted}`);
        return;
      }
      await deps.cloud.hyperpodGroups.putGroups(ctx.input.region, ctx.input.cluster, [
        specFromDetails(group!, { InstanceCount: wanted }),
      ]);
      ctx.log(`Scaling ${ctx.input.name} (UpdateCluster): ${target} → ${wanted}`);
    },
    pollKey: (ctx) => `sagemaker:${ctx.input.region}:cluster:${ctx.input.cluster}`,
    async await(ctx) {
      const { group } = await describeGroup(deps, ctx.input);
      if (!group)
        throw new CloudError({
          service: 'sagemaker',
          operation: 'DescribeCluster',
          code: 'InstanceGroupMissing',
          message: `Instance group ${ctx.input.name} disappeared while scaling.`,
        });
      if (group.Status === 'Failed')
        throw new CloudError({
          service: 'sagemaker',
          operation: 'UpdateCluster',
          code: 'InstanceGroupFailed',
          message: `Instance group ${ctx.input.name} failed while scaling.`,
        });
      const wanted = ctx.input.instanceCount ?? group.TargetCount ?? 0;
      const done = group.Status === 'InService' && group.CurrentCount === wanted;
      const growing = (group.CurrentCount ?? 0) < wanted;
      const waiting =
        !done && growing
          ? await checkCapacity(
              deps.cloud,
              ctx.input.region,
              ctx.input.cluster,
              ctx.input.name,
              ctx.state.capacityEventMark ?? 0,
              'UpdateCluster',
              () => restoreTarget(deps, ctx),
            )
          : '';
      return { done, progress: `${ctx.input.name} ${group.Status} ${counts(group)}${waiting}` };
    },
  };
}

/** No capacity for the growth: the group's target goes back to what it was, so HyperPod stops retrying. */
async function restoreTarget<I extends ScaleInstanceGroupInput, S extends ScaleState>(
  deps: WorkflowDeps,
  ctx: PhaseContext<I, S>,
): Promise<string> {
  const previous = ctx.state.previousTarget;
  const { group } = await describeGroup(deps, ctx.input);
  if (previous === undefined || !group)
    return 'HyperPod keeps retrying in the background: scale the group down to stop.';
  await deps.cloud.hyperpodGroups.putGroups(ctx.input.region, ctx.input.cluster, [
    specFromDetails(group, { InstanceCount: previous }),
  ]);
  ctx.log(`No capacity for ${ctx.input.name}: target set back to ${previous} so nothing is left half-made`);
  return `The group's target is set back to ${previous}, so nothing is left half-made. Add a group in another Availability Zone, with another instance type, or on a training plan instead.`;
}

function deleteGroupPhase(deps: WorkflowDeps): PhaseDefinition<GroupRef, Empty> {
  return {
    name: 'delete-group',
    title: 'Delete the instance group and its nodes',
    expectedSeconds: 240,
    deadline: { actSeconds: 300, waitSeconds: 3600 }, // HyperPod drains and deletes the group's nodes
    async observe(ctx) {
      const { group } = await describeGroup(deps, ctx.input);
      if (!group) return 'done';
      return group.Status === 'Deleting' ? 'in-progress' : 'needs-act';
    },
    async act(ctx) {
      await deps.cloud.hyperpodGroups.deleteGroups(ctx.input.region, ctx.input.cluster, [ctx.input.name]);
      ctx.log(`Deleting instance group ${ctx.input.name}`);
    },
    pollKey: (ctx) => `sagemaker:${ctx.input.region}:cluster:${ctx.input.cluster}`,
    async await(ctx) {
      const { group } = await describeGroup(deps, ctx.input);
      return {
        done: !group,
        progress: group ? `${ctx.input.name} ${group.Status} ${counts(group)}` : `${ctx.input.name} gone`,
      };
    },
  };
}

/** Every change of a group holds the cluster shared and its UpdateCluster channel alone. */
export const groupChangeLocks = (g: GroupRef) => clusterChangeLocks(g.region, g.cluster);

export function scaleInstanceGroupWorkflow(deps: WorkflowDeps): KindWorkflow<'scale-instance-group', ScaleState> {
  return defineWorkflow('scale-instance-group', {
    target: groupTarget,
    locks: groupChangeLocks,
    initialState: () => ({}),
    phases: [scalePhase(deps)],
    result: (_s, input) => ({ cluster: input.cluster, instanceGroup: input.name, instanceCount: input.instanceCount }),
  });
}

export function deleteInstanceGroupWorkflow(deps: WorkflowDeps): KindWorkflow<'delete-instance-group', Empty> {
  return defineWorkflow('delete-instance-group', {
    target: groupTarget,
    locks: groupChangeLocks,
    initialState: () => ({}),
    phases: [deleteGroupPhase(deps)],
    result: (_s, input) => ({ cluster: input.cluster, instanceGroup: input.name, deleted: true }),
  });
}
