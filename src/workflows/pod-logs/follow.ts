import type { KubePort } from '../../cloud/ports.js';
import { POD, type KubePod } from '../../domain/kube/pod.js';
import type { LogStreamMessage } from '../../domain/schemas/training.js';
import { compareTimes, LineSplitter, matchesGrep, mergeByTime, parseStampedLine } from './lines.js';
import { readFailure, textChunks, type RankTail } from './pod-reads.js';
import { readableRun, type RankedPod } from './pod-runs.js';

/**
 * The set of pods a follow reads (a training job's ranks, an endpoint's pods): where they are, which label
 * selectors find them, and how the pods seen are numbered.
 */
export interface FollowedPods {
  kube: KubePort;
  namespace: string;
  /** The pods asked for now, by number (the tail was read from these). */
  ranks: RankedPod[];
  /** The label selectors whose pods are watched for new runs. */
  selectors: string[];
  /** The pods seen by the watch, numbered; only those asked for. */
  number(pods: readonly KubePod[]): RankedPod[];
  /** A selector known only later (a RayJob's Ray cluster once KubeRay made it): watched once it resolves. */
  later?(signal: AbortSignal): Promise<string | undefined>;
}

/** What a follow reads beside the pods: how far back its first follow goes, and the grep. */
export interface FollowQuery {
  sinceSeconds?: number;
  grep?: string;
}

/** The capped tail a follow starts from (each pod's, with where its log stood). */
export type TailRead = (signal: AbortSignal) => Promise<RankTail[]>;

/** Where a follow sends its messages: the route's WebSocket. */
export interface FollowSink {
  /** Sends one message; false when the client is too far behind to take more (the session then drops it). */
  send(message: LogStreamMessage): boolean;
  /** Sends `dropped` whatever the backlog (best effort) and closes the stream. */
  drop(reason: string): void;
  /** Closes the stream after an `error` message: it cannot go on. */
  fail(): void;
}

/** The run of a rank's pod being (or last) followed. */
interface Followed {
  uid: string;
  run: number;
  pod: string;
  active: boolean;
}

/**
 * One client's live view of a set of pods' logs (a training job's ranks, an endpoint's pods): the capped tail
 * first, `tail-end`, then every pod's new lines as the kubelet streams them (a follow per pod, resumed exactly after
 * the tail's last line). A watch of the pods starts a new follow when a container restarts in place or a pod is
 * (re)created (`rank-started`); a follow that ends says so (`rank-ended`, with why).
 *
 * Nothing is buffered for the client: each line is handed to the sink as it is read, and the
 * kubelet is read no faster than that. When the sink says the client is too far behind, the client
 * is dropped and every upstream request is aborted — a slow or vanished client costs nothing.
 */
export class FollowSession {
  private readonly controller = new AbortController();
  private readonly followed = new Map<number, Followed>();
  private readonly pods = new Map<string, KubePod>();
  private closed = false;

  constructor(
    private readonly tails: TailRead,
    private readonly target: FollowedPods,
    private readonly query: FollowQuery,
    private readonly sink: FollowSink,
  ) {}

  /** Ends the session: every log stream and the pod watch are aborted. Safe to call twice. */
  stop(): void {
    this.closed = true;
    this.controller.abort();
  }

  get stopped(): boolean {
    return this.closed;
  }

  async start(): Promise<void> {
    try {
      const tails = await this.tails(this.controller.signal);
      if (this.closed) return;
      for (const line of mergeByTime(tails.map((t) => t.lines))) if (!this.emit({ type: 'line', ...line })) return;
      if (
        !this.emit({
          type: 'tail-end',
          ranks: tails.filter((t) => !t.error).map((t) => ({ rank: t.rank, pod: t.pod })),
        })
      )
        return;
      for (const tail of tails) {
        const ranked = this.target.ranks.find((r) => r.rank === tail.rank);
        if (ranked && !tail.error) this.followRank(ranked, tail);
      }
      await this.watchPods();
    } catch (err) {
      if (this.closed) return;
      this.emit({ type: 'error', message: readFailure(err) });
      this.stop();
      this.sink.fail();
    }
  }

  private emit(message: LogStreamMessage): boolean {
    if (this.closed) return false;
    if (this.sink.send(message)) return true;
    this.stop();
    this.sink.drop('the client did not keep up: reconnect (with sinceSeconds) to resume');
    return false;
  }

  /** Follows the rank's current run: after the tail's last line when it was in the tail, else from the run's start. */
  private followRank(ranked: RankedPod, tail?: RankTail): void {
    const { pod } = ranked;
    const state: Followed = {
      uid: pod.metadata.uid ?? '',
      run: readableRun(pod) ?? 0,
      pod: pod.metadata.name,
      active: true,
    };
    this.followed.set(ranked.rank, state);
    void this.relay(ranked, tail).finally(() => {
      state.active = false;
      if (!this.closed) void this.ended(ranked).then(() => this.reconcile());
    });
  }

