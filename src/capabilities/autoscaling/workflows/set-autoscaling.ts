import {
  karpenterManifests,
  KARPENTER_OBJECT_NAME,
  NODECLASS_API,
  NODECLASS_CRD,
  NODECLASS_KIND,
  NODEPOOL_API,
  NODEPOOL_KIND,
  nodeClassGroups,
  readyCondition,
  sameGroups,
} from '../../../domain/autoscaling.js';
import { hyperpodAutoscalingRole } from '../../../domain/cluster-roles.js';
import { CloudError } from '../../../domain/errors.js';
import { clusterTarget, resourceNames } from '../../../domain/naming.js';
import type { SetAutoscalingInput } from '../../../domain/schemas/autoscaling.js';
import type { HyperPodCluster, KubePort } from '../../../cloud/ports.js';
import type { PhaseDefinition } from '../../../engine/workflow.js';
import { describeHyperPod, kubeOfHyperPod } from '../../../workflows/cluster-access.js';
import type { WorkflowDeps } from '../../../workflows/context.js';
import { clusterChangeLocks, defineWorkflow, type KindWorkflow } from '../../../workflows/define.js';

/** With enabled, `instanceGroups` are the groups Karpenter may scale (checked by the service against the cluster). */
export type { SetAutoscalingInput };
export interface SetAutoscalingState {
  clusterRoleArn?: string;
}
type Phase = PhaseDefinition<SetAutoscalingInput, SetAutoscalingState>;

const wantedMode = (input: SetAutoscalingInput) => (input.enabled ? 'Enable' : 'Disable');

const describe = (deps: WorkflowDeps, input: SetAutoscalingInput) => describeHyperPod(deps.cloud, input.region, input.cluster);

/** The cluster's Kubernetes API; Karpenter's objects live there. */
export async function kubeOfCluster(deps: WorkflowDeps, hp: HyperPodCluster, region: string): Promise<KubePort> {
  const kube = await kubeOfHyperPod(deps.cloud, hp, region);
  if (!kube) throw new CloudError('eks', 'DescribeCluster', 'NoKubernetesApi', `The EKS cluster of '${hp.ClusterName}' has no Kubernetes API endpoint (yet).`, undefined, true);
  return kube;
}
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

