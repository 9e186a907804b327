import { useLogStream } from '@kit/hooks/use-log-stream.js';
import { rest } from '@kit/api/rest.js';
import { TRAINING_PATHS } from '../paths.js';

/** Lines asked for before following (per rank). */
export const TAIL_LINES = 1000;

export interface JobStreamOptions {
  cluster: string;
  region: string;
  namespace: string;
  job: string;
  rank: 'all' | number;
  /** Server-side filter, applied when the stream (re)opens. */
  grep?: string;
}

/** A job's logs followed live (the kit's stream over the job's follow path): its ranks' tails, then new lines. */
export function useJobLogStream(o: JobStreamOptions) {
  const path = rest(TRAINING_PATHS.jobLogsFollow, { name: o.cluster, namespace: o.namespace, job: o.job }).url({
    region: o.region,
    rank: String(o.rank),
    tailLines: String(TAIL_LINES),
    grep: o.grep,
  });
  return useLogStream({ path });
}
