import { REQUEST_ANNOTATION } from '../kube/kind.js';
import type { KubeObject } from '../kube-object.js';
import type { SecurityGroupAttributes } from '../network/completeness.js';
import { INSTANCE_GROUP_LABEL, INSTANCE_TYPE_LABEL } from '../node-health-terms.js';
import { TrainingTemplateRequestSchema } from '../schemas/training.js';
import { EFA_RESOURCE, GPU_RESOURCE, type InstanceTypeFacts } from '../training/placement.js';
import type { SavedRequest } from '../training/resubmit.js';
import type { NcclEvidence, NcclNodeEvidence, NcclRankEvidence } from './nccl-evidence.js';

/**
 * NcclEvidence from what the diagnostics capability reads, as plain Kubernetes objects: the job, its ranks' pods (label
 * `HPJob=<job>`, or a RayJob's Ray cluster pods that hold GPUs), the nodes (the ranks' and the instance group's), each pod's log tail, the type's facts from the
 * catalog and the node security group (the network port's `find`). Pure, so the capability only reads.
 */

/** Kubernetes' well-known zone label (kubernetes.io/docs/reference/labels-annotations-taints, topology.kubernetes.io/zone). */
export const ZONE_LABEL = 'topology.kubernetes.io/zone';

type Loose = Record<string, unknown>;
const obj = (v: unknown): Loose => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Loose) : {});
const arr = (v: unknown): Loose[] => (Array.isArray(v) ? v.map(obj) : []);
const count = (v: unknown) => {
  const n = Number(v ?? 0);
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : 0;
};

/** The training container: the first one (the recipes put it first; the operator's env goes there). */
const trainingContainer = (pod: KubeObject) => arr(obj(pod.spec).containers)[0] ?? {};

/** FI_* and NCCL_* settings as literal values (a valueFrom is not judged; nothing else is kept). */
function ncclEnv(container: Loose): Record<string, string> {
  const env = new Map<string, string>();
  for (const e of arr(container.env)) {
    const name = typeof e.name === 'string' ? e.name : '';
    if (/^(FI_|NCCL_)/.test(name) && typeof e.value === 'string') env.set(name, e.value);
  }
  return Object.fromEntries(env);
}

function rankOf(pod: KubeObject, container: Loose, index: number): number {
  const env = arr(container.env).find((e) => e.name === 'NODE_RANK');
  const n = Number(env?.value);
  return Number.isInteger(n) && n >= 0 ? n : index;
}