/** UpdateCluster AutoScaling; once on, HyperPod installs the Karpenter CRDs in the cluster. */
function modePhase(deps: WorkflowDeps): Phase {
  const crdReady = async (hp: HyperPodCluster, region: string) =>
    !!(await (await kubeOfCluster(deps, hp, region)).read({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', name: NODECLASS_CRD }));
  return {
    name: 'autoscaling',
    title: 'Turn HyperPod-managed autoscaling on or off',
    expectedSeconds: 60,
    async observe(ctx) {
      const a = (await describe(deps, ctx.input)).AutoScaling;
      if ((a?.Mode ?? 'Disable') !== wantedMode(ctx.input)) return 'needs-act';
      return 'in-progress';
    },
    async act(ctx) {
      if (ctx.input.enabled) {
        const role = ctx.state.clusterRoleArn ?? (await deps.cloud.iam.find((await roleDefinition(deps, ctx.input)).roleName));
        if (!role) throw new CloudError('iam', 'GetRole', 'NoSuchEntity', 'The autoscaling ClusterRole is missing; retry the role phase.');
        await deps.cloud.hyperpod.setAutoScaling(ctx.input.region, ctx.input.cluster, { mode: 'Enable', clusterRoleArn: role });
        ctx.log(`Enabling HyperPod-managed Karpenter on ${ctx.input.cluster} with ClusterRole ${role} (UpdateCluster)`);
      } else {
        await deps.cloud.hyperpod.setAutoScaling(ctx.input.region, ctx.input.cluster, { mode: 'Disable' });
        ctx.log(`Disabling autoscaling on ${ctx.input.cluster} (UpdateCluster); node counts now change only when you scale`);
      }
    },
    pollKey: (ctx) => `sagemaker:${ctx.input.region}:cluster:${ctx.input.cluster}`,
    async await(ctx) {
      const hp = await describe(deps, ctx.input);
      const a = hp.AutoScaling;
      if (a?.Status === 'Failed') throw new CloudError('sagemaker', 'UpdateCluster', 'AutoScalingFailed', `HyperPod could not ${ctx.input.enabled ? 'start' : 'stop'} autoscaling: ${a.FailureMessage ?? 'no reason given'}`);
      const settled = (a?.Mode ?? 'Disable') === wantedMode(ctx.input) && (a?.Status === undefined || a.Status === 'InService');
      if (!settled) return { done: false, progress: `AutoScaling ${a?.Mode ?? 'off'} ${a?.Status ?? ''}`.trim() };
      if (!ctx.input.enabled) return { done: true, progress: 'Autoscaling is off' };
      const crd = await crdReady(hp, ctx.input.region);
      return { done: crd, progress: crd ? 'Karpenter is running for the cluster' : 'Waiting for HyperPod to install the Karpenter resources in the cluster' };
    },
  };
}

/** One HyperpodNodeClass listing the groups and one NodePool using it, applied with server-side apply; Ready before done. */
function karpenterPhase(deps: WorkflowDeps): Phase {
  const read = async (kube: KubePort) => ({
    nodeClass: await kube.read({ apiVersion: NODECLASS_API, kind: NODECLASS_KIND, name: KARPENTER_OBJECT_NAME }),
    nodePool: await kube.read({ apiVersion: NODEPOOL_API, kind: NODEPOOL_KIND, name: KARPENTER_OBJECT_NAME }),
  });
  const kubeOf = async (input: SetAutoscalingInput) => kubeOfCluster(deps, await describe(deps, input), input.region);
  return {
    name: 'karpenter',
    title: 'Point Karpenter at the instance groups',
    expectedSeconds: 20,
    async observe(ctx) {
      if (!ctx.input.enabled) return 'done';
      const { nodeClass, nodePool } = await read(await kubeOf(ctx.input));
      return nodeClass && nodePool && sameGroups(nodeClassGroups(nodeClass), ctx.input.instanceGroups ?? []) ? 'in-progress' : 'needs-act';
    },
    async act(ctx) {
      await (await kubeOf(ctx.input)).apply(karpenterManifests(ctx.input.instanceGroups ?? []));
      ctx.log(`Applied HyperpodNodeClass and NodePool '${KARPENTER_OBJECT_NAME}' for ${(ctx.input.instanceGroups ?? []).join(', ')}`);
    },
    async await(ctx) {
      const { nodeClass, nodePool } = await read(await kubeOf(ctx.input));
      const classReady = readyCondition(nodeClass);
      const poolReady = readyCondition(nodePool);
      if (classReady && !classReady.ready && /NotFound|NotSupported/.test(classReady.reason ?? '')) {
        throw new CloudError('kubernetes', 'HyperpodNodeClass', classReady.reason!, `Karpenter cannot use the groups: ${classReady.message ?? classReady.reason}`);
      }
      const done = !!classReady?.ready && !!poolReady?.ready;
      const waiting = !classReady?.ready ? `HyperpodNodeClass: ${classReady?.message || classReady?.reason || 'not read yet'}` : `NodePool: ${poolReady?.message || poolReady?.reason || 'not read yet'}`;
      return { done, progress: done ? `Karpenter may scale ${(ctx.input.instanceGroups ?? []).join(', ')}` : waiting };
    },
  };
}

export function setAutoscalingWorkflow(deps: WorkflowDeps): KindWorkflow<'set-autoscaling', SetAutoscalingState> {
  return defineWorkflow('set-autoscaling', {
    target: (i) => `${clusterTarget(i.region, i.cluster)}/autoscaling`,
    // UpdateCluster sets the AutoScaling mode: one change of the cluster at a time, as for its groups.
    locks: (i) => clusterChangeLocks(i.region, i.cluster),
    initialState: () => ({}),
    phases: [rolePhase(deps), modePhase(deps), karpenterPhase(deps)],
    result: (s, i) => ({ cluster: i.cluster, enabled: i.enabled, ...(i.enabled ? { instanceGroups: i.instanceGroups, clusterRoleArn: s.clusterRoleArn } : {}) }),
  });
}
