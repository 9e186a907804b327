import type { KubePort } from '../../cloud/ports.js';
import { NotFoundError } from '../../domain/errors.js';
import { KubeKindNotServed } from '../../domain/kube/errors.js';
import { EVENT, type KubeEvent } from '../../domain/kube/event.js';
import { HYPERPOD_PYTORCH_JOB, type KubeHyperPodPyTorchJob } from '../../domain/kube/hyperpod-pytorch-job.js';
import { NODE } from '../../domain/kube/node.js';
import { POD, type KubePod } from '../../domain/kube/pod.js';
import { RAY_CLUSTER } from '../../domain/kube/ray-cluster.js';
import { RAY_JOB, type KubeRayJob } from '../../domain/kube/ray-job.js';
import type { TrainingJobList, TrainingJobView } from '../../domain/schemas/training.js';
import {
  hasSubmitterPod,
  hyperpodJobView,
  hyperpodPodSelector,
  rayJobView,
  rayPodSelector,
  raySubmitterSelector,
} from '../../domain/training/job-view.js';
import { pendingReason, unscheduledPods } from '../../domain/training/scheduling.js';

/**
 * The training jobs of a cluster as live view models: read from Kubernetes on each request (never
 * copied into our store) and shaped by the domain's job views. A list shows each job without its
 * ranks; a get adds the pods by rank and the events of the job and its pods, newest first.
 */

/** A job object as found, with its kind. */
export type FoundJob =
  | { kind: 'HyperPodPyTorchJob'; job: KubeHyperPodPyTorchJob }
  | { kind: 'RayJob'; job: KubeRayJob };

/** Events shown with one job: enough for the recent story, never the namespace's whole history. */
const MAX_EVENTS = 50;

/** A kind's objects, or `notServed` when the cluster does not serve it (its operator is off). */
async function listKind<T>(read: () => Promise<T[]>): Promise<T[] | 'notServed'> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof KubeKindNotServed) return 'notServed';
    throw err;
  }
}

export async function listJobs(
  kube: KubePort,
  cluster: string,
  region: string,
  namespace?: string,
): Promise<TrainingJobList> {
  const options = namespace ? { namespace } : {};
  const [hp, ray] = await Promise.all([
    listKind(() => kube.list(HYPERPOD_PYTORCH_JOB, options)),
    listKind(() => kube.list(RAY_JOB, options)),
  ]);
  const jobs: TrainingJobView[] = [
    ...(hp === 'notServed' ? [] : hp.map((j) => hyperpodJobView(j))),
    ...(ray === 'notServed' ? [] : ray.map((j) => rayJobView(j))),
  ];
  jobs.sort((a, b) => (b.createdAt ?? '').localeCompare(a.createdAt ?? '') || a.name.localeCompare(b.name));
  const notServed = [
    ...(hp === 'notServed'
      ? [
          {
            kind: 'HyperPodPyTorchJob' as const,
            installedBy: HYPERPOD_PYTORCH_JOB.installedBy ?? 'the training-operator feature',
          },
        ]
      : []),
    ...(ray === 'notServed'
      ? [{ kind: 'RayJob' as const, installedBy: RAY_JOB.installedBy ?? 'the kuberay-operator feature' }]
      : []),
  ];
  return { cluster, region, jobs, notServed };
}

/** The job of that name in the namespace, of either kind (one name per namespace across both); undefined when there is none. */
export async function findJob(kube: KubePort, namespace: string, name: string): Promise<FoundJob | undefined> {
  const served = async <T>(read: () => Promise<T | undefined>) => {
    try {
      return await read();
    } catch (err) {
      // An operator that is off serves no jobs of its kind: the job is simply not one of those.
      if (err instanceof KubeKindNotServed) return undefined;
      throw err;
    }
  };
  const [hp, ray] = await Promise.all([
    served(() => kube.find(HYPERPOD_PYTORCH_JOB, name, namespace)),
    served(() => kube.find(RAY_JOB, name, namespace)),
  ]);
  if (hp) return { kind: 'HyperPodPyTorchJob', job: hp };
  return ray ? { kind: 'RayJob', job: ray } : undefined;
}

