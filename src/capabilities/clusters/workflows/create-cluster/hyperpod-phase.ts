import type { HyperPodGroupSpecification } from '../../../../cloud/ports.js';
import { CloudError } from '../../../../domain/errors.js';
import { clusterTags } from '../../../../domain/naming.js';
import type { PhaseDefinition } from '../../../../engine/workflow.js';
import type { WorkflowDeps } from '../../../../workflows/context.js';
import { checkCapacity } from '../../../../workflows/capacity-watch.js';
import { instanceGroupSpec } from '../../../../workflows/instance-group-spec.js';
import { namesFor } from './iam-eks-phases.js';
import type { CreateClusterInput, CreateClusterState } from './types.js';

/** The first instance group, from the four decisions the user made (zone, type, capacity type, count). */
export function initialInstanceGroup(
  input: CreateClusterInput,
  executionRoleArn: string,
  groupName: string,
): HyperPodGroupSpecification {
  return instanceGroupSpec({ ...input, name: groupName }, executionRoleArn);
}

const failure = (name: string, message: string | undefined) =>
  new CloudError({
    service: 'sagemaker',
    operation: 'CreateCluster',
    code: 'ClusterFailed',
    message: `HyperPod cluster ${name} failed: ${message ?? 'no reason given'}`,
  });

/**
 * SageMaker CreateCluster with the EKS orchestrator, automatic node recovery and the first group.
 * A cluster left Failed by an earlier attempt is deleted first (HyperPod cannot reuse the name):
 * act deletes it, await waits until it is gone, and observe then finds nothing, so act creates it
 * again — each wait an await step (cancellable, with progress), never a loop inside act.
 */
export function hyperpodPhase(deps: WorkflowDeps): PhaseDefinition<CreateClusterInput, CreateClusterState> {
  return {
    name: 'hyperpod',
    title: 'HyperPod cluster with automatic node recovery',
    expectedSeconds: 900,
    deadline: { actSeconds: 600, waitSeconds: 21_600 }, // big groups with deep health checks run for hours; no capacity fails sooner (capacity-watch.ts)
    async observe(ctx) {
      const c = await deps.cloud.hyperpod.describe(ctx.input.region, ctx.input.name);
      if (!c) return 'needs-act';
      ctx.setState({ hyperpodClusterArn: c.ClusterArn });
      if (
        c.ClusterStatus === 'InService' &&
        (c.InstanceGroups ?? []).every((g) => (g.CurrentCount ?? 0) >= (g.TargetCount ?? 0))
      )
        return 'done';
      if (c.ClusterStatus === 'Failed') {
        // First sight of the failure: report it. On a retry the user has fixed the cause; start over.
        if (ctx.attempt === 1) throw failure(ctx.input.name, c.FailureMessage);
        return 'needs-act';
      }
      if (c.ClusterStatus === 'Deleting') {
        // Going away (our own delete of a failed cluster, interrupted): wait for it, then create anew.
        ctx.setState({ hyperpodReplacing: true });
        return 'in-progress';
      }
      return 'in-progress';
    },
    async act(ctx) {
      const c = await deps.cloud.hyperpod.describe(ctx.input.region, ctx.input.name);
      if (c?.ClusterStatus === 'Failed') {
        ctx.log(`Deleting the failed HyperPod cluster ${ctx.input.name} before creating it again`, 'warn');
        await deps.cloud.hyperpod.delete(ctx.input.region, ctx.input.name);
        ctx.setState({ hyperpodReplacing: true });
        return;
      }
      if (c) return; // made in the meantime (a concurrent attempt): await follows it
      const names = await namesFor(deps, ctx);
      const subnets = ctx.state.subnets!;
      const arn = await deps.cloud.hyperpod.create(ctx.input.region, {
        name: names.hyperpodCluster,
        eksClusterArn: ctx.state.eksClusterArn!,
        subnetIds: [subnets.compute],
        securityGroupIds: [ctx.state.securityGroupId!],
        instanceGroups: [initialInstanceGroup(ctx.input, ctx.state.executionRoleArn!, names.initialGroup)],
        tags: { ...clusterTags(ctx.input.name, 'hyperpod'), SageMaker: 'true' },
      });
      ctx.setState({ hyperpodClusterArn: arn, capacityEventMark: 0, hyperpodReplacing: false });
      ctx.log(
        `Requested HyperPod cluster ${names.hyperpodCluster}: ${ctx.input.instanceCount} × ${ctx.input.instanceType} (${ctx.input.capacityType}) in ${ctx.input.availabilityZone}`,
      );
    },
    pollKey: (ctx) => `sagemaker:${ctx.input.region}:cluster:${ctx.input.name}`,
    async await(ctx) {
      const c = await deps.cloud.hyperpod.describe(ctx.input.region, ctx.input.name);
      if (ctx.state.hyperpodReplacing) {
        if (!c)
          return {
            done: false,
            observeAgain: true,
            progress: `The failed HyperPod cluster ${ctx.input.name} is gone; creating it again`,
          };
        if (c.ClusterStatus === 'Deleting')
          return {
            done: false,
            progress: `Deleting the failed HyperPod cluster before creating it again (${c.ClusterStatus})`,
          };
        if (c.ClusterStatus === 'Failed') {
          throw new CloudError({
            service: 'sagemaker',
            operation: 'DeleteCluster',
            code: 'ClusterDeleteFailed',
            message: `The failed HyperPod cluster ${ctx.input.name} could not be deleted: ${c.FailureMessage ?? 'no reason given'}. Retry the phase to delete it again.`,
          });
        }
      }
      if (!c)
        throw new CloudError({
          service: 'sagemaker',
          operation: 'DescribeCluster',
          code: 'ResourceNotFound',
          message: `HyperPod cluster ${ctx.input.name} disappeared while being created.`,
        });
      if (c.ClusterStatus === 'Failed') throw failure(ctx.input.name, c.FailureMessage);
      const groups = c.InstanceGroups ?? [];
      const counts = groups
        .map((g) => `${g.InstanceGroupName} ${g.CurrentCount ?? 0}/${g.TargetCount ?? 0} nodes`)
        .join(', ');
      // With Continuous provisioning HyperPod is InService before its nodes run; the user asked for nodes.
      const nodesUp = groups.every((g) => (g.CurrentCount ?? 0) >= (g.TargetCount ?? 0));
      const waiting = nodesUp
        ? ''
        : await checkCapacity(
            deps.cloud,
            ctx.input.region,
            ctx.input.name,
            groups[0]?.InstanceGroupName ?? 'workers',
            ctx.state.capacityEventMark ?? 0,
            'CreateCluster',
          );
      return {
        done: c.ClusterStatus === 'InService' && nodesUp,
        progress: `HyperPod ${c.ClusterStatus}${counts ? ` (${counts})` : ''}${waiting}`,
      };
    },
  };
}
