import type { HyperPodCluster, HyperPodEvent, IamRoleFacts, KubePort } from '../../cloud/ports.js';
import type { SecurityGroupAttributes } from '../../domain/network/completeness.js';
import { NotFoundError } from '../../domain/errors.js';
import { KubeError, KubeKindNotServed, KubeNotFound } from '../../domain/kube/errors.js';
import { HYPERPOD_PYTORCH_JOB } from '../../domain/kube/hyperpod-pytorch-job.js';
import { RAY_JOB } from '../../domain/kube/ray-job.js';
import { hyperpodPodSelector, rayPodSelector } from '../../domain/training/job-view.js';
import { type KubeResource, kubeKind, parseBase } from '../../domain/kube/kind.js';
import type { KubeObject } from '../../domain/kube-object.js';
import type { InstanceTypeFacts } from '../../domain/training/placement.js';
import { describeHyperPod, kubeOfHyperPod } from '../../workflows/cluster-access.js';
import { linesOf } from '../../workflows/pod-logs/pod-reads.js';
import type { OperationKind } from '../../domain/operation-kinds.js';
import type { DeletePlan } from '../../domain/schemas/clusters.js';
import type { NodeDetail } from '../../domain/schemas/nodes.js';
import type { LogLine, OperationView } from '../../domain/schemas/operations.js';
import type { QuotaCheckRequest, QuotaCheckResult } from '../../domain/schemas/preflight.js';
import type { ServiceDeps } from '../capability.js';
import { catalog } from '../catalog/index.js';
import { clusters } from '../clusters/index.js';
import { nodes } from '../nodes/index.js';

/**
 * Everything a diagnosis may read, and nothing else: each member describes, lists or gets. The diagnostics service is
 * built from this port alone (index.ts), so no code under this folder holds the cloud, the operation engine or another
 * capability's service — a diagnostic cannot reach a mutating call, whatever it is asked (issue 29: read-only by
 * construction; test/capabilities/diagnostics-read-only.test.ts and the layering rule `diagnostics-read-only` keep it so).
 */
export interface DiagnosticsReadPort {
  /** One operation (404 when the store has none of that id). */
  operation(id: string): OperationView;
  /** Operations newest first, by kind and target. */
  operations(query: { kind?: OperationKind; target?: string; limit: number }): OperationView[];
  /** An operation's log lines after `after`, at most `limit`. */
  operationLog(id: string, after: number, limit: number): { lines: LogLine[]; nextAfter: number };
  /** sagemaker:DescribeCluster; undefined when HyperPod has no such cluster. */
  hyperpodCluster(region: string, name: string): Promise<HyperPodCluster | undefined>;
  /** sagemaker:ListClusterEvents, newest first; empty when the cluster lists none (not Continuous mode, or gone). */
  hyperpodEvents(
    region: string,
    cluster: string,
    options: { nodeId?: string; maxResults: number },
  ): Promise<HyperPodEvent[]>;
  /** iam:GetRole: the role's ARN and trust policy; undefined when it does not exist. */
  role(roleName: string): Promise<IamRoleFacts | undefined>;
  /** Service Quotas and ListClusters: would the request fit the account's HyperPod quotas now? */
  quotas(request: QuotaCheckRequest): Promise<QuotaCheckResult>;
  /** What of the cluster is left to delete (the clusters capability's delete plan); undefined when nothing is. */
  leftBehind(region: string, cluster: string): Promise<DeletePlan | undefined>;
  /** One node: DescribeClusterNode joined with its Kubernetes Node, pods and events (the nodes capability's view). */
  node(region: string, cluster: string, nodeId: string): Promise<NodeDetail>;
  /** The account the cloud answers for (names of a cluster's roles carry it). */
  accountId(): Promise<string>;
  /** Reads of the cluster's Kubernetes API (404 when there is no such cluster; 503 while it has no API). */
  kube(region: string, cluster: string): Promise<DiagnosticsKubeReads>;
  /** The catalog's facts of an instance type (EC2 DescribeInstanceTypes); undefined when it has none. */
  instanceTypeFacts(region: string, instanceType: string): Promise<InstanceTypeFacts | undefined>;
  /** The cluster's node security group with its rules (EC2 DescribeSecurityGroups); undefined when not found. */
  securityGroup(region: string, cluster: string): Promise<SecurityGroupAttributes | undefined>;
}

/** Get, list and log reads of one cluster's Kubernetes API: no member writes. */
export interface DiagnosticsKubeReads {
  /**
   * A training job of either kind the product submits — a HyperPodPyTorchJob, else a RayJob — with the label selector of
   * its ranks' pods; undefined when there is neither (or their operators are off).
   */
  trainingJob(namespace: string, name: string): Promise<{ job: KubeObject; podSelector?: string } | undefined>;
  /** Pods of a namespace by label selector. */
  pods(namespace: string, labelSelector: string): Promise<KubeObject[]>;
  /** Every node (a HyperPod cluster has tens, not thousands). */
  nodes(): Promise<KubeObject[]>;
  /**
   * The last `tailLines` lines of a pod's first container's log (the current run, or with `previous` the one before
   * the last restart), at most LOG_BYTES; empty when it cannot be read (not started yet, gone, no previous run).
   */
  logTail(namespace: string, pod: string, options: { tailLines: number; previous?: boolean }): Promise<string[]>;
}

