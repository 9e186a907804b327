import SpaceBetween from '@cloudscape-design/components/space-between';
import type { ClusterPanelProps } from '@kit/capability.js';
import { JobDetail } from './JobDetail.js';
import { JobsTable } from './JobsTable.js';
import { MlflowServers } from './MlflowServers.js';

/** The job a Jobs tab item names: `<namespace>/<job>` (the rest of the URL after /jobs/). */
function jobOfItem(item: string | undefined): { namespace: string; job: string } | undefined {
  const parts = item?.split('/').map(decodeURIComponent);
  return parts?.length === 2 && parts[0] && parts[1] ? { namespace: parts[0], job: parts[1] } : undefined;
}

/**
 * The cluster page's Jobs tab: the jobs table with the region's MLflow tracking servers below it,
 * or, at /clusters/:name/jobs/<namespace>/<job>, that job's detail.
 */
export function TrainingPanel({ cluster, region, item }: ClusterPanelProps) {
  const job = jobOfItem(item);
  if (job) return <JobDetail key={`${job.namespace}/${job.job}`} cluster={cluster} region={region} job={job} />;
  return (
    <SpaceBetween size="l">
      <JobsTable cluster={cluster} region={region} />
      <MlflowServers region={region} cluster={cluster} />
    </SpaceBetween>
  );
}
