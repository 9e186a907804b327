import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Checkbox from '@cloudscape-design/components/checkbox';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import Modal from '@cloudscape-design/components/modal';
import RadioGroup from '@cloudscape-design/components/radio-group';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Tiles from '@cloudscape-design/components/tiles';
import { AddStorageRequestSchema, type StorageList } from '@domain/schemas/storage.js';
import { useStartOperation } from '@kit/api/queries.js';
import type { Accepted } from '@kit/api/types.js';
import { ProblemText } from '@kit/hooks/notifications.js';
import { inFormWords } from '@kit/lib/format.js';
import { useMemo, useState } from 'react';
import { type AddStorageBody, addStorage } from './api.js';
import { WORDS } from './form-words.js';

interface Props {
  cluster: string;
  region: string;
  drivers: StorageList['drivers'];
  onDismiss(): void;
  onStarted(accepted: Accepted): void;
}

/**
 * Adds a storage: S3 (an existing bucket or a new one; optionally one prefix of it; read-only or
 * read-write) or FSx for Lustre (an existing file system or a new one). Fields are checked with the
 * same schema the server uses; what only AWS can tell (the bucket exists, the file system is in the
 * cluster's VPC, the driver is on) comes back from the server naming the field.
 */
export function AddStorageModal({ cluster, region, drivers, onDismiss, onStarted }: Props) {
  const [kind, setKind] = useState<'s3' | 'fsx'>(drivers['s3-csi-driver'] || !drivers['fsx-csi-driver'] ? 's3' : 'fsx');
  const [source, setSource] = useState<'existing' | 'new'>('existing');
  const [name, setName] = useState('');
  const [namespace, setNamespace] = useState('default');
  const [bucket, setBucket] = useState('');
  const [prefix, setPrefix] = useState('');
  const [readOnly, setReadOnly] = useState(false);
  const [fileSystemId, setFileSystemId] = useState('');
  const [capacity, setCapacity] = useState('1200');
  const idempotencyKey = useMemo(() => `add-storage:${cluster}:${Math.random().toString(36).slice(2)}`, [cluster]);

  const body: AddStorageBody =
    kind === 's3'
      ? {
          kind,
          name,
          namespace,
          ...(bucket ? { bucket } : {}),
          createBucket: source === 'new',
          ...(prefix ? { prefix } : {}),
          readOnly,
        }
      : {
          kind,
          name,
          namespace,
          ...(source === 'existing'
            ? { fileSystemId }
            : { createFileSystem: true, storageCapacityGiB: Number(capacity) }),
        };
  const parsed = AddStorageRequestSchema.safeParse(body);
  const fieldError = (field: string) =>
    inFormWords(
      (parsed.success ? undefined : parsed.error.issues.find((i) => i.path[0] === field)?.message) ?? '',
      WORDS,
    ) || undefined;
  const shown = (field: string, value: string) => (value ? fieldError(field) : undefined);
  const driverOff = kind === 's3' ? !drivers['s3-csi-driver'] : !drivers['fsx-csi-driver'];

  const start = useStartOperation(() => addStorage(cluster, region, body, idempotencyKey), onStarted);

  return (
    <Modal
      visible
      size="medium"
      onDismiss={onDismiss}
      header={`Add storage to ${cluster}`}
      data-testid="storage-add-modal"
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" onClick={onDismiss}>
              Cancel
            </Button>
            <Button
              variant="primary"
              disabled={!parsed.success}
              loading={start.isPending}
              onClick={() => start.mutate()}
              data-testid="storage-add-submit"
            >
              Add
            </Button>
          </SpaceBetween>
        </Box>
      }
    >
      <SpaceBetween size="m">
        <Tiles
          value={kind}
          onChange={({ detail }) => setKind(detail.value as 's3' | 'fsx')}
          items={[
            {
              value: 's3',
              label: 'Amazon S3',
              description: 'A bucket (or one prefix of it), mounted with Mountpoint for Amazon S3.',
            },
            {
              value: 'fsx',
              label: 'FSx for Lustre',
              description: "A high-throughput shared file system in the cluster's subnet.",
            },
          ]}
        />
        {driverOff && (
          <Alert type="warning" header="Driver not installed" data-testid="storage-driver-off">
            {`The ${kind === 's3' ? 'Mountpoint for Amazon S3 CSI driver (s3-csi-driver)' : 'FSx for Lustre CSI driver (fsx-csi-driver)'} feature is off in this cluster: turn it on under Features first.`}
          </Alert>
        )}
        <FormField
          label="Name"
          description="The claim pods mount, and the name other tools use for this storage."
          errorText={shown('name', name)}
          data-testid="storage-name"
        >
          <Input value={name} onChange={({ detail }) => setName(detail.value)} placeholder="models" />
        </FormField>
        <FormField
          label="Namespace"
          description="Pods in this namespace can mount it."
          errorText={fieldError('namespace')}
        >
          <Input value={namespace} onChange={({ detail }) => setNamespace(detail.value)} />
        </FormField>
        <RadioGroup
          value={source}
          onChange={({ detail }) => setSource(detail.value as 'existing' | 'new')}
          items={
            kind === 's3'
              ? [
                  {
                    value: 'existing',
                    label: 'An existing bucket',
                    description: "It must exist and be reachable with this server's credentials.",
                  },
                  { value: 'new', label: 'A new bucket', description: "Created and tagged as this cluster's." },
                ]
              : [
                  {
                    value: 'existing',
                    label: 'An existing file system',
                    description: "AVAILABLE, in the cluster's VPC.",
                  },
                  {
                    value: 'new',
                    label: 'A new file system',
                    description: "Created in the cluster's subnet; about 10 minutes, billed while it exists.",
                  },
                ]
          }
          data-testid="storage-source"
        />
        {kind === 's3' ? (
          <>
            <FormField
              label={source === 'new' ? 'Bucket name (optional)' : 'Bucket'}
              description={
                source === 'new' ? 'Leave empty for a name derived from the cluster and storage.' : undefined
              }
              errorText={shown('bucket', bucket)}
              data-testid="storage-bucket"
            >
              <Input value={bucket} onChange={({ detail }) => setBucket(detail.value)} placeholder="my-team-models" />
            </FormField>
            <FormField
              label="Prefix (optional)"
              description="Only this part of the bucket shows in the storage, e.g. models/."
              errorText={shown('prefix', prefix)}
              data-testid="storage-prefix"
            >
              <Input value={prefix} onChange={({ detail }) => setPrefix(detail.value)} placeholder="models/" />
            </FormField>
            <Checkbox
              checked={readOnly}
              onChange={({ detail }) => setReadOnly(detail.checked)}
              description="Pods can read but not write or delete."
              data-testid="storage-read-only"
            >
              Read-only
            </Checkbox>
          </>
        ) : source === 'existing' ? (
          <FormField label="File system id" errorText={shown('fileSystemId', fileSystemId)} data-testid="storage-fsid">
            <Input
              value={fileSystemId}
              onChange={({ detail }) => setFileSystemId(detail.value)}
              placeholder="fs-0123456789abcdef0"
            />
          </FormField>
        ) : (
          <FormField
            label="Capacity (GiB)"
            description="1200, or a multiple of 2400."
            errorText={fieldError('storageCapacityGiB')}
          >
            <Input type="number" value={capacity} onChange={({ detail }) => setCapacity(detail.value)} />
          </FormField>
        )}
        {start.error && (
          <Alert type="error" header="The storage was not added" data-testid="storage-add-error">
            <ProblemText error={start.error} words={WORDS} />
          </Alert>
        )}
      </SpaceBetween>
    </Modal>
  );
}
