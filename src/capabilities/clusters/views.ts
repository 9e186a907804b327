import { mapLimited } from '../../cloud/aws/catalog/paginate.js';
import type { CloudPort, EksCluster, HyperPodCluster, HyperPodGroupDetails } from '../../cloud/ports.js';
import { CLOUD_TIMEOUT, CloudError, NotFoundError } from '../../domain/errors.js';
import {
  clusterOfTarget,
  clusterTarget,
  eksClusterNameFor,
  instanceGroupTarget,
  resourceNames,
  TAG_MANAGED_BY,
} from '../../domain/naming.js';
import type { ClusterDetail, ClusterSummary } from '../../domain/schemas/clusters.js';
import type { InstanceGroupView } from '../../domain/schemas/instance-groups.js';
import type { OperationSnapshot, OperationView } from '../../domain/schemas/operations.js';
import type { InstanceGroupSpec } from '../../domain/instance-groups.js';
import { describeHyperPod } from '../../workflows/cluster-access.js';
import { groupSpecOf } from '../../workflows/instance-group-spec.js';
import { settledAnswer } from '../../domain/settled-answer.js';
import { ReadCache } from '../../workflows/read-cache.js';
import type { ServiceOperations } from '../capability.js';
import type { ActiveClusterPort } from './ports.js';
import { storageClaims } from './storage-claims.js';

/** What the views need from the operation engine. */
export interface OperationsLookup {
  /** The operation now working on a target. */
  activeFor(target: string): OperationView | undefined;
  /**
   * For every cluster whose newest create-cluster or delete-cluster operation has not succeeded —
   * it is under way, failed or was cancelled — that operation (from one store query, not one per cluster).
   */
  unsettledClusterOperations(): OperationView[];
  /** Calls `listener` after every change of any operation (the engine's 'operation' event). */
  on(event: 'operation', listener: (op: OperationSnapshot) => void): unknown;
}

/** The views' lookup over the operations every service is given. */
export function operationsLookup(operations: ServiceOperations): OperationsLookup {
  return {
    activeFor: (target) => operations.activeFor(target),
    unsettledClusterOperations: () =>
      operations.latestPerTarget(['create-cluster', 'delete-cluster']).filter((op) => op.status !== 'succeeded'),
    on: (event, listener) => operations.on(event, listener),
  };
}

export interface ClusterViewsOptions {
  /** How long one read of a Region's cluster list (or of one cluster) serves every caller. */
  ttlMs?: number;
  /** How long a cluster's tags are kept (by ARN: a new cluster of the same name has another). */
  tagsTtlMs?: number;
  now?: () => number;
}

/**
 * 3 s: far below how often a person or an agent looks again (the UI polls every 5–30 s), so what
 * changes outside InstantStart (the console, the CLI, HyperPod moving a status) shows on the next
 * look; yet any number of browser tabs, agents and benchmarks asking at once cost one ListClusters
 * per Region per 3 s, well inside SageMaker's List/Describe rates. Our own changes do not wait for
 * it: every operation event drops what was read of its cluster.
 */
const CLUSTER_READ_TTL_MS = 3_000;
/** Tags of a cluster only say whether we made it; they change only by our operations (which drop them) or by hand. */
const TAGS_TTL_MS = 10 * 60_000;
/** ListTags calls at once for one list: concurrent, but not a burst that trips SageMaker's throttling. */
const TAG_READS_AT_ONCE = 8;

type ListedCluster = Awaited<ReturnType<CloudPort['hyperpod']['list']>>[number];

/** What AWS says of one cluster beyond DescribeCluster: whether we made it (its tags), its EKS cluster, its storage. */
interface ClusterFacts {
  managed: boolean;
  eksName: string;
  eks?: EksCluster;
  storage?: ClusterDetail['storage'];
}

type FailedOperation = NonNullable<ClusterSummary['failedOperation']>;

