import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Header from '@cloudscape-design/components/header';
import Link from '@cloudscape-design/components/link';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Table from '@cloudscape-design/components/table';
import TextFilter from '@cloudscape-design/components/text-filter';
import type { TrainingJobView, TrainingKind } from '@domain/schemas/training.js';
import type { ClusterPanelProps } from '@kit/capability.js';
import { CloudAge } from '@kit/components/CloudTime.js';
import { useCloudClockNote } from '@kit/hooks/cloud-clock.js';
import { ProblemText } from '@kit/hooks/notifications.js';
import { useFollow } from '@kit/hooks/use-follow.js';
import { clusterPath } from '@kit/lib/format.js';
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useJobs } from './api.js';
import { budgetText, jobPath, PhaseIndicator } from './job-status.js';
import { SubmitJobModal } from './SubmitJobModal.js';

/**
 * The feature that serves each kind, as the Features tab names it. The API's `installedBy` speaks to every client
 * (it names the feature id and the MCP tool); the page says what to turn on where.
 */
const SERVED_BY: Record<TrainingKind, string> = {
  HyperPodPyTorchJob: 'the HyperPod training operator',
  RayJob: 'the KubeRay operator',
};

const wrap = { whiteSpace: 'normal', overflowWrap: 'anywhere' } as const;

/** What the filter box matches: the columns a person reads. */
const haystack = (j: TrainingJobView) =>
  [j.name, j.namespace, j.kind, j.recipe ?? 'custom', j.instanceGroup ?? '', j.phase, j.reason ?? '']
    .join(' ')
    .toLowerCase();

/**
 * The cluster's training jobs (HyperPodPyTorchJob and RayJob) as Kubernetes reports them, polled;
 * the kinds whose operator is off are named with the feature to turn on. "Submit job" opens the
 * recipe picker; a row opens the job's detail.
 */
export function JobsTable({ cluster, region }: Pick<ClusterPanelProps, 'cluster' | 'region'>) {
  const jobs = useJobs(cluster, region);
  const [filter, setFilter] = useState('');
  const [open, setOpen] = useState(false);
  const follow = useFollow();
  const clockNote = useCloudClockNote();
  const urlRegion = useSearchParams()[0].get('region') ?? undefined;
  const all = jobs.data?.jobs ?? [];
  const needle = filter.trim().toLowerCase();
  const items = needle ? all.filter((j) => haystack(j).includes(needle)) : all;
  const notServed = jobs.data?.notServed ?? [];
  return (
    <SpaceBetween size="l">
      {notServed.length > 0 && (
        <Alert
          type="info"
          header={notServed.length === 2 ? 'No training operator is on' : `${notServed[0]!.kind} jobs are not served`}
          data-testid="training-not-served"
          action={
            <Button href={clusterPath(cluster, urlRegion, 'features')} onFollow={follow}>
              Open Features
            </Button>
          }
        >
          {notServed.map((n) => (
            <div key={n.kind}>
              {`${n.kind} jobs need ${SERVED_BY[n.kind]}: turn it on in the `}
              <Link href={clusterPath(cluster, urlRegion, 'features')} onFollow={follow}>
                Features tab
              </Link>
              .
            </div>
          ))}
        </Alert>
      )}
      <Table
        data-testid="training-jobs"
        loading={jobs.isLoading}
        loadingText="Loading training jobs"
        items={items}
        trackBy={(j) => `${j.namespace}/${j.name}`}
        wrapLines
        header={
          <Header
            variant="h2"
            counter={jobs.data ? `(${all.length})` : undefined}
            description={`Training jobs as Kubernetes reports them now; refreshed every few seconds while one runs.${clockNote ? ` ${clockNote}` : ''}`}
            actions={
              <SpaceBetween direction="horizontal" size="xs">
                <Button
                  iconName="refresh"
                  ariaLabel="Refresh"
                  loading={jobs.isFetching && !jobs.isLoading}
                  onClick={() => void jobs.refetch()}
                />
                <Button
                  variant="primary"
                  onClick={() => setOpen(true)}
                  disabled={notServed.length === 2}
                  data-testid="training-submit-open"
                >
                  Submit job
                </Button>
              </SpaceBetween>
            }
          >
            Training jobs
          </Header>
        }
        filter={
          <TextFilter
            filteringText={filter}
            onChange={({ detail }) => setFilter(detail.filteringText)}
            filteringPlaceholder="Find jobs by name, recipe, group or phase"
            countText={needle ? `${items.length} matches` : undefined}
          />
        }
        empty={
          <Box textAlign="center" color="inherit">
            {needle ? 'No job matches.' : 'No training jobs yet.'}
          </Box>
        }
        columnDefinitions={[
          {
            id: 'name',
            header: 'Name',
            minWidth: 160,
            cell: (j) => (
              <span style={wrap}>
                <Link href={jobPath(cluster, urlRegion, j)} onFollow={follow} data-testid="training-job-link">
                  {j.name}
                </Link>
                {j.namespace !== 'default' && (
                  <Box variant="small" display="block">
                    {j.namespace}
                  </Box>
                )}
              </span>
            ),
          },
          { id: 'kind', header: 'Kind', cell: (j) => j.kind },
          { id: 'recipe', header: 'Recipe', cell: (j) => j.recipe ?? 'custom' },
          { id: 'group', header: 'Instance group', cell: (j) => j.instanceGroup ?? '—' },
          {
            id: 'nodes',
            header: 'Nodes',
            cell: (j) => (j.elastic ? `${j.nodes} (${j.elastic.minReplicas}–${j.elastic.maxReplicas})` : j.nodes),
          },
          { id: 'phase', header: 'Phase', minWidth: 220, cell: (j) => <PhaseIndicator job={j} /> },
          {
            id: 'budget',
            header: 'Recovery budget',
            cell: (j) => (
              <span data-testid="training-job-budget" style={{ color: j.recovery.exhausted ? '#d91515' : undefined }}>
                {budgetText(j.recovery)}
              </span>
            ),
          },
          { id: 'age', header: 'Age', cell: (j) => <CloudAge iso={j.createdAt} testId={`job-age-${j.name}`} /> },
        ]}
      />
      {jobs.error && (
        <Alert type="error" header="The training jobs could not be read" data-testid="training-jobs-error">
          <ProblemText error={jobs.error} />
        </Alert>
      )}
      {open && (
        <SubmitJobModal
          cluster={cluster}
          region={region}
          onDismiss={() => setOpen(false)}
          onSubmitted={() => setOpen(false)}
        />
      )}
    </SpaceBetween>
  );
}
