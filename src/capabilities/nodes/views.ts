import type { CloudPort, HyperPodCluster, HyperPodEvent, KubePort, ListedKubeObject } from '../../cloud/ports.js';
import { mapLimited } from '../../cloud/aws/catalog/paginate.js';
import { InputError, NotFoundError } from '../../domain/errors.js';
import { EVENT } from '../../domain/kube/event.js';
import { NODE } from '../../domain/kube/node.js';
import { POD, UNFINISHED_PODS } from '../../domain/kube/pod.js';
import { clusterHealth, type ClusterHealth, type GroupShortfall } from '../../domain/cluster-health.js';
import type { NodeHealthState } from '../../domain/node-health-terms.js';
import type {
  ClusterEvent,
  ListClusterEventsQuery,
  ListNodesQuery,
  NodeDetail,
  NodeList,
  NodeView,
} from '../../domain/schemas/nodes.js';
import { describeHyperPod, kubeOfHyperPod } from '../../workflows/cluster-access.js';
import { ReadCache } from '../../workflows/read-cache.js';
import { conditionsOf, joinNodes, nodeViewOf, podsByNode, type NodeRow } from './join.js';
import { hyperpodEvent, kubeEvent, mergeNewestFirst } from './events.js';
import { readShortfalls } from './shortfalls.js';
import { NodeWatches, type NodeWatchOptions } from './watch.js';
import { settledAnswer } from '../../domain/settled-answer.js';

/**
 * One read of a cluster's nodes, joined; pages of a listing are cut from it. It holds only what the
 * table shows (one row per node, no Kubernetes objects) and the pod counts of the nodes shown so far.
 */
interface Snapshot {
  at: number;
  nodes: NodeRow[];
  /** Groups short of their target count (slots without an instance, and why). */
  shortfalls: GroupShortfall[];
  kube?: KubePort;
  /** Unfinished pods per Node name, counted the first time a page shows the node (shared while under way). */
  podCounts: Map<string, Promise<number>>;
}

/** Clusters whose node snapshot is kept (each is one row per node: a few MB at 5,000 nodes). */
const SNAPSHOTS_KEPT = 8;
/** Health rollups kept (one per cluster listed). */
const HEALTHS_KEPT = 512;
/** Pod lists at once for one page: a page of 50 costs ~7 rounds, not 50 requests in one burst. */
const POD_COUNTS_AT_ONCE = 8;

export interface NodeViewsOptions {
  /** How long one joined read serves later pages and filters (a 5,000-node read is ~50 AWS calls). */
  snapshotTtlMs?: number;
  now?: () => number;
  watch?: NodeWatchOptions;
}

/**
 * Read models of a cluster's nodes: SageMaker's ListClusterNodes joined with the
 * Kubernetes Nodes, judged by the one health model, filtered and paged on the server so a
 * 5,000-node cluster costs the browser one page — and the server the pods of that page only.
 */
export class NodeViews {
  /** One read per cluster serves every page, filter and concurrent caller for its TTL; a failed read is not kept. */
  private readonly snapshots: ReadCache<Snapshot>;
  private readonly now: () => number;
  /** One shared live watch per cluster while a browser watches its nodes (routes.ts defines the topic). */
  readonly watches: NodeWatches;
  /** Each cluster's health rollup, a few bytes each (see `health`). */
  private readonly healths: ReadCache<ClusterHealth>;

  constructor(
    private readonly cloud: CloudPort,
    options: NodeViewsOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.snapshots = new ReadCache({
      ttlMs: options.snapshotTtlMs ?? 5_000,
      maxEntries: SNAPSHOTS_KEPT,
      now: this.now,
    });
    this.healths = new ReadCache({ ttlMs: options.snapshotTtlMs ?? 5_000, maxEntries: HEALTHS_KEPT, now: this.now });
    this.watches = new NodeWatches((region, cluster) => this.freshDigest(region, cluster), options.watch);
  }