  private async relay(ranked: RankedPod, tail: RankTail | undefined): Promise<void> {
    const { pod, rank } = ranked;
    const resume = tail?.resume;
    // The tail's lines are sent: skip what the follow repeats (the kubelet resumes at whole seconds).
    let skipAtResume = resume?.linesAtTime ?? 0;
    let resuming = resume !== undefined;
    const since = resume
      ? { sinceTime: resume.time }
      : tail && this.query.sinceSeconds !== undefined
        ? { sinceSeconds: this.query.sinceSeconds }
        : {};
    try {
      const stream = await this.target.kube.logs(
        { name: pod.metadata.name, namespace: pod.metadata.namespace ?? 'default' },
        { follow: true, timestamps: true, ...since, signal: this.controller.signal },
      );
      const splitter = new LineSplitter();
      for await (const chunk of textChunks(stream)) {
        for (const raw of splitter.push(chunk)) {
          const { time, text } = parseStampedLine(raw);
          if (resuming && resume) {
            const order = compareTimes(time, resume.time);
            if (order < 0) continue;
            if (order === 0 && skipAtResume > 0) {
              skipAtResume--;
              continue;
            }
            resuming = false;
          }
          if (!matchesGrep(text, this.query.grep)) continue;
          if (!this.emit({ type: 'line', rank, pod: pod.metadata.name, ...(time ? { time } : {}), text })) return;
        }
      }
    } catch (err) {
      if (this.closed) return;
      this.emit({ type: 'line', rank, pod: pod.metadata.name, text: `(log stream failed: ${readFailure(err)})` });
    }
  }

  /** Says that a rank's stream ended, and why, from the pod as it is now. */
  private async ended(ranked: RankedPod): Promise<void> {
    const name = ranked.pod.metadata.name;
    let reason = 'the log stream ended';
    try {
      const pod = await this.target.kube.find(POD, name, ranked.pod.metadata.namespace ?? 'default');
      const c = pod?.status.containerStatuses[0];
      if (!pod || pod.metadata.uid !== ranked.pod.metadata.uid) reason = 'the pod was deleted';
      else if (c && c.restartCount > (readableRun(ranked.pod) ?? 0))
        reason = `the container restarted (restart ${c.restartCount})`;
      else if (c?.current.state === 'terminated')
        reason = `${c.current.reason ?? 'Terminated'} (exit code ${c.current.exitCode ?? 'unknown'})`;
      else if (c?.current.state === 'waiting') reason = `the container stopped (${c.current.reason ?? 'waiting'})`;
      if (pod) this.pods.set(name, pod);
    } catch {
      // The reason is a courtesy: the stream's end is reported whatever the API says now.
    }
    this.emit({ type: 'rank-ended', rank: ranked.rank, pod: name, reason });
  }

  /** Watches the pods (each selector of them) so that a pod's next run (restart in place, or a new pod) is followed too. */
  private async watchPods(): Promise<void> {
    const watches = this.target.selectors.map((selector) => this.watchSelected(selector));
    if (this.target.later) watches.push(this.awaitLater(this.target.later));
    await Promise.all(watches);
  }

  /** Pods found by a selector known only later (a RayJob's Ray cluster): watched once it is known. */
  private async awaitLater(later: NonNullable<FollowedPods['later']>): Promise<void> {
    try {
      const selector = await later(this.controller.signal);
      if (selector && !this.closed) await this.watchSelected(selector);
    } catch (err) {
      if (!this.closed)
        this.emit({
          type: 'error',
          message: `the watch for the pods still to come ended: ${readFailure(err)}; reconnect to follow them`,
        });
    }
  }

  private async watchSelected(selector: string): Promise<void> {
    const { namespace } = this.target;
    try {
      for await (const event of this.target.kube.watch(POD, {
        namespace,
        labelSelector: selector,
        signal: this.controller.signal,
      })) {
        if (this.closed) return;
        if (event.type === 'BOOKMARK') continue;
        if (event.type === 'DELETED') this.pods.delete(event.object.metadata.name);
        else this.pods.set(event.object.metadata.name, event.object);
        this.reconcile();
      }
    } catch (err) {
      if (!this.closed)
        this.emit({
          type: 'error',
          message: `the watch of the pods ended: ${readFailure(err)}; new runs are not followed (reconnect to resume)`,
        });
    }
  }

  /**
   * Starts a follow for every asked-for rank with a run not followed yet — running, or already over
   * (a short run may start and end between two looks: its lines are still shown, then `rank-ended`).
   */
  private reconcile(): void {
    if (this.closed) return;
    for (const ranked of this.target.number([...this.pods.values()])) {
      const run = readableRun(ranked.pod);
      if (run === undefined) continue;
      const f = this.followed.get(ranked.rank);
      if (f?.active) continue; // its stream ends when its run does; the next run is picked up then
      if (f && f.uid === ranked.pod.metadata.uid && f.run === run) continue;
      if (!this.emit({ type: 'rank-started', rank: ranked.rank, pod: ranked.pod.metadata.name })) return;
      this.followRank(ranked);
    }
  }
}