/** The 404 of a job that is not there. */
export const jobNotFound = (cluster: string, namespace: string, name: string): NotFoundError =>
  new NotFoundError({
    resource: 'Training job',
    id: `${namespace}/${name}`,
    message: `Cluster ${cluster} has no training job ${namespace}/${name} (list_jobs shows its jobs).`,
  });

/** The job, or a 404 naming it. */
export async function requireJob(kube: KubePort, cluster: string, namespace: string, name: string): Promise<FoundJob> {
  const found = await findJob(kube, namespace, name);
  if (!found) throw jobNotFound(cluster, namespace, name);
  return found;
}

const eventView = (e: KubeEvent) => ({
  ...(e.lastSeen ? { time: e.lastSeen } : {}),
  type: e.type,
  reason: e.reason ?? '',
  message: e.message ?? '',
  object: `${e.involvedObject.kind ?? 'Object'}/${e.involvedObject.name ?? ''}`,
  ...(e.count !== undefined ? { count: e.count } : {}),
});

/** Events of these objects in the namespace, newest first. */
async function eventsOf(kube: KubePort, namespace: string, names: ReadonlySet<string>) {
  const events = await kube.list(EVENT, { namespace });
  return events
    .filter((e) => e.involvedObject.name !== undefined && names.has(e.involvedObject.name))
    .sort((a, b) => (b.lastSeen ?? '').localeCompare(a.lastSeen ?? ''))
    .slice(0, MAX_EVENTS)
    .map(eventView);
}

/** Why pods wait for a node, when some do: the nodes are read only then (what they advertise). */
async function pendingOf(
  kube: KubePort,
  pods: readonly KubePod[],
  events: Awaited<ReturnType<typeof eventsOf>>,
): Promise<{ pending?: string }> {
  if (unscheduledPods(pods).length === 0) return {};
  const nodes = (await kube.list(NODE)).map((n) => ({ allocatable: n.status.allocatable }));
  const pending = pendingReason({ pods, events, nodes });
  return pending ? { pending } : {};
}

/** A found job's full view: ranks, conditions, recovery budget, events, and why pods wait for a node. */
export async function jobDetail(kube: KubePort, found: FoundJob): Promise<TrainingJobView> {
  const namespace = found.job.metadata.namespace ?? 'default';
  if (found.kind === 'HyperPodPyTorchJob') {
    const pods = await kube.list(POD, { namespace, labelSelector: hyperpodPodSelector(found.job.metadata.name) });
    const events = await eventsOf(
      kube,
      namespace,
      new Set([found.job.metadata.name, ...pods.map((p) => p.metadata.name)]),
    );
    return { ...hyperpodJobView(found.job, pods), events, ...(await pendingOf(kube, pods, events)) };
  }
  const clusterName = found.job.status.rayClusterName;
  const [rayPods, rayCluster, submitterPods] = await Promise.all([
    clusterName ? kube.list(POD, { namespace, labelSelector: rayPodSelector(clusterName) }) : [],
    clusterName ? kube.find(RAY_CLUSTER, clusterName, namespace) : undefined,
    hasSubmitterPod(found.job)
      ? kube.list(POD, { namespace, labelSelector: raySubmitterSelector(found.job.metadata.name) })
      : [],
  ]);
  const pods = [...rayPods, ...submitterPods];
  const names = new Set([
    found.job.metadata.name,
    ...(clusterName ? [clusterName] : []),
    ...pods.map((p) => p.metadata.name),
  ]);
  const events = await eventsOf(kube, namespace, names);
  return { ...rayJobView(found.job, pods, rayCluster), events, ...(await pendingOf(kube, pods, events)) };
}

/** Deletes the job (a RayJob's RayCluster goes with it: KubeRay owns it); false when it was already gone. */
export async function deleteJob(kube: KubePort, found: FoundJob): Promise<boolean> {
  const namespace = found.job.metadata.namespace ?? 'default';
  return found.kind === 'HyperPodPyTorchJob'
    ? kube.delete(HYPERPOD_PYTORCH_JOB, found.job.metadata.name, namespace)
    : kube.delete(RAY_JOB, found.job.metadata.name, namespace);
}
