import { CloudError, NotFoundError } from '../../../../domain/errors.js';
import { diffInstanceGroup } from '../../../../domain/instance-groups.js';
import { instanceGroupTarget } from '../../../../domain/naming.js';
import type { UpdateInstanceGroupInput } from '../../../../domain/schemas/instance-groups.js';
import type { PhaseDefinition } from '../../../../engine/workflow.js';
import type { WorkflowDeps } from '../../../../workflows/context.js';
import { defineWorkflow, type KindWorkflow } from '../../../../workflows/define.js';
import { groupSpecOf, specWithChanges } from '../../../../workflows/instance-group-spec.js';
import { describeGroup, groupChangeLocks, scalePhase, type ScaleState } from './index.js';

/**
 * A change of a group's settings (labels, taints, deep health checks, lifecycle, patching), maybe with
 * a new count. `changes` holds the fields that really differ (the service diffs first); they are
 * re-diffed on every observe, so a repeat is a no-op.
 */
export type { UpdateInstanceGroupInput };

const listed = (changes: object) => Object.keys(changes).join(', ');

/**
 * Settings first (one UpdateCluster restating the group as HyperPod describes it, with only the
 * changed fields replaced), then the count through the scale phase. Each phase asks HyperPod
 * whether its part already holds before acting, so a resumed or repeated update changes nothing.
 */
function settingsPhase(deps: WorkflowDeps): PhaseDefinition<UpdateInstanceGroupInput, ScaleState> {
  const pending = async (input: UpdateInstanceGroupInput) => {
    const { group } = await describeGroup(deps, input);
    if (!group)
      throw new NotFoundError({
        resource: 'instance group',
        id: input.name,
        message: `Cluster ${input.cluster} has no instance group '${input.name}'.`,
      });
    return { group, diff: diffInstanceGroup(groupSpecOf(group), input.changes) };
  };
  return {
    name: 'settings',
    title: "Change the group's settings",
    expectedSeconds: 60,
    deadline: { actSeconds: 300, waitSeconds: 3600 }, // one UpdateCluster; the cluster is back InService within minutes
    async observe(ctx) {
      const { group, diff } = await pending(ctx.input);
      if (diff.noop) return group.Status === 'Updating' ? 'in-progress' : 'done';
      return 'needs-act';
    },
    async act(ctx) {
      const { group, diff } = await pending(ctx.input);
      await deps.cloud.hyperpodGroups.putGroups(ctx.input.region, ctx.input.cluster, [
        specWithChanges(group, diff.changes),
      ]);
      ctx.log(
        `Changing ${listed(diff.changes)} of ${ctx.input.name} (UpdateCluster); other fields restated as HyperPod describes them`,
      );
    },
    pollKey: (ctx) => `sagemaker:${ctx.input.region}:cluster:${ctx.input.cluster}`,
    async await(ctx) {
      const { group, diff } = await pending(ctx.input);
      if (group.Status === 'Failed')
        throw new CloudError({
          service: 'sagemaker',
          operation: 'UpdateCluster',
          code: 'InstanceGroupFailed',
          message: `Instance group ${ctx.input.name} failed while its settings changed.`,
        });
      const done = diff.noop && group.Status === 'InService';
      return {
        done,
        progress: `${ctx.input.name} ${group.Status}${diff.noop ? '' : `; still to apply: ${listed(diff.changes)}`}`,
      };
    },
  };
}

export function updateInstanceGroupWorkflow(deps: WorkflowDeps): KindWorkflow<'update-instance-group', ScaleState> {
  return defineWorkflow('update-instance-group', {
    target: (g) => instanceGroupTarget(g.region, g.cluster, g.name),
    locks: groupChangeLocks,
    initialState: () => ({}),
    phases: [settingsPhase(deps), scalePhase(deps)],
    result: (_s, input) => ({
      cluster: input.cluster,
      instanceGroup: input.name,
      changed: [...Object.keys(input.changes), ...(input.instanceCount !== undefined ? ['instanceCount'] : [])],
    }),
  });
}