const capacityTypeOf = (g: {
  TrainingPlanArn?: string;
  CapacityRequirements?: { Spot?: unknown };
}): 'on-demand' | 'spot' | 'training-plan' =>
  g.TrainingPlanArn ? 'training-plan' : g.CapacityRequirements?.Spot ? 'spot' : 'on-demand';

/**
 * Read models of clusters: HyperPod (the source of truth) joined with EKS and with the operation
 * now working on each cluster. A cluster still in its network/EKS phases is not in HyperPod yet;
 * its create operation makes it visible as Creating so the user sees what they just asked for. A
 * create (or delete) that stopped part-way leaves a VPC, a NAT gateway, roles or an EKS cluster
 * behind: such a cluster stays listed as Failed, with that operation and what to do, until a delete
 * succeeds — never silently out of sight while it still costs money.
 */
export class ClusterViews {
  /** What AWS says, read once for every concurrent caller and kept a few seconds; operations are joined per request. */
  private readonly lists: ReadCache<Array<{ cluster: ListedCluster; tags: Record<string, string> }>>;
  private readonly descriptions: ReadCache<HyperPodCluster | undefined>;
  private readonly facts: ReadCache<ClusterFacts>;
  private readonly tags: ReadCache<Record<string, string>>;
  /**
   * The operations joined into every answer, asked of the journal once per change rather than once
   * per request and cluster: every operation event drops them (and they last `ttlMs` at most).
   */
  private journal?: { expiresAt: number; unsettled?: OperationView[]; active: Map<string, OperationView | undefined> };
  /** The last list answer per Region, with what it was built from (see `list`). */
  private readonly builtLists = new Map<string, { listed: unknown; journal: unknown; out: ClusterSummary[] }>();
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(
    private readonly cloud: CloudPort,
    private readonly operations: OperationsLookup,
    private readonly activeCluster: ActiveClusterPort,
    { ttlMs = CLUSTER_READ_TTL_MS, tagsTtlMs = TAGS_TTL_MS, now = Date.now }: ClusterViewsOptions = {},
  ) {
    this.lists = new ReadCache({ ttlMs, now });
    this.descriptions = new ReadCache({ ttlMs, now });
    this.facts = new ReadCache({ ttlMs, now });
    this.tags = new ReadCache({ ttlMs: tagsTtlMs, now });
    this.ttlMs = ttlMs;
    this.now = now;
    operations.on('operation', (op) => this.changedBy(op));
  }

  async list(region: string): Promise<ClusterSummary[]> {
    const listed = await this.lists.get(region, () => this.readList(region));
    // Built from the same read and the same journal view as last time: the same answer, the same
    // object (so that the route serializes it once too: src/api/route.ts).
    const journal = this.journalView();
    const built = this.builtLists.get(region);
    if (built && built.listed === listed && built.journal === journal) return built.out;
    const out = settledAnswer(this.assembleList(region, listed));
    this.builtLists.set(region, { listed, journal, out });
    return out;
  }

  private assembleList(
    region: string,
    listed: Array<{ cluster: ListedCluster; tags: Record<string, string> }>,
  ): ClusterSummary[] {
    const unsettled = this.unsettled(region);
    const out: ClusterSummary[] = [];
    for (const { cluster: c, tags } of listed) {
      out.push({
        name: c.name,
        region,
        status: c.status,
        clusterArn: c.arn,
        createdAt: c.createdAt?.toISOString(),
        managedByInstantStart: TAG_MANAGED_BY in tags,
        ...(TAG_MANAGED_BY in tags ? { eksClusterName: eksClusterNameFor(c.name) } : {}),
        ...this.operationOf(region, c.name),
        ...failedOperationOf(unsettled.get(c.name)),
      });
    }
    // Clusters HyperPod does not list: being created or deleted, or left half-made. No createdAt: that is HyperPod's
    // time (the cloud's clock); the operation's start is the server's and is on the operation.
    for (const [name, op] of unsettled) {
      if (out.some((c) => c.name === name)) continue;
      out.push({
        name,
        region,
        status: statusWithoutHyperPod(op),
        managedByInstantStart: true,
        eksClusterName: eksClusterNameFor(name),
        ...this.operationOf(region, name),
        ...failedOperationOf(op),
      });
    }
    return out.sort((a, b) => a.name.localeCompare(b.name));
  }

