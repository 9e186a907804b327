import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Checkbox from '@cloudscape-design/components/checkbox';
import Form from '@cloudscape-design/components/form';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import Modal from '@cloudscape-design/components/modal';
import Select from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import Table from '@cloudscape-design/components/table';
import type { DeleteMlflowServerAnswer, MlflowTrackingServerView } from '@domain/schemas/mlflow.js';
import { CreateMlflowServerRequestSchema, MlflowServerSizeSchema } from '@domain/schemas/mlflow.js';
import { ProblemError } from '@kit/api/client.js';
import { CloudTime } from '@kit/components/CloudTime.js';
import { useCloudTimeLabel } from '@kit/hooks/cloud-clock.js';
import { ProblemText } from '@kit/hooks/notifications.js';
import { useState } from 'react';
import { useCreateMlflowServer, useDeleteMlflowServer, useMlflowServers } from './api.js';

const wrap = { whiteSpace: 'normal', overflowWrap: 'anywhere' } as const;
const shape = CreateMlflowServerRequestSchema.shape;
const SIZES = MlflowServerSizeSchema.options;

function CreateServerModal({ region, cluster, onDismiss }: { region: string; cluster: string; onDismiss(): void }) {
  const [name, setName] = useState('');
  const [uri, setUri] = useState('');
  const [size, setSize] = useState<(typeof SIZES)[number]>('Small');
  const [touched, setTouched] = useState(false);
  const [forCluster, setForCluster] = useState(true);
  const create = useCreateMlflowServer(region, onDismiss);
  const server = (path: string) =>
    create.error instanceof ProblemError
      ? create.error.problem.errors?.find((e) => e.path === path)?.message
      : undefined;
  const local = (path: 'name' | 'artifactStoreUri', value: string) => {
    if (!touched) return undefined;
    const r = shape[path].safeParse(value);
    return r.success ? undefined : r.error.issues[0]?.message;
  };
  const submit = () => {
    setTouched(true);
    if (!shape.name.safeParse(name).success || !shape.artifactStoreUri.safeParse(uri).success) return;
    create.mutate({ name, artifactStoreUri: uri, size, ...(forCluster ? { cluster } : {}) });
  };
  return (
    <Modal
      visible
      onDismiss={onDismiss}
      header="Create an MLflow tracking server"
      data-testid="mlflow-create-modal"
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" onClick={onDismiss}>
              Cancel
            </Button>
            <Button variant="primary" loading={create.isPending} onClick={submit} data-testid="mlflow-create-submit">
              Create
            </Button>
          </SpaceBetween>
        </Box>
      }
    >
      <Form>
        <SpaceBetween size="m">
          <Box variant="p">{CreateMlflowServerRequestSchema.description}</Box>
          <FormField
            label="Name"
            description={shape.name.description}
            errorText={local('name', name) ?? server('name')}
            data-testid="mlflow-create-name"
          >
            <Input value={name} onChange={({ detail }) => setName(detail.value)} />
          </FormField>
          <FormField
            label="Artifact store"
            description={shape.artifactStoreUri.description}
            errorText={local('artifactStoreUri', uri) ?? server('artifactStoreUri')}
            data-testid="mlflow-create-uri"
          >
            <Input value={uri} onChange={({ detail }) => setUri(detail.value)} placeholder="s3://my-bucket/mlflow" />
          </FormField>
          <FormField label="Size" description={MlflowServerSizeSchema.description} errorText={server('size')}>
            <Select
              selectedOption={{ value: size, label: size }}
              options={SIZES.map((s) => ({ value: s, label: s }))}
              onChange={({ detail }) => setSize(detail.selectedOption.value as (typeof SIZES)[number])}
            />
          </FormField>
          <FormField errorText={server('cluster')} data-testid="mlflow-create-cluster">
            <Checkbox checked={forCluster} onChange={({ detail }) => setForCluster(detail.checked)}>
              For cluster {cluster}: deleted when the cluster is deleted
            </Checkbox>
          </FormField>
          {create.error && !['name', 'artifactStoreUri', 'size', 'cluster'].some((p) => server(p)) && (
            <Alert type="error" header="The tracking server was not created">
              <ProblemText error={create.error} />
            </Alert>
          )}
        </SpaceBetween>
      </Form>
    </Modal>
  );
}

/** Deleting a server takes its runs and metrics: the modal says so and names what else goes. */
function DeleteServerModal({
  region,
  server,
  onDismiss,
  onDeleted,
}: {
  region: string;
  server: MlflowTrackingServerView;
  onDismiss(): void;
  onDeleted(a: DeleteMlflowServerAnswer): void;
}) {
  const remove = useDeleteMlflowServer(region, onDeleted);
  return (
    <Modal
      visible
      onDismiss={onDismiss}
      header={`Delete tracking server ${server.name}?`}
      data-testid="mlflow-delete-modal"
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" onClick={onDismiss}>
              Cancel
            </Button>
            <Button
              variant="primary"
              loading={remove.isPending}
              onClick={() => remove.mutate(server.name)}
              data-testid="mlflow-delete-confirm"
            >
              Delete
            </Button>
          </SpaceBetween>
        </Box>
      }
    >
      <SpaceBetween size="s">
        <Box variant="p">
          SageMaker deletes <b style={wrap}>{server.name}</b> with its experiments, runs and metrics; jobs that report
          to it lose their charts. The artifacts in{' '}
          <span style={wrap}>{server.artifactStoreUri ?? 'its S3 artifact store'}</span> stay. Clusters that use it as
          their default are unlinked, and the role InstantStart made for it is deleted.
        </Box>
        {remove.error && (
          <Alert type="error" header="The tracking server was not deleted">
            <ProblemText error={remove.error} />
          </Alert>
        )}
      </SpaceBetween>
    </Modal>
  );
}