/** The request kept on a job InstantStart submitted (resubmit.ts); absent when there is none or it does not parse. */
function savedRequestOn(job: KubeObject): SavedRequest | undefined {
  const text = job.metadata.annotations?.[REQUEST_ANNOTATION];
  if (!text) return undefined;
  try {
    const parsed = TrainingTemplateRequestSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The pods that run NCCL: every pod of a HyperPodPyTorchJob; of a RayJob's Ray cluster, those whose first container
 * asks for GPUs (VERL's workers — a CPU-only head runs no collective and sets no EFA variable), all of them when none
 * does (a CPU job: nothing then expects EFA).
 */
export function rankPods(job: KubeObject, pods: readonly KubeObject[]): KubeObject[] {
  if (job.kind !== 'RayJob') return [...pods];
  const withGpus = pods.filter((pod) => {
    const resources = obj(trainingContainer(pod).resources);
    return count(obj(resources.limits)[GPU_RESOURCE] ?? obj(resources.requests)[GPU_RESOURCE]) > 0;
  });
  return withGpus.length > 0 ? withGpus : [...pods];
}

export function nodeEvidence(node: KubeObject): NcclNodeEvidence {
  const labels = node.metadata.labels ?? {};
  const allocatable = obj(obj(node.status).allocatable);
  return {
    name: node.metadata.name,
    ...(labels[INSTANCE_GROUP_LABEL] ? { instanceGroup: labels[INSTANCE_GROUP_LABEL] } : {}),
    ...(labels[INSTANCE_TYPE_LABEL] ? { instanceType: labels[INSTANCE_TYPE_LABEL] } : {}),
    ...(labels[ZONE_LABEL] ? { zone: labels[ZONE_LABEL] } : {}),
    allocatable: { efa: count(allocatable[EFA_RESOURCE]), gpu: count(allocatable[GPU_RESOURCE]) },
  };
}

export interface NcclReads {
  cluster: string;
  region: string;
  job: KubeObject;
  /** The label selector the pods were listed by (absent: a RayJob whose Ray cluster is not made yet). */
  podSelector?: string;
  pods: readonly KubeObject[];
  nodes: readonly KubeObject[];
  /** Each pod's log tail, by pod name: the current run and, after a restart, the previous one. */
  logs: ReadonlyMap<string, { current: string[]; previous?: string[] }>;
  logTailLines: number;
  facts?: InstanceTypeFacts;
  securityGroup?: SecurityGroupAttributes;
}

export function ncclEvidenceFrom(reads: NcclReads): NcclEvidence {
  const nodes = reads.nodes.map(nodeEvidence);
  const ranks: NcclRankEvidence[] = [...reads.pods]
    .sort((a, b) => a.metadata.name.localeCompare(b.metadata.name))
    .map((pod, i) => {
      const container = trainingContainer(pod);
      const limits = { ...obj(obj(container.resources).requests), ...obj(obj(container.resources).limits) };
      const status = obj(pod.status);
      const containerStatus = arr(status.containerStatuses).find((s) => s.name === container.name) ?? {};
      const nodeName = typeof obj(pod.spec).nodeName === 'string' ? String(obj(pod.spec).nodeName) : undefined;
      const zone = nodes.find((n) => n.name === nodeName)?.zone;
      const log = reads.logs.get(pod.metadata.name);
      return {
        rank: rankOf(pod, container, i),
        pod: pod.metadata.name,
        ...(nodeName ? { node: nodeName } : {}),
        ...(zone ? { zone } : {}),
        ...(typeof status.phase === 'string' ? { phase: status.phase } : {}),
        restarts: count(containerStatus.restartCount),
        env: ncclEnv(container),
        efaRequested: count(limits[EFA_RESOURCE]),
        gpusRequested: count(limits[GPU_RESOURCE]),
        log: log?.current ?? [],
        ...(log?.previous?.length ? { previousLog: log.previous } : {}),
      };
    })
    .sort((a, b) => a.rank - b.rank);
  // The group the pods are placed on: their node selector (placement.ts sets it), else the ranks' nodes.
  const selector = obj(obj(reads.pods[0]?.spec).nodeSelector);
  const instanceGroup =
    typeof selector[INSTANCE_GROUP_LABEL] === 'string'
      ? String(selector[INSTANCE_GROUP_LABEL])
      : nodes.find((n) => n.name === ranks[0]?.node)?.instanceGroup;
  const instanceType =
    reads.facts?.instanceType ?? nodes.find((n) => n.instanceGroup === instanceGroup && n.instanceType)?.instanceType;
  const request = savedRequestOn(reads.job);
  return {
    cluster: reads.cluster,
    region: reads.region,
    job: {
      kind: reads.job.kind,
      name: reads.job.metadata.name,
      namespace: reads.job.metadata.namespace ?? 'default',
      ...(reads.podSelector ? { podSelector: reads.podSelector } : {}),
      ...(instanceGroup ? { instanceGroup } : {}),
      ...(instanceType ? { instanceType } : {}),
      ...(reads.facts ? { facts: reads.facts } : {}),
      ...(request ? { request } : {}),
    },
    ranks,
    nodes,
    ...(reads.securityGroup ? { securityGroup: reads.securityGroup } : {}),
    logTailLines: reads.logTailLines,
  };
}