  async list(region: string, cluster: string, query: ListNodesQuery): Promise<NodeList> {
    const snap = await this.snapshot(region, cluster);
    const placed = snap.nodes.filter(
      (n) =>
        (!query.group || n.instanceGroupName === query.group) &&
        (!query.availabilityZone || n.availabilityZone === query.availabilityZone),
    );
    const counts: Record<NodeHealthState, number> = { healthy: 0, degraded: 0, failed: 0, transitional: 0 };
    for (const n of placed) counts[n.health.state]++;
    const matching = query.health ? placed.filter((n) => n.health.state === query.health) : placed;
    const offset = decodeToken(query.nextToken);
    const rows = matching.slice(offset, offset + query.limit);
    const podCounts = await mapLimited(rows, POD_COUNTS_AT_ONCE, (n) => this.podCount(snap, n));
    const page: NodeView[] = rows.map((n, i) => ({ ...n, podCount: podCounts[i]! }));
    const next = offset + page.length;
    const shortfalls = snap.shortfalls.filter((s) => !query.group || s.instanceGroupName === query.group);
    return {
      cluster,
      region,
      nodes: page,
      total: matching.length,
      counts,
      shortfalls,
      ...(next < matching.length ? { nextToken: encodeToken(next) } : {}),
    };
  }

  /** The cluster's health rolled up from the same snapshot the node list reads (no read of its own). */
  async health(region: string, cluster: string): Promise<ClusterHealth> {
    // Kept apart from the snapshots, for as long: the clusters list asks for every cluster on every
    // request, and more clusters than SNAPSHOTS_KEPT would otherwise read their nodes each time.
    return this.healths.get(`${region}/${cluster}`, async () =>
      settledAnswer(healthOf(await this.snapshot(region, cluster))),
    );
  }

  /** The shortfall of each group short of its target, from the same snapshot. */
  async shortfalls(region: string, cluster: string): Promise<GroupShortfall[]> {
    return (await this.snapshot(region, cluster)).shortfalls;
  }

  /**
   * Reads the cluster's nodes afresh (the read then serves every page and the health for its TTL)
   * and answers a digest of what a person sees of them: each node's health and status, and the
   * shortfalls. The live node watch compares digests to tell browsers to refetch.
   */
  async freshDigest(region: string, cluster: string): Promise<{ digest: string; nodes: number }> {
    this.forget(region, cluster);
    const snap = await this.snapshot(region, cluster);
    const digest = JSON.stringify([
      snap.nodes.map((n) => [
        n.instanceId,
        n.health.state,
        n.health.code,
        n.instanceStatus.status,
        n.labels.healthStatus ?? '',
      ]),
      snap.shortfalls.map((s) => [s.instanceGroupName, s.targetCount, s.launched, s.state, s.reason ?? '']),
    ]);
    return { digest, nodes: snap.nodes.length };
  }

