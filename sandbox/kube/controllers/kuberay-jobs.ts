import { applyDefaults } from '../api/defaults.js';
import { deleteObject } from '../api/deletion.js';
import { prepareForCreate } from '../api/prepare.js';
import type { KubeCluster } from '../cluster.js';
import type { KubeObject, ResourceType } from '../types.js';
import { recordEvent } from './events.js';
import { headServiceHost, RAY_CLUSTER } from './kuberay-clusters.js';
import { PREFIX } from './program-lines.js';
import { condition, controllerRef, podPhase, rfc3339, save, shortHash, T, type Any } from './util.js';

/**
 * KubeRay's RayJob controller (K8sJobMode): a RayCluster `<rayjob>-xxxxx` from `rayClusterSpec`
 * (or the cluster `clusterSelector` names), then — once it is ready — the submitter, a batch/v1 Job
 * named after the RayJob (labels `ray.io/originated-from-crd=RayJob`,
 * `ray.io/originated-from-cr-name=<rayjob>`) running `ray job submit … -- <entrypoint>`, whose log
 * is the entrypoint's simulated output (ray-programs.ts). Status: `jobDeploymentStatus`
 * Initializing → Running → Complete | Failed (Retrying between attempts), `jobStatus` PENDING →
 * RUNNING → SUCCEEDED | FAILED, `jobId`, `rayClusterName`, `dashboardURL`, `startTime`, `endTime`,
 * `succeeded`, `failed`, `reason`/`message` on failure. A failed attempt is retried with a new
 * cluster while `backoffLimit` allows; `shutdownAfterJobFinishes` deletes the cluster
 * `ttlSecondsAfterFinished` after the end; `activeDeadlineSeconds` fails it (DeadlineExceeded).
 * The submitter Job's own backoffLimit is `submitterConfig.backoffLimit`, 0 when unset (KubeRay's
 * default 2 re-attaches to the same Ray job, which the sandbox does not play).
 */

const REPORTER = 'rayjob-controller';
const ORIGIN_CRD = 'ray.io/originated-from-crd';
const ORIGIN_NAME = 'ray.io/originated-from-cr-name';
const TERMINAL = new Set(['Complete', 'Failed']);

export function runRayJobs(cluster: KubeCluster): void {
  const jobType = cluster.findType('ray.io', 'v1', 'rayjobs');
  const clusterType = cluster.findType('ray.io', 'v1', 'rayclusters');
  if (!jobType || !clusterType) return;
  for (const rj of cluster.objects.list(jobType)) {
    if (rj.metadata.deletionTimestamp) continue;
    const status = reconcile(cluster, clusterType, rj);
    save(cluster, jobType, rj, { ...rj, status });
  }
}