  async get(region: string, name: string): Promise<ClusterDetail> {
    const key = clusterKey(region, name);
    const hp = await this.descriptions.get(key, () => this.cloud.hyperpod.describe(region, name));
    const op = this.operationOf(region, name);
    const unsettled = this.unsettled(region).get(name);
    if (!hp && !op.activeOperation && !unsettled)
      throw new NotFoundError({
        resource: 'HyperPod cluster',
        id: name,
        message: `HyperPod cluster '${name}' does not exist in ${region}.`,
      });
    const { managed, eks, eksName, storage } = await this.facts.get(key, () => this.readFacts(region, name, hp));
    const active = this.activeCluster.get();
    return {
      name,
      region,
      status:
        hp?.ClusterStatus ??
        (op.activeOperation?.kind === 'delete-cluster'
          ? 'Deleting'
          : unsettled
            ? statusWithoutHyperPod(unsettled)
            : 'Creating'),
      clusterArn: hp?.ClusterArn,
      eksClusterName: eks?.name ?? (managed ? eksName : undefined),
      createdAt: hp?.CreationTime?.toISOString(),
      failureMessage: hp?.FailureMessage,
      managedByInstantStart: managed,
      ...op,
      ...failedOperationOf(unsettled),
      eks: eks
        ? {
            name: eks.name!,
            arn: eks.arn!,
            status: eks.status!,
            version: eks.version,
            endpoint: eks.endpoint,
            vpcId: eks.resourcesVpcConfig?.vpcId,
            subnetIds: eks.resourcesVpcConfig?.subnetIds ?? [],
          }
        : undefined,
      nodeRecovery: hp?.NodeRecovery,
      nodeProvisioningMode: hp?.NodeProvisioningMode,
      instanceGroups: (hp?.InstanceGroups ?? []).map((g) => ({
        name: g.InstanceGroupName!,
        instanceType: g.InstanceType!,
        currentCount: g.CurrentCount ?? 0,
        targetCount: g.TargetCount ?? 0,
        status: g.Status ?? 'Unknown',
        capacityType: capacityTypeOf(g as { TrainingPlanArn?: string; CapacityRequirements?: { Spot?: unknown } }),
        ...(g.TrainingPlanArn ? { trainingPlanArn: g.TrainingPlanArn } : {}),
      })),
      storage,
      isActive: active?.name === name && active.region === region,
    };
  }

  /** The cluster's instance groups, each with the operation now working on it. */
  async instanceGroups(region: string, name: string): Promise<InstanceGroupView[]> {
    const hp = await describeHyperPod(this.cloud, region, name);
    return (hp.InstanceGroups ?? []).map((g) => {
      const op = this.operations.activeFor(instanceGroupTarget(region, name, g.InstanceGroupName!));
      return {
        ...instanceGroupView(g, hp.VpcConfig?.Subnets ?? []),
        ...(op ? { activeOperation: { id: op.id, kind: op.kind, status: op.status } } : {}),
      };
    });
  }

  /** One group in domain terms (what a change request is diffed against); undefined when it does not exist. */
  async groupSpec(region: string, name: string, group: string): Promise<InstanceGroupSpec | undefined> {
    const hp = await describeHyperPod(this.cloud, region, name);
    const details = hp.InstanceGroups?.find((g) => g.InstanceGroupName === group);
    return details ? groupSpecOf(details) : undefined;
  }

  /**
   * Our own operations are what change our clusters: each event drops what was read of the cluster
   * it works on (its description, facts and tags) and its Region's list, so the next look reads AWS
   * again — a create, a delete or a group change is never hidden behind a kept answer.
   */
  private changedBy(op: OperationSnapshot): void {
    this.journal = undefined;
    const cluster = clusterOfTarget(op.target);
    if (!cluster) return;
    const key = clusterKey(cluster.region, cluster.name);
    this.lists.invalidate(cluster.region);
    this.descriptions.invalidate(key);
    this.facts.invalidate(key);
    this.tags.invalidate((k) => k.startsWith(`${key}/`));
  }