  /** Everything about one node, read fresh (no snapshot): SageMaker, Kubernetes, pods, events. */
  async get(region: string, cluster: string, instanceId: string): Promise<NodeDetail> {
    const hp = await describeHyperPod(this.cloud, region, cluster);
    const details = await this.cloud.hyperpodNodes.describe(region, cluster, instanceId);
    const kube = await kubeOfHyperPod(this.cloud, hp, region);
    const nodeName = `hyperpod-${instanceId}`;
    const kubeNode = kube ? await kube.find(NODE, nodeName) : undefined;
    if (!details && !kubeNode)
      throw new NotFoundError({
        resource: 'node',
        id: instanceId,
        message: `Cluster ${cluster} has no node ${instanceId} (neither HyperPod nor Kubernetes knows it).`,
      });
    const pods = kube && kubeNode ? await kube.list(POD, { fieldSelector: `spec.nodeName=${nodeName}` }) : [];
    const unfinished = podsByNode(pods).get(nodeName) ?? [];
    const group = hp.InstanceGroups?.find((g) => g.InstanceGroupName === details?.InstanceGroupName);
    const node: NodeView = {
      ...nodeViewOf(
        details
          ? {
              InstanceId: details.InstanceId,
              NodeLogicalId: details.NodeLogicalId,
              InstanceGroupName: details.InstanceGroupName,
              InstanceType: details.InstanceType,
              LaunchTime: details.LaunchTime,
              InstanceStatus: details.InstanceStatus,
            }
          : undefined,
        kubeNode,
        group,
        hp.NodeRecovery as 'Automatic' | 'None' | undefined,
        this.now(),
      ),
      podCount: unfinished.length,
    };
    if (details?.Placement?.AvailabilityZone) node.availabilityZone = details.Placement.AvailabilityZone;
    if (details?.PrivatePrimaryIp) node.privateIp = details.PrivatePrimaryIp;
    const notes: string[] = [];
    const events = await this.timeline(hp, region, cluster, kube, { nodeId: instanceId, nodeName, limit: 50 }, notes);
    return {
      cluster,
      region,
      node,
      conditions: conditionsOf(kubeNode).map((c) => ({
        ...c,
        lastTransitionTime: c.lastTransitionTime === undefined ? undefined : String(c.lastTransitionTime),
      })),
      labels: kubeNode?.metadata?.labels ?? {},
      pods: unfinished.map((p) => ({
        namespace: p.metadata?.namespace ?? 'default',
        name: p.metadata?.name ?? '',
        phase: String((p.status as { phase?: string } | undefined)?.phase ?? 'Unknown'),
      })),
      events,
    };
  }

  /** HyperPod's and Kubernetes' events of the cluster, newest first. */
  async events(
    region: string,
    cluster: string,
    query: ListClusterEventsQuery,
  ): Promise<{ cluster: string; region: string; events: ClusterEvent[]; notes: string[] }> {
    const hp = await describeHyperPod(this.cloud, region, cluster);
    const kube = await kubeOfHyperPod(this.cloud, hp, region);
    const notes: string[] = [];
    const events = await this.timeline(
      hp,
      region,
      cluster,
      kube,
      {
        nodeId: query.nodeId,
        nodeName: query.nodeId ? `hyperpod-${query.nodeId}` : undefined,
        group: query.group,
        limit: query.limit,
      },
      notes,
    );
    return { cluster, region, events, notes };
  }

  private async timeline(
    hp: HyperPodCluster,
    region: string,
    cluster: string,
    kube: KubePort | undefined,
    filter: { nodeId?: string; nodeName?: string; group?: string; limit: number },
    notes: string[],
  ): Promise<ClusterEvent[]> {
    let hyperpod: HyperPodEvent[] = [];
    if (hp.NodeProvisioningMode === 'Continuous') {
      let nextToken: string | undefined;
      do {
        const page = await this.cloud.hyperpodNodes.events(region, cluster, {
          nodeId: filter.nodeId,
          groupName: filter.group,
          nextToken,
          maxResults: 100,
        });
        hyperpod.push(...page.events);
        nextToken = hyperpod.length < filter.limit ? page.nextToken : undefined;
      } while (nextToken);
    } else {
      notes.push(
        'HyperPod lists cluster events only for clusters with Continuous node provisioning; this cluster shows Kubernetes events only.',
      );
    }
    hyperpod = hyperpod.slice(0, filter.limit);
    let kubeEvents: ListedKubeObject[] = [];
    if (kube) {
      const selector = filter.nodeName
        ? `involvedObject.kind=Node,involvedObject.name=${filter.nodeName}`
        : 'involvedObject.kind=Node';
      kubeEvents = await kube.list(EVENT, { fieldSelector: selector });
      if (filter.group) {
        const groupNodes = new Set<string | undefined>(
          (await kube.list(NODE, { labelSelector: `sagemaker.amazonaws.com/instance-group-name=${filter.group}` })).map(
            (n) => n.metadata.name,
          ),
        );
        kubeEvents = kubeEvents.filter((e) =>
          groupNodes.has((e.involvedObject as { name?: string } | undefined)?.name),
        );
      }
    } else {
      notes.push('The EKS cluster has no Kubernetes API yet, so only HyperPod events are shown.');
    }
    return mergeNewestFirst([...hyperpod.map(hyperpodEvent), ...kubeEvents.map(kubeEvent)], filter.limit);
  }

