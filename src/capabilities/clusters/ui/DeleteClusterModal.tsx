import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Checkbox from '@cloudscape-design/components/checkbox';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { deleteCluster } from '../../../../web/src/api/endpoints.js';
import { keys } from '../../../../web/src/api/queries.js';
import type { Accepted } from '../../../../web/src/api/types.js';
import { ProblemText } from '../../../../web/src/hooks/notifications.js';

export interface DeleteClusterModalProps {
  /** The cluster to delete; the modal is shown while set. */
  cluster: { name: string; region?: string } | null;
  onDismiss(): void;
  onDeleted(accepted: Accepted): void;
}

/**
 * Deleting removes nodes, the EKS cluster, the network and (unless kept) the storage, so the user
 * types the cluster's name to confirm — the UI's version of the API's `confirm=true`.
 */
export function DeleteClusterModal({ cluster, onDismiss, onDeleted }: DeleteClusterModalProps) {
  const qc = useQueryClient();
  const [typed, setTyped] = useState('');
  const [keepStorage, setKeepStorage] = useState(false);
  const mutation = useMutation({
    mutationFn: (c: { name: string; region?: string }) => deleteCluster(c.name, { region: c.region, keepStorage }),
    onSuccess: (accepted) => {
      qc.setQueryData(keys.operation(accepted.operation.id), accepted.operation);
      void qc.invalidateQueries({ queryKey: keys.clusters });
      void qc.invalidateQueries({ queryKey: keys.operationList });
      onDeleted(accepted);
    },
  });
  const { reset } = mutation;
  useEffect(() => {
    setTyped('');
    setKeepStorage(false);
    reset();
  }, [cluster?.name, reset]);

  if (!cluster) return null;
  const matches = typed === cluster.name;
  return (
    <Modal
      visible
      onDismiss={onDismiss}
      header={`Delete cluster ${cluster.name}?`}
      data-testid="delete-cluster-modal"
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" onClick={onDismiss} data-testid="delete-cancel">
              Cancel
            </Button>
            <Button
              variant="primary"
              disabled={!matches}
              loading={mutation.isPending}
              onClick={() => mutation.mutate(cluster)}
              data-testid="delete-confirm"
            >
              Delete
            </Button>
          </SpaceBetween>
        </Box>
      }
    >
      <SpaceBetween size="m">
        <Box>
          Deleting <b>{cluster.name}</b> removes its HyperPod nodes, the EKS cluster, its network and roles
          {keepStorage ? '. The S3 bucket and FSx file system are kept.' : ', and its storage (S3 bucket and FSx data).'} This cannot be undone.
        </Box>
        <Checkbox checked={keepStorage} onChange={(e) => setKeepStorage(e.detail.checked)} data-testid="delete-keep-storage">
          Keep storage (S3 bucket and FSx for Lustre file system)
        </Checkbox>
        <FormField label={`To confirm, type the cluster name "${cluster.name}"`}>
          <Input
            value={typed}
            onChange={(e) => setTyped(e.detail.value)}
            placeholder={cluster.name}
            ariaRequired
            data-testid="delete-confirm-input"
            onKeyDown={(e) => {
              if (e.detail.key === 'Enter' && matches && !mutation.isPending) mutation.mutate(cluster);
            }}
          />
        </FormField>
        {mutation.error && (
          <Alert type="error" header="The cluster could not be deleted">
            <ProblemText error={mutation.error} />
          </Alert>
        )}
      </SpaceBetween>
    </Modal>
  );
}
