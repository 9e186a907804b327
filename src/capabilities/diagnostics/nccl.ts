import { diagnoseNccl } from '../../domain/diagnostics/nccl.js';
import { ncclEvidenceFrom, rankPods } from '../../domain/diagnostics/nccl-evidence-from.js';
import { NotFoundError } from '../../domain/errors.js';
import type { KubeObject } from '../../domain/kube-object.js';
import { INSTANCE_GROUP_LABEL, INSTANCE_TYPE_LABEL } from '../../domain/node-health-terms.js';
import type { Diagnosis } from '../../domain/schemas/diagnostics.js';
import type { DiagnosticsKubeReads, DiagnosticsReadPort } from './read-port.js';

/** Lines of each rank's log read (current run, and the previous after a restart): where NCCL's story ends. */
export const NCCL_LOG_TAIL = 200;
/** Ranks whose logs are read: a job of hundreds of ranks is judged from its first ones (every rank's spec still is). */
const MAX_LOGGED_RANKS = 16;

type Loose = Record<string, unknown>;
const obj = (v: unknown): Loose => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Loose) : {});

/**
 * NCCL/EFA evidence for a training job (issue 29): the job (a HyperPodPyTorchJob or a RayJob), its ranks' pods
 * (`HPJob=<job>`, or the RayJob's Ray cluster pods with GPUs), their log tails, the nodes of
 * its instance group and of its ranks, the type's facts and the node security group — all reads through the port —
 * then the pure judgement (src/domain/diagnostics/nccl.ts). Suggests fixes as text; runs nothing.
 */
export async function diagnoseNcclJob(
  read: DiagnosticsReadPort,
  where: { region: string; cluster: string; namespace: string; job: string },
): Promise<Diagnosis> {
  const { region, cluster, namespace } = where;
  const kube = await read.kube(region, cluster);
  const found = await kube.trainingJob(namespace, where.job);
  if (!found)
    throw new NotFoundError({
      resource: 'training job',
      id: `${namespace}/${where.job}`,
      message: `Cluster ${cluster} has no training job '${where.job}' (HyperPodPyTorchJob or RayJob) in namespace ${namespace} (list them with list_jobs).`,
    });
  const { job, podSelector } = found;
  const pods = podSelector ? rankPods(job, await kube.pods(namespace, podSelector)) : [];
  const allNodes = await kube.nodes();
  const group = groupOf(pods);
  const rankNodes = new Set(pods.map((p) => obj(p.spec).nodeName).filter((n) => typeof n === 'string'));
  const nodes = allNodes.filter(
    (n) => rankNodes.has(n.metadata.name) || (group && n.metadata.labels?.[INSTANCE_GROUP_LABEL] === group),
  );
  const logs = await logTails(kube, namespace, pods);
  const instanceType = group ? await groupInstanceType(read, region, cluster, group, nodes) : undefined;
  const [facts, securityGroup] = await Promise.all([
    instanceType ? read.instanceTypeFacts(region, instanceType) : undefined,
    read.securityGroup(region, cluster).catch(() => undefined), // not read → the finding says so (sg-not-read)
  ]);
  const evidence = ncclEvidenceFrom({
    cluster,
    region,
    job,
    ...(podSelector ? { podSelector } : {}),
    pods,
    nodes,
    logs,
    logTailLines: NCCL_LOG_TAIL,
    ...(facts ? { facts } : {}),
    ...(securityGroup ? { securityGroup } : {}),
  });
  const judged = diagnoseNccl(evidence);
  return {
    subject: { kind: 'nccl', cluster, region, id: `${namespace}/${where.job}` },
    summary: judged.summary,
    findings: judged.findings,
    suggestions: judged.suggestions,
    readOnly: true,
    gatheredAt: new Date().toISOString(),
  };
}

/** The instance group the pods are placed on: their node selector (placement sets it). */
function groupOf(pods: readonly KubeObject[]): string | undefined {
  const selector = obj(obj(pods[0]?.spec).nodeSelector)[INSTANCE_GROUP_LABEL];
  return typeof selector === 'string' ? selector : undefined;
}

/** The group's instance type: HyperPod's DescribeCluster, else a node's instance-type label. */
async function groupInstanceType(
  read: DiagnosticsReadPort,
  region: string,
  cluster: string,
  group: string,
  nodes: readonly KubeObject[],
): Promise<string | undefined> {
  const hp = await read.hyperpodCluster(region, cluster);
  const described = hp?.InstanceGroups?.find((g) => g.InstanceGroupName === group)?.InstanceType;
  if (described) return described;
  const node = nodes.find((n) => n.metadata.labels?.[INSTANCE_GROUP_LABEL] === group);
  return node?.metadata.labels?.[INSTANCE_TYPE_LABEL];
}

/** Each rank's log tail, and the previous run's when its container restarted (bounded: MAX_LOGGED_RANKS pods). */
async function logTails(
  kube: DiagnosticsKubeReads,
  namespace: string,
  pods: readonly KubeObject[],
): Promise<Map<string, { current: string[]; previous?: string[] }>> {
  const entries: Array<[string, { current: string[]; previous?: string[] }]> = [];
  const read = [...pods].sort((a, b) => a.metadata.name.localeCompare(b.metadata.name)).slice(0, MAX_LOGGED_RANKS);
  for (const pod of read) {
    const statuses = obj(pod.status).containerStatuses;
    const restarted = Array.isArray(statuses) && statuses.some((s) => Number(obj(s).restartCount ?? 0) > 0);
    const current = await kube.logTail(namespace, pod.metadata.name, { tailLines: NCCL_LOG_TAIL });
    const previous = restarted
      ? await kube.logTail(namespace, pod.metadata.name, { tailLines: NCCL_LOG_TAIL, previous: true })
      : undefined;
    // While a restarted container waits in back-off, both reads may answer the same run: keep it once.
    const distinct = previous?.length && previous.join('\n') !== current.join('\n') ? previous : undefined;
    entries.push([pod.metadata.name, { current, ...(distinct ? { previous: distinct } : {}) }]);
  }
  return new Map(entries);
}
