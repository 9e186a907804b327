import Box from '@cloudscape-design/components/box';
import Link from '@cloudscape-design/components/link';
import type { OperationView, ScalePreflightResult } from '@kit/api/types.js';
import { PreflightProblemList } from '@kit/components/PreflightProblemList.js';
import { useFollow } from '@kit/hooks/use-follow.js';
import { clusterPath, inFormWords } from '@kit/lib/format.js';
import { checkScaleInstanceGroup } from '../../instance-groups/ui/index.js';

/** Operation kinds whose retry asks HyperPod again for the count in their input. */
const COUNTING_KINDS = new Set(['scale-instance-group', 'update-instance-group']);

/** A retry the scale preflight refuses: the count it would repeat no longer fits (or never did). */
export class ScaleRetryRefused extends Error {
  constructor(
    readonly operation: OperationView,
    readonly check: ScalePreflightResult,
  ) {
    super(`Retrying would ask again for ${check.instanceCount} instances, which does not fit.`);
    this.name = 'ScaleRetryRefused';
  }
}

/**
 * Before a failed scale is retried, its count goes through the scale preflight again: a count that
 * exceeded a quota is not repeated blindly. Other kinds pass unchecked.
 */
export async function checkRetry(operation: OperationView): Promise<void> {
  const { cluster, name, region, instanceCount } = operation.input as {
    cluster?: string;
    name?: string;
    region?: string;
    instanceCount?: unknown;
  };
  if (!COUNTING_KINDS.has(operation.kind) || !cluster || !name || typeof instanceCount !== 'number') return;
  const check = await checkScaleInstanceGroup(cluster, name, instanceCount, region);
  if (!check.ok) throw new ScaleRetryRefused(operation, check);
}

/** The notice a refused retry shows: the problems, and where to choose a count that fits. */
export function ScaleRetryRefusedNotice({ error }: { error: ScaleRetryRefused }) {
  const follow = useFollow();
  const { cluster, region } = error.operation.input as { cluster: string; region?: string };
  return (
    <div data-testid="retry-refused">
      <Box variant="p" color="inherit">
        {inFormWords(error.message, undefined)}
      </Box>
      <PreflightProblemList problems={error.check.problems} testId="retry-refused-problem" />
      <Box variant="p" color="inherit">
        <Link href={clusterPath(cluster, region)} onFollow={follow} color="inverted" data-testid="retry-refused-link">
          Scale the group again
        </Link>{' '}
        with a count that fits, or raise the quota first.
      </Box>
    </div>
  );
}
