import type { KubeCluster } from '../cluster.js';
import type { KubeObject } from '../types.js';
import { rfc3339, T, type Any } from './util.js';

/**
 * An endpoint's `status` as the operator reports it (the CRD's ModelDeploymentStatus at
 * aws/sagemaker-hyperpod-cli 011ca92): `state` through DeploymentPending → DeploymentInProgress →
 * DeploymentComplete as the model Deployment's replicas become ready, or DeploymentFailed with
 * `deploymentStatus.reason/message`; `deploymentStatus` carries the Deployment's own status;
 * `replicas`, `selector` (the scale subresource reads them) and `observedGeneration`.
 *
 * Assumed (no public source gives them): the failure reasons and when they are decided — pods the
 * scheduler cannot place for 5 minutes (`InsufficientCapacity`, with the scheduler's message: e.g. not
 * enough `nvidia.com/gpu`), an image that cannot be pulled (`ImagePullFailed`, at once), a worker in
 * CrashLoopBackOff (`ContainerCrashLoop`), not ready within `maxDeployTimeInSeconds`
 * (`DeploymentTimeout`); the state follows the pods back when the cause goes away; the one condition
 * `DeploymentReady`; and `deploymentObjectOverallState` repeating the state.
 */

export const UNSCHEDULABLE_GRACE_MS = 5 * 60_000;

export interface Failure {
  reason: string;
  message: string;
}

/** Why the pods of a model Deployment cannot become ready, if they cannot. */
export function podFailure(cluster: KubeCluster, namespace: string, app: string, now: number): Failure | undefined {
  const pods = cluster.objects.select(
    T.pods,
    namespace,
    (p) => p.metadata.labels?.app === app && !p.metadata.deletionTimestamp,
  ).items;
  for (const p of pods) {
    const st = (p.status ?? {}) as Any;
    for (const cs of [...((st.initContainerStatuses ?? []) as Any[]), ...((st.containerStatuses ?? []) as Any[])]) {
      const waiting = cs.state?.waiting as Any | undefined;
      if (waiting && ['ErrImagePull', 'ImagePullBackOff', 'InvalidImageName'].includes(waiting.reason))
        return {
          reason: 'ImagePullFailed',
          message: `pod ${p.metadata.name}: container ${cs.name}: ${waiting.reason}: ${waiting.message ?? `failed to pull image "${cs.image}"`}`,
        };
      if (waiting?.reason === 'CrashLoopBackOff')
        return {
          reason: 'ContainerCrashLoop',
          message: `pod ${p.metadata.name}: container ${cs.name} keeps exiting: ${waiting.message ?? 'CrashLoopBackOff'}`,
        };
    }
    const scheduled = ((st.conditions ?? []) as Any[]).find((c) => c.type === 'PodScheduled');
    if (scheduled?.status === 'False' && scheduled.reason === 'Unschedulable') {
      const since = Date.parse(scheduled.lastTransitionTime ?? p.metadata.creationTimestamp ?? '');
      if (Number.isFinite(since) && now - since >= UNSCHEDULABLE_GRACE_MS)
        return {
          reason: 'InsufficientCapacity',
          message: `pod ${p.metadata.name} could not be scheduled for ${Math.round((now - since) / 60_000)} minutes: ${scheduled.message ?? 'no node fits'}`,
        };
    }
  }
  return undefined;
}

export interface StatusInput {
  owner: KubeObject;
  deployment?: KubeObject;
  /** Extra ready check (the router's Deployment, when there is one). */
  routerReady: boolean;
  /** Its ScaledObject (minReplicaCount 0) took the model Deployment to zero replicas. */
  scaledToZero: boolean;
  failure?: Failure;
  maxDeployTimeInSeconds: number;
  sagemaker?: Any;
  now: number;
}

export function endpointStatus(input: StatusInput): Any {
  const { owner, deployment, now } = input;
  const previous = (owner.status ?? {}) as Any;
  const ds = (deployment?.status ?? {}) as Any;
  const desired = Number((deployment?.spec as Any | undefined)?.replicas ?? 0);
  const ready = Number(ds.readyReplicas ?? 0);
  const age = now - Date.parse(owner.metadata.creationTimestamp ?? rfc3339(now));
  let failure = input.failure;
  let state: string;
  if (failure) state = 'DeploymentFailed';
  else if (!deployment) state = 'DeploymentPending';
  else if (ready >= desired && (desired > 0 || input.scaledToZero) && input.routerReady) state = 'DeploymentComplete';
  else if (age > input.maxDeployTimeInSeconds * 1000 && previous.state !== 'DeploymentComplete') {
    state = 'DeploymentFailed';
    failure = {
      reason: 'DeploymentTimeout',
      message: `${ready} of ${desired} replicas ready after maxDeployTimeInSeconds (${input.maxDeployTimeInSeconds} s)`,
    };
  } else state = 'DeploymentInProgress';

  const reason = failure?.reason ?? (state === 'DeploymentComplete' ? 'ReplicasReady' : 'ReplicasNotReady');
  const message =
    failure?.message ??
    (state === 'DeploymentPending'
      ? 'Creating the model deployment'
      : `${ready} of ${desired} replicas ready${input.routerReady ? '' : '; the router is not ready'}`);
  const generation = owner.metadata.generation;
  const sameState = previous.state === state && previous.deploymentStatus?.reason === reason;
  const oldCondition = ((previous.conditions ?? []) as Any[]).find((c) => c.type === 'DeploymentReady');
  const condition = {
    type: 'DeploymentReady',
    status: state === 'DeploymentComplete' ? 'True' : 'False',
    reason,
    message,
    lastTransitionTime:
      oldCondition &&
      oldCondition.status === (state === 'DeploymentComplete' ? 'True' : 'False') &&
      oldCondition.reason === reason
        ? oldCondition.lastTransitionTime
        : rfc3339(now),
    ...(generation !== undefined ? { observedGeneration: generation } : {}),
  };
  const status: Any = {
    ...previous,
    state,
    conditions: [condition],
    deploymentStatus: {
      name: deployment?.metadata.name ?? owner.metadata.name,
      ...(deployment?.status ? { status: deployment.status } : {}),
      reason,
      message,
      deploymentObjectOverallState: state,
      lastUpdated:
        sameState && previous.deploymentStatus?.lastUpdated ? previous.deploymentStatus.lastUpdated : rfc3339(now),
    },
    replicas: Number(ds.replicas ?? 0),
    selector: `app=${owner.metadata.name}`,
    ...(generation !== undefined ? { observedGeneration: generation } : {}),
  };
  if (input.sagemaker) status.endpoints = { sagemaker: input.sagemaker };
  else delete status.endpoints;
  return status;
}