  private snapshot(region: string, cluster: string): Promise<Snapshot> {
    const key = `${region}/${cluster}`;
    return this.snapshots.get(key, async () => {
      const snap = await this.read(region, cluster);
      // A newer read of the nodes: the rollup of an older one no longer stands (the node list and the
      // cluster's health must never disagree, e.g. a shortfall listed while the cluster says healthy).
      this.healths.invalidate(key);
      return snap;
    });
  }

  /** Drops the cluster's snapshot: the next listing reads afresh (after a node action changed the nodes). */
  forget(region: string, cluster: string): void {
    this.snapshots.invalidate(`${region}/${cluster}`);
    this.healths.invalidate(`${region}/${cluster}`);
  }

  /**
   * SageMaker's nodes joined with the Kubernetes Nodes. Pods are not listed here: listing every pod
   * of a 5,000-node cluster to count them took seconds and gigabytes, and outlived its continue
   * token; they are counted per node, for the page shown (`podCount`).
   */
  private async read(region: string, cluster: string): Promise<Snapshot> {
    const hp = await describeHyperPod(this.cloud, region, cluster);
    const kube = await kubeOfHyperPod(this.cloud, hp, region);
    const [summaries, kubeNodes] = await Promise.all([
      this.cloud.hyperpodNodes.listAll(region, cluster),
      kube ? kube.list(NODE) : Promise.resolve([]),
    ]);
    const now = this.now();
    const nodes = joinNodes({
      summaries,
      kubeNodes,
      groups: hp.InstanceGroups ?? [],
      nodeRecovery: hp.NodeRecovery as 'Automatic' | 'None' | undefined,
      now,
    });
    const shortfalls = await readShortfalls(this.cloud, region, cluster, hp, summaries);
    return { at: now, nodes, shortfalls, ...(kube ? { kube } : {}), podCounts: new Map() };
  }

  /** A node's unfinished pods, by one list of its own (`spec.nodeName`); a node without a Kubernetes Node has none. */
  private podCount(snap: Snapshot, node: NodeRow): Promise<number> {
    const name = node.nodeName;
    if (!snap.kube || !name) return Promise.resolve(0);
    const known = snap.podCounts.get(name);
    if (known) return known;
    const counted = snap.kube
      .list(POD, { fieldSelector: `spec.nodeName=${name},${UNFINISHED_PODS}` })
      .then((pods) => podsByNode(pods).get(name)?.length ?? 0);
    snap.podCounts.set(name, counted);
    // A failed count is not kept: the next page that shows the node asks again.
    counted.catch(() => snap.podCounts.get(name) === counted && snap.podCounts.delete(name));
    return counted;
  }
}

function healthOf(snap: Snapshot): ClusterHealth {
  const counts: Record<NodeHealthState, number> = { healthy: 0, degraded: 0, failed: 0, transitional: 0 };
  for (const n of snap.nodes) counts[n.health.state]++;
  return clusterHealth(counts, snap.shortfalls);
}

/** Page tokens are offsets into the filtered, ordered list; opaque to clients. */
function encodeToken(offset: number): string {
  return Buffer.from(JSON.stringify({ o: offset })).toString('base64url');
}

function decodeToken(token: string | undefined): number {
  if (!token) return 0;
  try {
    const o = (JSON.parse(Buffer.from(token, 'base64url').toString()) as { o?: unknown }).o;
    if (typeof o === 'number' && Number.isInteger(o) && o >= 0) return o;
  } catch {
    /* answered below */
  }
  throw InputError.field('nextToken', 'is not a token this server gave out; start again without nextToken');
}
