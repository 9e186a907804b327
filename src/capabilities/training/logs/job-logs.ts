import { Readable } from 'node:stream';
import { mapLimited } from '../../../cloud/aws/catalog/paginate.js';
import type { KubePort } from '../../../cloud/ports.js';
import { InputError, PreconditionError } from '../../../domain/errors.js';
import type { LogLine, TrainingLogsAnswer } from '../../../domain/schemas/training.js';
import { describeHyperPod, eksClusterOf, kubeOfHyperPod } from '../../../workflows/cluster-access.js';
import type { ServiceDeps } from '../../capability.js';
import { RAY_JOB } from '../../../domain/kube/ray-job.js';
import { rayPodSelector } from '../../../domain/training/job-view.js';
import { FollowSession, type FollowedPods, type FollowSink } from '../../../workflows/pod-logs/follow.js';
import { compareTimes, mergeByTime, newestWithin, prefixedLine } from '../../../workflows/pod-logs/lines.js';
import { rankLines, readFailure, readRankTail, type RankTail } from '../../../workflows/pod-logs/pod-reads.js';
import { unreadableReason, type RankedPod } from '../../../workflows/pod-logs/pod-runs.js';
import { requireJob } from '../jobs.js';
import { podSelectorsOf, rankCountOf, rankPods, readRankPods } from './job-pods.js';
import type { LogQuery, LogTarget } from './log-target.js';

export type { LogQuery, LogTarget } from './log-target.js';

/** What the JSON tail and the follow read when the request does not say. */
export const DEFAULT_TAIL_LINES = 500;
export const DEFAULT_LIMIT_BYTES = 1024 * 1024;
/** Tail reads at once: a job of many ranks must not open a log request per rank all together. */
const TAIL_READS_AT_ONCE = 8;
/** The download is written in pieces of about this size (one write per line would cost more than the lines). */
const DOWNLOAD_CHUNK = 64 * 1024;

/**
 * Training job logs (docs/TRAINING.md → Logs): a capped tail of one rank or all ranks merged by
 * time (JSON), the same as a streamed text download, and a live follow (follow.ts). The job and its
 * pods are read from the cluster's Kubernetes API on each request; nothing is stored.
 */
export class JobLogs {
  constructor(private readonly deps: ServiceDeps) {}

  private async kube(region: string, cluster: string): Promise<KubePort> {
    const hp = await describeHyperPod(this.deps.cloud, region, cluster);
    if (!eksClusterOf(hp))
      throw new PreconditionError({
        message: `Cluster ${cluster} is not orchestrated by EKS: it runs no Kubernetes training jobs.`,
      });
    return kubeOfHyperPod(this.deps.cloud, hp, region, { required: true });
  }

  /** The job and the pods of the ranks asked for; 404 naming the job, 400 naming rank when the job has no such rank. */
  async target(
    region: string,
    cluster: string,
    namespace: string,
    job: string,
    rank: number | 'all',
  ): Promise<LogTarget> {
    const kube = await this.kube(region, cluster);
    const found = await requireJob(kube, cluster, namespace, job);
    const pods = await readRankPods(kube, found);
    const count = Math.max(rankCountOf(found), pods.length === 0 ? 0 : pods.at(-1)!.rank + 1);
    if (rank === 'all') {
      const present = new Set(pods.map((p) => p.rank));
      return { cluster, kube, found, ranks: pods, missing: [...Array(count).keys()].filter((r) => !present.has(r)) };
    }
    if (rank >= count)
      throw InputError.field(
        'rank',
        count === 0 ? `job ${namespace}/${job} has no ranks yet` : `job ${namespace}/${job} has ranks 0–${count - 1}`,
      );
    const one = pods.filter((p) => p.rank === rank);
    return { cluster, kube, found, ranks: one, missing: one.length ? [] : [rank] };
  }

  /** The capped tail: every rank's last lines merged by time, the whole within limitBytes too. */
  async tail(target: LogTarget, query: LogQuery, signal?: AbortSignal): Promise<TrainingLogsAnswer> {
    const tails = await this.readTails(target, query, signal);
    const merged = newestWithin(mergeByTime(tails.map((t) => t.lines)), query.limitBytes ?? DEFAULT_LIMIT_BYTES);
    return {
      job: target.found.job.metadata.name,
      lines: merged.lines,
      truncated: merged.cut || tails.some((t) => t.truncated),
      ranks: [
        ...tails.map((t) => ({ rank: t.rank, pod: t.pod, ...(t.error ? { error: t.error } : {}) })),
        ...missingRanks(target),
      ].sort((a, b) => a.rank - b.rank),
    };
  }

