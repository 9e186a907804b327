import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Checkbox from '@cloudscape-design/components/checkbox';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import type { StorageView } from '@domain/schemas/storage.js';
import { useStartOperation } from '@kit/api/queries.js';
import type { Accepted } from '@kit/api/types.js';
import { ProblemText } from '@kit/hooks/notifications.js';
import { useState } from 'react';
import { removeStorage } from './api.js';

/**
 * Removes a storage's claim and volume. The data stays unless the user ticks "also delete the data"
 * and types its name (the server checks the same); a storage running pods mount needs "remove anyway".
 */
export function RemoveStorageModal({
  cluster,
  region,
  storage,
  onDismiss,
  onStarted,
}: {
  cluster: string;
  region: string;
  storage: StorageView;
  onDismiss(): void;
  onStarted(a: Accepted): void;
}) {
  const [deleteData, setDeleteData] = useState(false);
  const [confirm, setConfirm] = useState('');
  const [force, setForce] = useState(false);
  const running = storage.mounts.filter((m) => m.phase === 'Running' || m.phase === 'Pending');
  const ready = (!deleteData || confirm === storage.dataName) && (running.length === 0 || force);
  const start = useStartOperation(
    () => removeStorage(cluster, region, storage, { force, deleteData, confirm }),
    onStarted,
  );
  return (
    <Modal
      visible
      onDismiss={onDismiss}
      header={`Remove storage ${storage.name}`}
      data-testid="storage-remove-modal"
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" onClick={onDismiss}>
              Cancel
            </Button>
            <Button
              variant="primary"
              disabled={!ready}
              loading={start.isPending}
              onClick={() => start.mutate()}
              data-testid="storage-remove-submit"
            >
              Remove
            </Button>
          </SpaceBetween>
        </Box>
      }
    >
      <SpaceBetween size="m">
        <Box>{`The claim ${storage.namespace}/${storage.name} and its volume are deleted; pods can no longer mount it. ${storage.dataName} and its data are kept.`}</Box>
        {running.length > 0 && (
          <Alert type="warning" header="In use">
            {`Mounted by ${running.map((m) => `${m.namespace}/${m.pod}`).join(', ')}.`}
            <Checkbox
              checked={force}
              onChange={({ detail }) => setForce(detail.checked)}
              data-testid="storage-remove-force"
            >
              Remove anyway (those pods lose it)
            </Checkbox>
          </Alert>
        )}
        <Checkbox
          checked={deleteData}
          onChange={({ detail }) => setDeleteData(detail.checked)}
          data-testid="storage-remove-delete-data"
        >
          Also delete the data (irreversible)
        </Checkbox>
        {deleteData && (
          <FormField label={`Type ${storage.dataName} to confirm`} data-testid="storage-remove-confirm">
            <Input value={confirm} onChange={({ detail }) => setConfirm(detail.value)} placeholder={storage.dataName} />
          </FormField>
        )}
        {start.error && (
          <Alert type="error" header="The storage was not removed">
            <ProblemText error={start.error} />
          </Alert>
        )}
      </SpaceBetween>
    </Modal>
  );
}
