import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import KeyValuePairs from '@cloudscape-design/components/key-value-pairs';
import Link from '@cloudscape-design/components/link';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Table from '@cloudscape-design/components/table';
import type { TrainingJobView } from '@domain/schemas/training.js';
import { ProblemError } from '@kit/api/client.js';
import { CloudTime } from '@kit/components/CloudTime.js';
import { useCloudTimeLabel } from '@kit/hooks/cloud-clock.js';
import { ProblemText } from '@kit/hooks/notifications.js';
import { useFollow } from '@kit/hooks/use-follow.js';
import { clusterPath, nodePath } from '@kit/lib/format.js';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { DiagnoseNcclButton } from '../../diagnostics/ui/index.js';
import { type JobRef, type SubmitJobAnswer, useDeleteJob, useJob, useResubmitJob } from './api.js';
import { JobLogs } from './JobLogs.js';
import { JobMetrics } from './JobMetrics.js';
import { resubmitName } from './job-request.js';
import { HealthIndicator, jobPath, PhaseIndicator } from './job-status.js';
import { RecoveryBudget } from './RecoveryBudget.js';

const wrap = { whiteSpace: 'normal', overflowWrap: 'anywhere' } as const;
/** Phases a job ends in: metrics stop growing, and it may be re-submitted. */
const FINISHED = new Set(['Succeeded', 'Failed']);
/** Kubernetes node names of HyperPod nodes carry the instance id: hyperpod-i-<id>. */
const instanceOf = (node: string) => /(i-[0-9a-f]+)$/.exec(node)?.[1];

function DeleteJobModal({
  cluster,
  region,
  job,
  onDismiss,
  onDeleted,
}: {
  cluster: string;
  region: string;
  job: JobRef;
  onDismiss(): void;
  onDeleted(): void;
}) {
  const del = useDeleteJob(cluster, region, job, onDeleted);
  return (
    <Modal
      visible
      onDismiss={onDismiss}
      header={`Delete job ${job.job}?`}
      data-testid="training-delete-modal"
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" onClick={onDismiss}>
              Cancel
            </Button>
            <Button
              variant="primary"
              loading={del.isPending}
              onClick={() => del.mutate()}
              data-testid="training-delete-confirm"
            >
              Delete
            </Button>
          </SpaceBetween>
        </Box>
      }
    >
      <SpaceBetween size="s">
        <Box>{`The job and its pods in namespace ${job.namespace} are deleted; running ranks stop. Checkpoints and outputs in the storage stay.`}</Box>
        {del.error && (
          <Alert type="error" header="The job was not deleted">
            <ProblemText error={del.error} />
          </Alert>
        )}
      </SpaceBetween>
    </Modal>
  );
}

/** Re-submit: the same request the job was made from (kept on the job by the server), under a new name. */
function ResubmitModal({
  cluster,
  region,
  job,
  onDismiss,
  onSubmitted,
}: {
  cluster: string;
  region: string;
  job: JobRef;
  onDismiss(): void;
  onSubmitted(a: SubmitJobAnswer): void;
}) {
  const [name, setName] = useState(resubmitName(job.job));
  const resubmit = useResubmitJob(cluster, region, job, onSubmitted);
  const fieldError =
    resubmit.error instanceof ProblemError
      ? resubmit.error.problem.errors?.find((e) => e.path === 'name')?.message
      : undefined;
  return (
    <Modal
      visible
      onDismiss={onDismiss}
      header={`Re-submit ${job.job}`}
      data-testid="training-resubmit-modal"
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" onClick={onDismiss}>
              Cancel
            </Button>
            <Button
              variant="primary"
              loading={resubmit.isPending}
              onClick={() => resubmit.mutate(name.trim())}
              data-testid="training-resubmit-confirm"
            >
              Submit
            </Button>
          </SpaceBetween>
        </Box>
      }
    >
      <SpaceBetween size="m">
        <Box>
          The same recipe, parameters, instance group, storage, fault tolerance and MLflow server as the job was
          submitted with; the old job stays as it is.
        </Box>
        <FormField label="New job name" errorText={fieldError} data-testid="training-resubmit-name">
          <Input value={name} onChange={({ detail }) => setName(detail.value)} />
        </FormField>
        {resubmit.error && !fieldError && (
          <Alert type="error" header="The job was not re-submitted">
            <ProblemText error={resubmit.error} />
          </Alert>
        )}
      </SpaceBetween>
    </Modal>
  );
}