  /** ListClusters, then the tags of each (kept per ARN; at most TAG_READS_AT_ONCE calls at once). */
  private async readList(region: string): Promise<Array<{ cluster: ListedCluster; tags: Record<string, string> }>> {
    const clusters = await this.cloud.hyperpod.list(region);
    return mapLimited(clusters, TAG_READS_AT_ONCE, async (cluster) => ({
      cluster,
      tags: await this.tagsOf(region, cluster.name, cluster.arn),
    }));
  }

  /** A refused read is "no tags" for this answer only: only tags actually read are kept. */
  private tagsOf(region: string, name: string, arn: string): Promise<Record<string, string>> {
    return tagsOrNone(this.tags.get(`${clusterKey(region, name)}/${arn}`, () => this.cloud.hyperpod.tags(region, arn)));
  }

  private async readFacts(region: string, name: string, hp: HyperPodCluster | undefined): Promise<ClusterFacts> {
    const tags = hp?.ClusterArn ? await this.tagsOf(region, name, hp.ClusterArn) : {};
    const managed = !hp || TAG_MANAGED_BY in tags;
    const eksArn = hp?.Orchestrator?.Eks?.ClusterArn;
    const eksName = eksArn ? eksArn.split('/').pop()! : eksClusterNameFor(name);
    const eks = await this.cloud.eks.describeCluster(region, eksName);
    if (!managed) return { managed, eksName, eks };
    const names = resourceNames(name, await this.cloud.accountId(), region);
    const [bucket, fs] = await Promise.all([
      this.cloud.storage.bucketExists(region, names.bucket),
      this.cloud.storage.findFileSystem(region, name),
    ]);
    const wanted = [
      ...(bucket ? [{ store: 's3' as const, name: names.persistentVolumeClaim }] : []),
      ...(fs ? [{ store: 'fsx' as const, name: names.fsxPersistentVolumeClaim }] : []),
    ];
    const claims = wanted.length && eks?.endpoint ? await storageClaims(this.cloud, region, eksName, wanted) : [];
    const storage = {
      ...(bucket ? { s3Bucket: names.bucket, persistentVolumeClaim: `default/${names.persistentVolumeClaim}` } : {}),
      ...(fs ? { fsxFileSystemId: fs.FileSystemId } : {}),
      ...(claims.length ? { claims } : {}),
    };
    return { managed, eksName, eks, storage };
  }

  private journalView(): NonNullable<ClusterViews['journal']> {
    const now = this.now();
    if (!this.journal || this.journal.expiresAt <= now)
      this.journal = { expiresAt: now + this.ttlMs, active: new Map() };
    return this.journal;
  }

  /** This region's clusters whose last create or delete has not succeeded, by name. */
  private unsettled(region: string): Map<string, OperationView> {
    const out = new Map<string, OperationView>();
    const journal = this.journalView();
    journal.unsettled ??= this.operations.unsettledClusterOperations();
    for (const op of journal.unsettled) {
      const input = op.input as { name?: unknown; region?: unknown };
      if (input.region === region && typeof input.name === 'string') out.set(input.name, op);
    }
    return out;
  }

  private operationOf(region: string, name: string): Pick<ClusterSummary, 'activeOperation'> {
    const active = this.journalView().active;
    const target = clusterTarget(region, name);
    if (!active.has(target)) active.set(target, this.operations.activeFor(target));
    const op = active.get(target);
    if (!op) return {};
    const phases = {
      ...(op.currentPhase ? { currentPhase: op.currentPhase } : {}),
      ...(op.runningPhases.length ? { runningPhases: op.runningPhases } : {}),
    };
    return { activeOperation: { id: op.id, kind: op.kind, status: op.status, ...phases } };
  }
}

const clusterKey = (region: string, name: string) => `${region}/${name}`;