function reconcile(cluster: KubeCluster, clusterType: ResourceType, rj: KubeObject): Any {
  const spec = (rj.spec ?? {}) as Any;
  const name = rj.metadata.name!;
  const ns = rj.metadata.namespace ?? 'default';
  const st = structuredClone((rj.status ?? {}) as Any);
  const now = cluster.now();
  const at = rfc3339(now);
  const event = (type: 'Normal' | 'Warning', reason: string, message: string) =>
    recordEvent(cluster, rj, type, reason, message, REPORTER);
  const selected = (spec.clusterSelector ?? {})[RAY_CLUSTER] as string | undefined;
  const attempt = Number(st.failed ?? 0);
  const rayCluster = () => (st.rayClusterName ? cluster.objects.get(clusterType, ns, st.rayClusterName) : undefined);
  const submitter = () => cluster.objects.get(T.jobs, ns, name);

  if (TERMINAL.has(st.jobDeploymentStatus)) {
    shutDown(cluster, clusterType, rj, st, now, event, !!selected);
    return st;
  }
  if (st.jobDeploymentStatus === 'Retrying') {
    // The next attempt starts once the last one's cluster and submitter are gone.
    if (rayCluster() || submitter()) return st;
    delete st.rayClusterName;
    delete st.jobStatus;
    st.jobDeploymentStatus = '';
  }
  if (!st.jobDeploymentStatus) {
    st.jobDeploymentStatus = 'Initializing';
    st.jobId =
      spec.jobId && attempt === 0 ? spec.jobId : `${name}-${shortHash(`${rj.metadata.uid}|job|${attempt}`, 5)}`;
    st.rayClusterName = selected ?? `${name}-${shortHash(`${rj.metadata.uid}|cluster|${attempt}`, 5)}`;
    st.dashboardURL = `${headServiceHost(st.rayClusterName, ns)}:8265`;
    st.startTime ??= at;
    st.failed ??= 0;
    st.succeeded ??= 0;
  }
  const deadline = Number(spec.activeDeadlineSeconds);
  if (Number.isFinite(deadline) && deadline > 0 && now - Date.parse(st.startTime) >= deadline * 1000) {
    return finished(st, 'Failed', at, event, {
      reason: 'DeadlineExceeded',
      message: `The RayJob has passed the activeDeadlineSeconds. StartTime: ${st.startTime}. ActiveDeadlineSeconds: ${deadline}`,
    });
  }

  let rc = rayCluster();
  if (!rc && !selected) {
    rc = cluster.objects.create(clusterType, {
      apiVersion: 'ray.io/v1',
      kind: 'RayCluster',
      metadata: {
        name: st.rayClusterName,
        namespace: ns,
        labels: { [ORIGIN_CRD]: 'RayJob', [ORIGIN_NAME]: name },
        ownerReferences: [controllerRef(rj)],
      },
      spec: structuredClone(spec.rayClusterSpec ?? {}),
    });
    event('Normal', 'Created', `Created RayCluster ${ns}/${st.rayClusterName}`);
  }
  if (st.jobDeploymentStatus === 'Initializing') {
    if ((rc?.status as Any | undefined)?.state !== 'ready') return st;
    if (!submitter()) {
      // As the API server would take it: defaults, then the Job's selector and its template's labels.
      const job = submitterJob(rj, st.jobId, st.rayClusterName, rc!);
      applyDefaults(T.jobs, job);
      prepareForCreate(cluster, T.jobs, job);
      cluster.objects.create(T.jobs, job);
      event('Normal', 'Created', `Created Kubernetes Job ${ns}/${name}`);
    }
    st.jobDeploymentStatus = 'Running';
    st.jobStatus = 'PENDING';
    return st;
  }

  const job = submitter();
  if (!job) return st;
  const pods = cluster.objects.select(
    T.pods,
    ns,
    (p) => p.metadata.labels?.['batch.kubernetes.io/job-name'] === name,
  ).items;
  if (
    st.jobStatus === 'PENDING' &&
    pods.some(
      (p) =>
        podPhase(p) === 'Running' && ((p.status as Any)?.containerStatuses ?? []).some((c: Any) => c.state?.running),
    )
  )
    st.jobStatus = 'RUNNING';
  if (condition(job, 'Complete')?.status === 'True') {
    st.jobStatus = 'SUCCEEDED';
    st.succeeded = Number(st.succeeded ?? 0) + 1;
    return finished(st, 'Complete', at, event);
  }
  if (condition(job, 'Failed')?.status === 'True') {
    st.jobStatus = 'FAILED';
    st.failed = attempt + 1;
    if (st.failed <= Number(spec.backoffLimit ?? 0)) {
      st.jobDeploymentStatus = 'Retrying';
      event(
        'Normal',
        'Retrying',
        `Ray job ${st.jobId} failed: retrying with a new RayCluster (attempt ${st.failed + 1} of ${Number(spec.backoffLimit) + 1})`,
      );
      deleteObject(cluster, T.jobs, job, 'Background');
      if (rc && !selected) deleteObject(cluster, clusterType, rc, 'Background');
      return st;
    }
    return finished(st, 'Failed', at, event, {
      reason: 'AppFailed',
      message: `Ray job ${st.jobId} failed: the submitter Job ${ns}/${name} ${condition(job, 'Failed')?.reason ?? 'failed'}`,
    });
  }
  return st;
}

