import { karpenterManifests, KARPENTER_OBJECT_NAME, sameGroups } from '../domain/autoscaling.js';
import { hyperpodAutoscalingRole } from '../domain/cluster-roles.js';
import { CloudError } from '../domain/errors.js';
import { resourceNames } from '../domain/naming.js';
import type { SetAutoscalingInput } from '../domain/schemas/autoscaling.js';
import type { HyperPodCluster } from '../cloud/ports.js';
import type { KubeHyperpodNodeClass } from '../domain/kube/hyperpod-node-class.js';
import type { PhaseDefinition } from '../engine/workflow.js';
import { applyAndAwait } from './apply-and-await.js';
import { describeHyperPod, kubeOfHyperPod } from './cluster-access.js';
import type { WorkflowDeps } from './context.js';

/** With enabled, `instanceGroups` are the groups Karpenter may scale (checked by the service against the cluster). */
export type { SetAutoscalingInput };
export interface SetAutoscalingState {
  clusterRoleArn?: string;
}
type Phase = PhaseDefinition<SetAutoscalingInput, SetAutoscalingState>;

const wantedMode = (input: SetAutoscalingInput) => (input.enabled ? 'Enable' : 'Disable');

const describe = (deps: WorkflowDeps, input: SetAutoscalingInput) =>
  describeHyperPod(deps.cloud, input.region, input.cluster);

async function roleDefinition(deps: WorkflowDeps, input: SetAutoscalingInput, hp?: HyperPodCluster) {
  const names = resourceNames(input.cluster, await deps.cloud.accountId(), input.region);
  return hyperpodAutoscalingRole(names, (hp ?? (await describe(deps, input))).ClusterArn ?? '');
}

/** The ClusterRole HyperPod assumes to add and remove nodes; kept when autoscaling is turned off (deleted with the cluster). */
function rolePhase(deps: WorkflowDeps): Phase {
  return {
    name: 'role',
    title: 'Create the autoscaling ClusterRole',
    expectedSeconds: 15,
    deadline: { actSeconds: 120, waitSeconds: 300 }, // one IAM role and its policy
    appliesTo: (i) => i.enabled,
    async observe(ctx) {
      if (!ctx.input.enabled) return 'done';
      const role = await roleDefinition(deps, ctx.input);
      if (!(await deps.cloud.iam.isComplete(role))) return 'needs-act';
      ctx.setState({ clusterRoleArn: await deps.cloud.iam.find(role.roleName) });
      return 'done';
    },
    async act(ctx) {
      const role = await roleDefinition(deps, ctx.input);
      ctx.setState({ clusterRoleArn: await deps.cloud.iam.ensure(ctx.input.cluster, role, ctx.log) });
    },
  };
}

/** UpdateCluster AutoScaling; once on, HyperPod installs the Karpenter CRDs in the cluster (the next phase waits for them). */
function modePhase(deps: WorkflowDeps): Phase {
  return {
    name: 'autoscaling',
    title: 'Turn HyperPod-managed autoscaling on or off',
    expectedSeconds: 60,
    deadline: { actSeconds: 300, waitSeconds: 1800 }, // one UpdateCluster; HyperPod installs its Karpenter within minutes
    async observe(ctx) {
      const a = (await describe(deps, ctx.input)).AutoScaling;
      if ((a?.Mode ?? 'Disable') !== wantedMode(ctx.input)) return 'needs-act';
      return 'in-progress';
    },
    async act(ctx) {
      if (ctx.input.enabled) {
        const role =
          ctx.state.clusterRoleArn ?? (await deps.cloud.iam.find((await roleDefinition(deps, ctx.input)).roleName));
        if (!role)
          throw new CloudError({
            service: 'iam',
            operation: 'GetRole',
            code: 'NoSuchEntity',
            message: 'The autoscaling ClusterRole is missing; retry the role phase.',
          });
        await deps.cloud.hyperpod.setAutoScaling(ctx.input.region, ctx.input.cluster, {
          mode: 'Enable',
          clusterRoleArn: role,
        });
        ctx.log(`Enabling HyperPod-managed Karpenter on ${ctx.input.cluster} with ClusterRole ${role} (UpdateCluster)`);
      } else {
        await deps.cloud.hyperpod.setAutoScaling(ctx.input.region, ctx.input.cluster, { mode: 'Disable' });
        ctx.log(
          `Disabling autoscaling on ${ctx.input.cluster} (UpdateCluster); node counts now change only when you scale`,
        );
      }
    },
    pollKey: (ctx) => `sagemaker:${ctx.input.region}:cluster:${ctx.input.cluster}`,
    async await(ctx) {
      const a = (await describe(deps, ctx.input)).AutoScaling;
      if (a?.Status === 'Failed')
        throw new CloudError({
          service: 'sagemaker',
          operation: 'UpdateCluster',
          code: 'AutoScalingFailed',
          message: `HyperPod could not ${ctx.input.enabled ? 'start' : 'stop'} autoscaling: ${a.FailureMessage ?? 'no reason given'}`,
        });
      const settled =
        (a?.Mode ?? 'Disable') === wantedMode(ctx.input) && (a?.Status === undefined || a.Status === 'InService');
      if (!settled) return { done: false, progress: `AutoScaling ${a?.Mode ?? 'off'} ${a?.Status ?? ''}`.trim() };
      return {
        done: true,
        progress: ctx.input.enabled ? 'HyperPod runs Karpenter for the cluster' : 'Autoscaling is off',
      };
    },
  };
}

/**
 * One HyperpodNodeClass listing the groups and one NodePool using it, applied with server-side apply
 * once HyperPod has installed their CRDs; done when both are Ready. A class whose groups HyperPod
 * cannot use (not found, not supported) fails the phase with HyperPod's reason.
 */
function karpenterPhase(deps: WorkflowDeps): Phase {
  const groups = (input: SetAutoscalingInput) => input.instanceGroups ?? [];
  return applyAndAwait<SetAutoscalingInput, SetAutoscalingState>({
    name: 'karpenter',
    title: 'Point Karpenter at the instance groups',
    expectedSeconds: 20,
    deadline: { actSeconds: 300, waitSeconds: 900 }, // a Kubernetes apply, then its objects' health
    skip: (ctx) => !ctx.input.enabled,
    kube: async (ctx) =>
      kubeOfHyperPod(deps.cloud, await describe(deps, ctx.input), ctx.input.region, { required: true }),
    manifests: (ctx) => karpenterManifests(groups(ctx.input)),
    matches: ([nodeClass], ctx) =>
      sameGroups((nodeClass as KubeHyperpodNodeClass).spec.instanceGroups, groups(ctx.input)),
    readyProgress: (ctx) =>
      `Karpenter may scale ${groups(ctx.input).join(', ')} (HyperpodNodeClass and NodePool '${KARPENTER_OBJECT_NAME}' Ready)`,
    pollKey: (ctx) => `kube:${ctx.input.region}:${ctx.input.cluster}:karpenter`,
  });
}

/**
 * The phases of turning managed autoscaling on or off, in order: the autoscaling capability's set-autoscaling is
 * these; the features capability's set-features runs the same phases for its `autoscaling` feature (their state is
 * only `clusterRoleArn`).
 */
export function setAutoscalingPhases(deps: WorkflowDeps): Phase[] {
  return [rolePhase(deps), modePhase(deps), karpenterPhase(deps)];
}
