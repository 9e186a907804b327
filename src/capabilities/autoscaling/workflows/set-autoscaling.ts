import { clusterTarget } from '../../../domain/naming.js';
import type { WorkflowDeps } from '../../../workflows/context.js';
import { clusterChangeLocks, defineWorkflow, type KindWorkflow } from '../../../workflows/define.js';
import { setAutoscalingPhases, type SetAutoscalingState } from '../../../workflows/managed-autoscaling.js';

/** Turns HyperPod-managed autoscaling on or off: the phases of src/workflows/managed-autoscaling.ts, one change of the cluster at a time. */
export function setAutoscalingWorkflow(deps: WorkflowDeps): KindWorkflow<'set-autoscaling', SetAutoscalingState> {
  return defineWorkflow('set-autoscaling', {
    target: (i) => `${clusterTarget(i.region, i.cluster)}/autoscaling`,
    // UpdateCluster sets the AutoScaling mode: one change of the cluster at a time, as for its groups.
    locks: (i) => clusterChangeLocks(i.region, i.cluster),
    initialState: () => ({}),
    phases: setAutoscalingPhases(deps),
    result: (s, i) => ({
      cluster: i.cluster,
      enabled: i.enabled,
      ...(i.enabled ? { instanceGroups: i.instanceGroups, clusterRoleArn: s.clusterRoleArn } : {}),
    }),
  });
}