function Ranks({ cluster, region, job }: { cluster: string; region: string | undefined; job: TrainingJobView }) {
  const follow = useFollow();
  return (
    <Table
      data-testid="training-ranks"
      variant="container"
      header={
        <Header
          variant="h2"
          counter={`(${job.ranks.length})`}
          description={
            job.kind === 'RayJob'
              ? "The Ray cluster's pods (head, then workers), one per node, then the submitter: it prints the driver's output."
              : 'One pod per node, by global rank.'
          }
        >
          Ranks
        </Header>
      }
      items={job.ranks}
      trackBy="pod"
      wrapLines
      empty={
        <Box textAlign="center" color="inherit">
          No pods yet.
        </Box>
      }
      columnDefinitions={[
        { id: 'rank', header: 'Rank', cell: (r) => r.rank },
        { id: 'pod', header: 'Pod', cell: (r) => <span style={wrap}>{r.pod}</span> },
        { id: 'role', header: 'Role', cell: (r) => r.role ?? '—' },
        {
          id: 'node',
          header: 'Node',
          cell: (r) => {
            const id = r.node ? instanceOf(r.node) : undefined;
            return id ? (
              <Link href={nodePath(cluster, region, id)} onFollow={follow} data-testid="training-rank-node">
                {r.node}
              </Link>
            ) : (
              (r.node ?? 'not scheduled')
            );
          },
        },
        { id: 'phase', header: 'Phase', cell: (r) => r.phase },
        { id: 'restarts', header: 'Restarts', cell: (r) => r.restarts },
        { id: 'health', header: 'Health', cell: (r) => <HealthIndicator health={r.health} /> },
      ]}
    />
  );
}

/**
 * One training job: phase and reason, the recovery budget, its ranks with their nodes, conditions,
 * events, live logs and metrics. Delete asks first; Re-submit runs the job's own request again under
 * a new name.
 */
