import type { KubePort } from '../../../cloud/ports.js';
import type { TrainingLogsQuery } from '../../../domain/schemas/training.js';
import type { FoundJob } from '../jobs.js';
import type { RankedPod } from '../../../workflows/pod-logs/pod-runs.js';

/** What reading logs takes from a request (the tail's, the download's and the follow's queries all carry it). */
export type LogQuery = Pick<
  TrainingLogsQuery,
  'rank' | 'tailLines' | 'sinceSeconds' | 'limitBytes' | 'grep' | 'previous'
>;

/** One job's logs in one cluster: where to read them and which ranks the request names. */
export interface LogTarget {
  cluster: string;
  kube: KubePort;
  found: FoundJob;
  /** The ranks asked for (one, or all) with their pods now. */
  ranks: RankedPod[];
  /** Ranks asked for that have no pod yet. */
  missing: number[];
}