const deletedText = (a: DeleteMlflowServerAnswer) =>
  a.deleted
    ? `Deleting ${a.server} (${a.status ?? 'Deleting'}).${a.unlinkedClusters.length ? ` Unlinked from ${a.unlinkedClusters.join(', ')}.` : ''}${a.deletedRole ? ` Deleted its role ${a.deletedRole}.` : ''}`
    : `${a.server} was already gone.`;

/** The region's SageMaker managed MLflow tracking servers, which training jobs report metrics to. */
export function MlflowServers({ region, cluster }: { region: string; cluster: string }) {
  const cloudLabel = useCloudTimeLabel();
  const servers = useMlflowServers(region);
  const [open, setOpen] = useState(false);
  const [selected, setSelected] = useState<MlflowTrackingServerView[]>([]);
  const [deleting, setDeleting] = useState<MlflowTrackingServerView | undefined>();
  const [deleted, setDeleted] = useState<DeleteMlflowServerAnswer | undefined>();
  const items = servers.data?.servers ?? [];
  const chosen = selected[0] && items.find((s) => s.arn === selected[0]!.arn);
  return (
    <>
      <Table
        data-testid="mlflow-servers"
        loading={servers.isLoading}
        loadingText="Loading tracking servers"
        items={items}
        trackBy="arn"
        wrapLines
        selectionType="single"
        selectedItems={chosen ? [chosen] : []}
        onSelectionChange={({ detail }) => setSelected(detail.selectedItems)}
        ariaLabels={{ itemSelectionLabel: (_, s) => `Select ${s.name}`, selectionGroupLabel: 'Tracking servers' }}
        header={
          <Header
            variant="h2"
            counter={servers.data ? `(${items.length})` : undefined}
            description={`SageMaker managed MLflow in ${region}: choose one when submitting a job to plot its loss and throughput.`}
            actions={
              <SpaceBetween direction="horizontal" size="xs">
                <Button
                  disabled={!chosen || chosen.status === 'Deleting'}
                  onClick={() => setDeleting(chosen)}
                  data-testid="mlflow-delete-open"
                >
                  Delete
                </Button>
                <Button onClick={() => setOpen(true)} data-testid="mlflow-create-open">
                  Create tracking server
                </Button>
              </SpaceBetween>
            }
          >
            MLflow tracking servers
          </Header>
        }
        empty={
          <Box textAlign="center" color="inherit">
            No tracking servers in this Region.
          </Box>
        }
        columnDefinitions={[
          { id: 'name', header: 'Name', cell: (s) => <span style={wrap}>{s.name}</span> },
          {
            id: 'status',
            header: 'Status',
            cell: (s) => (
              <span data-testid="mlflow-server-status" data-ready={s.ready}>
                <StatusIndicator
                  type={
                    s.ready
                      ? 'success'
                      : /Fail/.test(s.status)
                        ? 'error'
                        : /ing$/.test(s.status)
                          ? 'in-progress'
                          : 'stopped'
                  }
                >
                  {s.status}
                </StatusIndicator>
              </span>
            ),
          },
          { id: 'size', header: 'Size', cell: (s) => s.size ?? '—' },
          { id: 'version', header: 'MLflow', cell: (s) => s.mlflowVersion ?? '—' },
          { id: 'store', header: 'Artifact store', cell: (s) => <span style={wrap}>{s.artifactStoreUri ?? '—'}</span> },
          { id: 'created', header: cloudLabel('Created'), cell: (s) => <CloudTime iso={s.createdAt} /> },
        ]}
      />
      {deleted && (
        <Alert
          type={deleted.deleted ? 'success' : 'info'}
          dismissible
          onDismiss={() => setDeleted(undefined)}
          data-testid="mlflow-deleted"
        >
          {deletedText(deleted)}
        </Alert>
      )}
      {servers.error && (
        <Alert type="error" header="The tracking servers could not be read">
          <ProblemText error={servers.error} />
        </Alert>
      )}
      {open && <CreateServerModal region={region} cluster={cluster} onDismiss={() => setOpen(false)} />}
      {deleting && (
        <DeleteServerModal
          region={region}
          server={deleting}
          onDismiss={() => setDeleting(undefined)}
          onDeleted={(a) => {
            setDeleting(undefined);
            setSelected([]);
            setDeleted(a);
          }}
        />
      )}
    </>
  );
}