function finished(
  st: Any,
  outcome: 'Complete' | 'Failed',
  at: string,
  event: (type: 'Normal' | 'Warning', reason: string, message: string) => void,
  failure?: { reason: string; message: string },
): Any {
  st.jobDeploymentStatus = outcome;
  st.endTime = at;
  if (failure) {
    st.reason = failure.reason;
    st.message = failure.message;
    event('Warning', failure.reason, failure.message);
  } else {
    st.message = 'Job finished successfully.';
    event('Normal', 'Completed', `Ray job ${st.jobId} succeeded`);
  }
  return st;
}

/** shutdownAfterJobFinishes: the cluster goes `ttlSecondsAfterFinished` (0) after the end (never a selected cluster). */
function shutDown(
  cluster: KubeCluster,
  clusterType: ResourceType,
  rj: KubeObject,
  st: Any,
  now: number,
  event: (type: 'Normal' | 'Warning', reason: string, message: string) => void,
  selected: boolean,
): void {
  const spec = (rj.spec ?? {}) as Any;
  if (!spec.shutdownAfterJobFinishes || selected || !st.rayClusterName) return;
  const ttl = Math.max(0, Number(spec.ttlSecondsAfterFinished ?? 0));
  if (now < Date.parse(st.endTime) + ttl * 1000) return;
  const rc = cluster.objects.get(clusterType, rj.metadata.namespace, st.rayClusterName);
  if (!rc || rc.metadata.deletionTimestamp) return;
  deleteObject(cluster, clusterType, rc, 'Background');
  event('Normal', 'Deleted', `Deleted RayCluster ${rj.metadata.namespace}/${st.rayClusterName}`);
}

/** The submitter: `ray job submit` against the cluster's dashboard, in the head's image, the RayJob's sandbox annotations on its pod. */
function submitterJob(rj: KubeObject, jobId: string, clusterName: string, rc: KubeObject): KubeObject {
  const spec = (rj.spec ?? {}) as Any;
  const name = rj.metadata.name!;
  const ns = rj.metadata.namespace ?? 'default';
  const address = `http://${headServiceHost(clusterName, ns)}:8265`;
  const headImage = (rc.spec as Any)?.headGroupSpec?.template?.spec?.containers?.[0]?.image ?? 'rayproject/ray:2.46.0';
  const labels = { [ORIGIN_CRD]: 'RayJob', [ORIGIN_NAME]: name, 'app.kubernetes.io/created-by': 'kuberay-operator' };
  const sandbox = Object.fromEntries(
    Object.entries(rj.metadata.annotations ?? {}).filter(([k]) => k.startsWith(PREFIX)),
  );
  const template = structuredClone(
    (spec.submitterPodTemplate ?? {
      spec: {
        containers: [
          {
            name: 'ray-job-submitter',
            image: headImage,
            resources: { requests: { cpu: '500m', memory: '200Mi' }, limits: { cpu: '1', memory: '1Gi' } },
          },
        ],
      },
    }) as Any,
  );
  template.metadata = {
    ...(template.metadata ?? {}),
    labels: { ...(template.metadata?.labels ?? {}), ...labels },
    annotations: { ...sandbox, ...(template.metadata?.annotations ?? {}) },
  };
  template.spec.restartPolicy ??= 'Never';
  const submitter = (template.spec.containers as Any[])[0];
  if (submitter && !submitter.command) {
    submitter.command = ['/bin/bash', '-ce', '--'];
    submitter.args = [
      `ray job submit --address ${address} --submission-id ${jobId} -- ${String(spec.entrypoint ?? '')}`,
    ];
  }
  if (submitter)
    submitter.env = [
      ...((submitter.env ?? []) as Any[]),
      { name: 'RAY_DASHBOARD_ADDRESS', value: address },
      { name: 'RAY_JOB_SUBMISSION_ID', value: jobId },
    ];
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, namespace: ns, labels, ownerReferences: [controllerRef(rj)] },
    spec: { backoffLimit: Number(spec.submitterConfig?.backoffLimit ?? 0), template },
  };
}
