/**
 * One shared watch per cluster of its nodes while anyone watches: a loop reads the nodes afresh
 * (the node views' snapshot: DescribeCluster, ListClusterNodes, the Kubernetes Nodes) and calls
 * every watcher when what a person sees of them changed. Fifty browser tabs on one cluster cost
 * the cloud what one does; the read it makes is the one the tabs' refetch is then served from.
 *
 * Polling, not a Kubernetes watch: half of what matters (instances launched, replaced, slots
 * waiting for capacity) is only in SageMaker, which has no change stream. The pause grows with
 * the cluster (ListClusterNodes is 100 nodes a page) so a large cluster costs at most about one
 * page per second, and backs off while reads fail.
 */

export interface NodeWatchOptions {
  /** Pause between reads of a small cluster (a fault at 20× sandbox speed lasts a few seconds). */
  minIntervalMs?: number;
  maxIntervalMs?: number;
  /** Extra pause per node (a 1,000-node cluster: 10 list pages). */
  perNodeMs?: number;
}

interface Watched {
  listeners: Set<() => void>;
  digest?: string;
  timer?: ReturnType<typeof setTimeout>;
  stopped: boolean;
}

export type NodeDigest = (region: string, cluster: string) => Promise<{ digest: string; nodes: number }>;

export class NodeWatches {
  private readonly watched = new Map<string, Watched>();
  private readonly minMs: number;
  private readonly maxMs: number;
  private readonly perNodeMs: number;

  constructor(
    private readonly read: NodeDigest,
    { minIntervalMs = 2_000, maxIntervalMs = 30_000, perNodeMs = 10 }: NodeWatchOptions = {},
  ) {
    this.minMs = minIntervalMs;
    this.maxMs = maxIntervalMs;
    this.perNodeMs = perNodeMs;
  }

  /** Calls `changed` whenever the cluster's nodes change, until the returned function is called. */
  watch(region: string, cluster: string, changed: () => void): () => void {
    const key = `${region}/${cluster}`;
    let w = this.watched.get(key);
    if (!w) {
      w = { listeners: new Set(), stopped: false };
      this.watched.set(key, w);
      this.loop(w, region, cluster, this.minMs);
    }
    const listener = () => changed();
    w.listeners.add(listener);
    const watched = w;
    return () => {
      watched.listeners.delete(listener);
      if (watched.listeners.size > 0) return;
      watched.stopped = true;
      clearTimeout(watched.timer);
      if (this.watched.get(key) === watched) this.watched.delete(key);
    };
  }

  /** Clusters watched now (for tests of the sharing). */
  get size(): number {
    return this.watched.size;
  }

  private loop(w: Watched, region: string, cluster: string, pause: number): void {
    void this.read(region, cluster).then(
      ({ digest, nodes }) => {
        if (w.stopped) return;
        const before = w.digest;
        w.digest = digest;
        // The first read signals too: a change between the page's own read and this baseline would
        // otherwise never be told (one refetch per new watch is the price).
        if (before !== digest) for (const l of [...w.listeners]) l();
        this.schedule(w, region, cluster, Math.min(this.maxMs, Math.max(this.minMs, nodes * this.perNodeMs)));
      },
      () => {
        if (w.stopped) return;
        this.schedule(w, region, cluster, Math.min(this.maxMs, pause * 2));
      },
    );
  }

  private schedule(w: Watched, region: string, cluster: string, pause: number): void {
    w.timer = setTimeout(() => this.loop(w, region, cluster, pause), pause);
    w.timer.unref?.();
  }
}