/**
 * Pods and nodes as the API server sends them (metadata normalised, every other field kept): the NCCL evidence reads
 * the containers' env and resources and the nodes' allocatable, which the typed kinds (POD, NODE) reduce.
 */
const raw = (kind: string, plural: string, namespaced: boolean) =>
  kubeKind<KubeResource>({ apiVersion: 'v1', kind, plural, namespaced }, (r) =>
    parseBase(r, { apiVersion: 'v1', kind }),
  );
const RAW_POD = raw('Pod', 'pods', true);
const RAW_NODE = raw('Node', 'nodes', false);

/** Bound of one log read: a tail of long lines must not pull megabytes. */
const LOG_BYTES = 256 * 1024;

function kubeReads(kube: KubePort): DiagnosticsKubeReads {
  return {
    async trainingJob(namespace, name) {
      const hyperpod = await findServed(() => kube.find(HYPERPOD_PYTORCH_JOB, name, namespace));
      if (hyperpod) return { job: hyperpod as KubeObject, podSelector: hyperpodPodSelector(name) };
      const ray = await findServed(() => kube.find(RAY_JOB, name, namespace));
      if (!ray) return undefined;
      // KubeRay names the job's Ray cluster in its status once it made it: no pods (no ranks) before.
      const rayCluster = ray.status.rayClusterName;
      return { job: ray as KubeObject, ...(rayCluster ? { podSelector: rayPodSelector(rayCluster) } : {}) };
    },
    pods: async (namespace, labelSelector) => (await kube.list(RAW_POD, { namespace, labelSelector })) as KubeObject[],
    nodes: async () => (await kube.list(RAW_NODE)) as KubeObject[],
    async logTail(namespace, pod, { tailLines, previous }) {
      try {
        const stream = await kube.logs(
          { name: pod, namespace },
          { tailLines, limitBytes: LOG_BYTES, ...(previous ? { previous: true } : {}) },
        );
        const lines: string[] = [];
        for await (const line of linesOf(stream)) lines.push(line);
        return lines.slice(-tailLines);
      } catch (err) {
        // A container not started, a pod gone or no earlier run: the API refuses the read (400/404).
        if (err instanceof KubeNotFound || (err instanceof KubeError && err.httpStatus === 400)) return [];
        throw err;
      }
    },
  };
}

/** A find whose kind may not be served (its operator off): undefined then, like a missing object. */
async function findServed<T>(find: () => Promise<T | undefined>): Promise<T | undefined> {
  try {
    return await find();
  } catch (err) {
    if (err instanceof KubeKindNotServed) return undefined;
    throw err;
  }
}

/**
 * The read port of one workspace, from the services' deps: only read functions are taken out of them. This is the one
 * file of the folder that sees the whole cloud, and it calls describe/list/get members only.
 */
export function readPortOf(deps: ServiceDeps): DiagnosticsReadPort {
  const { cloud, operations } = deps;
  return {
    operation: (id) => operations.get(id),
    operations: (query) => operations.list(query),
    operationLog: (id, after, limit) => operations.events(id, after, limit),
    hyperpodCluster: (region, name) => cloud.hyperpod.describe(region, name),
    async hyperpodEvents(region, cluster, options) {
      try {
        return (await cloud.hyperpodNodes.events(region, cluster, options)).events;
      } catch {
        return []; // clusters outside Continuous provisioning (or gone) have no event list
      }
    },
    role: (roleName) => cloud.iam.describeRole(roleName),
    quotas: (request) => deps.service(catalog).checkQuotas(request),
    async leftBehind(region, cluster) {
      try {
        return await deps.service(clusters).deletePlan(region, cluster, false);
      } catch (err) {
        if (err instanceof NotFoundError) return undefined;
        throw err;
      }
    },
    node: (region, cluster, nodeId) => deps.service(nodes).views.get(region, cluster, nodeId),
    accountId: () => cloud.accountId(),
    async kube(region, cluster) {
      const hp = await describeHyperPod(cloud, region, cluster);
      return kubeReads(await kubeOfHyperPod(cloud, hp, region, { required: true }));
    },
    async instanceTypeFacts(region, instanceType) {
      const types = await deps.service(catalog).instanceTypes(region);
      return types.find((t) => t.instanceType === instanceType);
    },
    async securityGroup(region, cluster) {
      const network = await cloud.network.find(region, cluster);
      return network.securityGroupId
        ? { groupId: network.securityGroupId, rules: network.securityGroupRules ?? [] }
        : undefined;
    },
  };
}
