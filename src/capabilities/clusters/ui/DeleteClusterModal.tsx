import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Checkbox from '@cloudscape-design/components/checkbox';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import { keys } from '@kit/api/queries.js';
import type { Accepted } from '@kit/api/types.js';
import { ProblemText } from '@kit/hooks/notifications.js';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { deleteCluster, getDeletePlan } from './api.js';
import { DeletePlanLists } from './DeletePlanLists.js';

export interface DeleteClusterModalProps {
  /** The cluster to delete; the modal is shown while set. */
  cluster: { name: string; region?: string } | null;
  onDismiss(): void;
  onDeleted(accepted: Accepted): void;
}

/**
 * Deleting removes nodes, the EKS cluster, the network and (unless kept) the storage, so the user
 * reads what goes and what stays (the delete plan, by name) and types the cluster's name to confirm —
 * the UI's version of the API's `confirm=true`.
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
  const plan = useQuery({
    queryKey: ['delete-plan', cluster?.region ?? '', cluster?.name ?? '', keepStorage],
    queryFn: () => getDeletePlan(cluster!.name, { region: cluster!.region, keepStorage }),
    enabled: cluster !== null,
    retry: false,
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
      size="large"
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
          Deleting <b>{cluster.name}</b> removes everything InstantStart made for it, listed below by name
          {keepStorage ? ', but its buckets and file systems.' : ', with its storage.'} This cannot be undone.
        </Box>
        <Checkbox
          checked={keepStorage}
          onChange={(e) => setKeepStorage(e.detail.checked)}
          data-testid="delete-keep-storage"
        >
          Keep storage (every S3 bucket and FSx for Lustre file system holding the cluster's data)
        </Checkbox>
        {plan.isLoading && <StatusIndicator type="loading">Reading what the delete removes and keeps</StatusIndicator>}
        {plan.data && <DeletePlanLists plan={plan.data} />}
        {plan.error && (
          <Alert type="warning" header="What the delete removes could not be read">
            <ProblemText error={plan.error} />
          </Alert>
        )}
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