export function JobDetail({ cluster, region, job: ref }: { cluster: string; region: string; job: JobRef }) {
  const cloudLabel = useCloudTimeLabel();
  const job = useJob(cluster, region, ref);
  const navigate = useNavigate();
  const follow = useFollow();
  const urlRegion = useSearchParams()[0].get('region') ?? undefined;
  const [deleting, setDeleting] = useState(false);
  const [resubmitting, setResubmitting] = useState(false);
  const back = clusterPath(cluster, urlRegion, 'jobs');
  const j = job.data;
  if (job.error) {
    const gone = job.error instanceof ProblemError && job.error.status === 404;
    return (
      <Alert
        type={gone ? 'info' : 'error'}
        header={gone ? `Job ${ref.job} is not there (any more)` : `Job ${ref.job} could not be read`}
        data-testid="training-job-error"
        action={
          <Button href={back} onFollow={follow}>
            All jobs
          </Button>
        }
      >
        <ProblemText error={job.error} />
      </Alert>
    );
  }
  if (!j) return <Box color="text-status-inactive">Loading job…</Box>;
  return (
    <SpaceBetween size="l">
      {j.pending && (
        <Alert type="warning" header="Pods are waiting for a node" data-testid="training-job-pending">
          {j.pending}
        </Alert>
      )}
      <Container
        data-testid="training-job-detail"
        header={
          <Header
            variant="h2"
            description={j.message}
            actions={
              <SpaceBetween direction="horizontal" size="xs">
                <Button href={back} onFollow={follow}>
                  All jobs
                </Button>
                <DiagnoseNcclButton cluster={cluster} region={region} namespace={j.namespace} job={j.name} />
                <Button
                  onClick={() => setResubmitting(true)}
                  disabled={!FINISHED.has(j.phase)}
                  data-testid="training-resubmit"
                >
                  Re-submit
                </Button>
                <Button onClick={() => setDeleting(true)} data-testid="training-delete">
                  Delete
                </Button>
              </SpaceBetween>
            }
          >
            {j.name}
          </Header>
        }
      >
        <KeyValuePairs
          columns={4}
          items={[
            { label: 'Phase', value: <PhaseIndicator job={j} /> },
            { label: 'Kind', value: j.kind },
            { label: 'Recipe', value: j.recipe ?? 'custom container' },
            { label: 'Namespace', value: j.namespace },
            { label: 'Instance group', value: j.instanceGroup ?? '—' },
            {
              label: 'Nodes',
              value: j.elastic
                ? `${j.nodes} (elastic ${j.elastic.minReplicas}–${j.elastic.maxReplicas})`
                : String(j.nodes),
            },
            { label: 'Health', value: <HealthIndicator health={j.health} /> },
            { label: 'Storage at /data', value: j.storage ?? '—' },
            { label: 'Image', value: <span style={wrap}>{j.image ?? '—'}</span> },
            {
              label: 'Checkpoints / outputs',
              value: <span style={wrap}>{`${j.paths.checkpoints} · ${j.paths.outputs}`}</span>,
            },
            ...(j.rayCluster
              ? [
                  {
                    label: 'Ray cluster',
                    value: `${j.rayCluster.name}${j.rayCluster.state ? ` · ${j.rayCluster.state}` : ''}${j.rayCluster.desiredWorkers !== undefined ? ` · ${j.rayCluster.availableWorkers ?? 0}/${j.rayCluster.desiredWorkers} workers` : ''}`,
                  },
                ]
              : []),
            ...(j.mlflow
              ? [
                  {
                    label: 'MLflow',
                    value: <span style={wrap}>{`experiment ${j.mlflow.experimentName}, run ${j.mlflow.runName}`}</span>,
                  },
                ]
              : []),
            { label: cloudLabel('Created'), value: <CloudTime iso={j.createdAt} /> },
            { label: cloudLabel('Finished'), value: <CloudTime iso={j.finishedAt} /> },
          ]}
        />
      </Container>
      <RecoveryBudget cluster={cluster} region={urlRegion} recovery={j.recovery} />
      <Ranks cluster={cluster} region={urlRegion} job={j} />
      <JobLogs cluster={cluster} region={region} namespace={j.namespace} job={j.name} ranks={j.ranks} />
      <JobMetrics cluster={cluster} region={region} job={ref} settled={FINISHED.has(j.phase)} />
      <Table
        data-testid="training-conditions"
        variant="container"
        header={<Header variant="h2">Conditions</Header>}
        items={j.conditions}
        wrapLines
        empty={
          <Box textAlign="center" color="inherit">
            No conditions reported.
          </Box>
        }
        columnDefinitions={[
          { id: 'type', header: 'Type', cell: (c) => c.type },
          { id: 'status', header: 'Status', cell: (c) => c.status },
          { id: 'reason', header: 'Reason', cell: (c) => c.reason ?? '—' },
          { id: 'message', header: 'Message', cell: (c) => <span style={wrap}>{c.message ?? ''}</span> },
          { id: 'time', header: cloudLabel('Since'), cell: (c) => <CloudTime iso={c.lastTransitionTime} /> },
        ]}
      />
      <Table
        data-testid="training-events"
        variant="container"
        header={
          <Header variant="h2" description="Newest first.">
            Events
          </Header>
        }
        items={j.events ?? []}
        wrapLines
        empty={
          <Box textAlign="center" color="inherit">
            No recent events.
          </Box>
        }
        columnDefinitions={[
          { id: 'time', header: cloudLabel('Time'), cell: (e) => <CloudTime iso={e.time} /> },
          { id: 'type', header: 'Type', cell: (e) => e.type },
          { id: 'reason', header: 'Reason', cell: (e) => e.reason },
          { id: 'object', header: 'Object', cell: (e) => <span style={wrap}>{e.object}</span> },
          {
            id: 'message',
            header: 'Message',
            cell: (e) => <span style={wrap}>{`${e.message}${e.count && e.count > 1 ? ` (×${e.count})` : ''}`}</span>,
          },
        ]}
      />
      {deleting && (
        <DeleteJobModal
          cluster={cluster}
          region={region}
          job={ref}
          onDismiss={() => setDeleting(false)}
          onDeleted={() => navigate(back)}
        />
      )}
      {resubmitting && (
        <ResubmitModal
          cluster={cluster}
          region={region}
          job={ref}
          onDismiss={() => setResubmitting(false)}
          onSubmitted={(a) => {
            setResubmitting(false);
            navigate(jobPath(cluster, urlRegion, a.job));
          }}
        />
      )}
    </SpaceBetween>
  );
}