  /** Every rank's tail (one log request per rank, a few at a time). */
  async readTails(target: LogTarget, query: LogQuery, signal?: AbortSignal): Promise<RankTail[]> {
    const controller = new AbortController();
    const stop = () => controller.abort();
    signal?.addEventListener('abort', stop, { once: true });
    try {
      const options = {
        tailLines: query.tailLines ?? DEFAULT_TAIL_LINES,
        limitBytes: query.limitBytes ?? DEFAULT_LIMIT_BYTES,
        sinceSeconds: query.sinceSeconds,
        previous: query.previous === 'true',
        grep: query.grep,
      };
      return await mapLimited(target.ranks, TAIL_READS_AT_ONCE, (r) =>
        readRankTail(target.kube, r, options, controller.signal),
      );
    } finally {
      signal?.removeEventListener('abort', stop);
      stop();
    }
  }

  /**
   * The download: every rank's lines merged by time as `[rank N] …` text, streamed — only one line
   * per rank is held at a time, and the kubelet is read as fast as the client takes the text. A
   * merge by time needs every rank's stream open at once (one log request per rank, as the follow).
   */
  download(target: LogTarget, query: LogQuery): Readable {
    const controller = new AbortController();
    const previous = query.previous === 'true';
    const options = {
      ...(query.tailLines !== undefined ? { tailLines: query.tailLines } : {}),
      sinceSeconds: query.sinceSeconds,
      previous,
      grep: query.grep,
    };
    async function* text(): AsyncGenerator<string> {
      try {
        const notes = [
          ...target.ranks.map((r) => ({ rank: r.rank, error: unreadableReason(r.pod, previous) })),
          ...missingRanks(target),
        ].filter((n) => n.error);
        const readable = target.ranks.filter((r) => !unreadableReason(r.pod, previous));
        let out = notes.map((n) => `${prefixedLine({ rank: n.rank, text: `(no log: ${n.error})` })}\n`).join('');
        const sources = readable.map((r) => rankLines(target.kube, r, options, controller.signal));
        const heads = await Promise.all(sources.map((s, i) => nextOf(s, readable[i]!)));
        for (;;) {
          let best = -1;
          for (let i = 0; i < heads.length; i++)
            if (heads[i] && (best < 0 || compareTimes(heads[i]!.time, heads[best]!.time) < 0)) best = i;
          if (best < 0) break;
          out += `${prefixedLine(heads[best]!)}\n`;
          if (out.length >= DOWNLOAD_CHUNK) {
            yield out;
            out = '';
          }
          heads[best] = await nextOf(sources[best]!, readable[best]!);
        }
        if (out) yield out;
      } finally {
        controller.abort();
      }
    }
    return Readable.from(text(), { objectMode: false, encoding: 'utf8' });
  }

  /** Follows the job's logs live for one client (one stream per WebSocket). */
  follow(target: LogTarget, query: LogQuery, sink: FollowSink): FollowSession {
    const session = new FollowSession(
      (signal) => this.readTails(target, query, signal),
      followedRanks(target, query),
      query,
      sink,
    );
    void session.start();
    return session;
  }
}

/**
 * The job's ranks as the shared follow reads them: its pods' selectors, ranked as the job view ranks them (only the
 * rank asked for), and — for a RayJob followed before KubeRay made its Ray cluster — that cluster's pods once named.
 */
export function followedRanks(target: LogTarget, query: Pick<LogQuery, 'rank'>): FollowedPods {
  const { found, kube } = target;
  const namespace = found.job.metadata.namespace ?? 'default';
  const awaitsCluster = found.kind === 'RayJob' && !found.job.status.rayClusterName;
  return {
    kube,
    namespace,
    ranks: target.ranks,
    selectors: podSelectorsOf(found),
    number: (pods) => rankPods(found, pods).filter((r) => query.rank === 'all' || r.rank === query.rank),
    ...(awaitsCluster
      ? {
          async later(signal: AbortSignal) {
            for await (const event of kube.watch(RAY_JOB, {
              namespace,
              fieldSelector: `metadata.name=${found.job.metadata.name}`,
              signal,
            })) {
              const cluster =
                event.type === 'ADDED' || event.type === 'MODIFIED' ? event.object.status.rayClusterName : undefined;
              if (cluster) return rayPodSelector(cluster);
            }
            return undefined;
          },
        }
      : {}),
  };
}

const missingRanks = (target: LogTarget) =>
  target.missing.map((rank) => ({ rank, pod: '', error: 'not started yet: the rank has no pod' }));

/** The next line of a rank's stream; a rank whose read fails ends with a line saying why. */
async function nextOf(source: AsyncGenerator<LogLine>, ranked: RankedPod): Promise<LogLine | undefined> {
  try {
    const r = await source.next();
    return r.done ? undefined : r.value;
  } catch (err) {
    return { rank: ranked.rank, pod: ranked.pod.metadata.name, text: `(log read failed: ${readFailure(err)})` };
  }
}