/**
 * Tags only tell whether we made a cluster: a refusal (say, no permission to read them) reads as
 * "none", but a cloud that does not answer is still a timeout — a 504, not a slow half-empty answer.
 */
function tagsOrNone(tags: Promise<Record<string, string>>): Promise<Record<string, string>> {
  return tags.catch((err: unknown) => {
    if (err instanceof CloudError && err.code === CLOUD_TIMEOUT) throw err;
    return {};
  });
}

const isStopped = (op: OperationView) => op.status === 'failed' || op.status === 'cancelled';

/** The status of a cluster HyperPod does not know, from its unsettled create or delete. */
function statusWithoutHyperPod(op: OperationView): string {
  if (isStopped(op)) return 'Failed';
  return op.kind === 'delete-cluster' ? 'Deleting' : 'Creating';
}

/** The failed or cancelled create/delete of a cluster, with what to do about what it left. */
function failedOperationOf(op: OperationView | undefined): { failedOperation?: FailedOperation } {
  if (!op || !isStopped(op)) return {};
  const { name, region } = op.input as { name: string; region: string };
  const phase = op.error?.phase;
  const what = op.kind === 'delete-cluster' ? 'Its delete stopped part-way' : 'Its create stopped part-way';
  const retry =
    op.status === 'failed' && phase
      ? `, or fix the cause and retry the failed phase (POST /api/v1/operations/${op.id}/phases/${phase}/retry; MCP retry_operation_phase)`
      : '';
  return {
    failedOperation: {
      id: op.id,
      kind: op.kind,
      status: op.status,
      ...(phase ? { phase } : {}),
      ...(op.error ? { code: op.error.code, message: op.error.message } : {}),
      remedy: `${what}: what it made is still there and may cost money. Delete the cluster to remove it (DELETE /api/v1/clusters/${name}?region=${region}&confirm=true; MCP delete_cluster)${retry}.`,
    },
  };
}

/** One group as the API shows it, from HyperPod's description (the source of truth). */
export function instanceGroupView(g: HyperPodGroupDetails, clusterSubnets: string[]): InstanceGroupView {
  const k = g.KubernetesConfig;
  const spec = groupSpecOf(g);
  return {
    name: g.InstanceGroupName!,
    instanceType: g.InstanceType ?? 'unknown',
    status: g.Status ?? 'Unknown',
    currentCount: g.CurrentCount ?? 0,
    targetCount: g.TargetCount ?? 0,
    ...(g.MinCount !== undefined ? { minCount: g.MinCount } : {}),
    capacityType: capacityTypeOf(g as { TrainingPlanArn?: string; CapacityRequirements?: { Spot?: unknown } }),
    ...(g.TrainingPlanArn ? { trainingPlanArn: g.TrainingPlanArn } : {}),
    ...((g as { NetworkInterface?: { InterfaceType?: 'efa' | 'efa-only' } }).NetworkInterface?.InterfaceType
      ? {
          networkInterface: (g as { NetworkInterface: { InterfaceType: 'efa' | 'efa-only' } }).NetworkInterface
            .InterfaceType,
        }
      : {}),
    ...(g.ThreadsPerCore ? { threadsPerCore: g.ThreadsPerCore } : {}),
    deepHealthChecks: (g.OnStartDeepHealthChecks?.length ?? 0) > 0,
    subnetIds: g.OverrideVpcConfig?.Subnets ?? clusterSubnets,
    labels: k?.DesiredLabels ?? k?.CurrentLabels ?? {},
    taints: (k?.DesiredTaints ?? k?.CurrentTaints ?? []).map((t) => ({
      key: t.Key!,
      ...(t.Value !== undefined ? { value: t.Value } : {}),
      effect: t.Effect!,
    })),
    // The settings an edit changes, read as a change request is diffed against them.
    ...(spec.lifecycleConfig ? { lifecycleConfig: spec.lifecycleConfig } : {}),
    ...(spec.scheduledUpdate ? { scheduledUpdate: spec.scheduledUpdate } : {}),
    ...(spec.autoPatch ? { autoPatch: spec.autoPatch } : {}),
  };
}
