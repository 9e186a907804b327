import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import type { EndpointView } from '@domain/schemas/inference.js';
import { ProblemText } from '@kit/hooks/notifications.js';
import { useDeleteEndpoint } from './api.js';

interface Props {
  cluster: string;
  region: string;
  endpoint: EndpointView;
  onDismiss(): void;
  onDeleted(): void;
}

/**
 * Delete an endpoint, naming exactly the objects that go (the ones it is made of, as the server reads them); the
 * model's storage, token Secret and pool stay.
 */
export function DeleteEndpointModal({ cluster, region, endpoint: e, onDismiss, onDeleted }: Props) {
  const del = useDeleteEndpoint(cluster, region, { namespace: e.namespace, endpoint: e.name });
  return (
    <Modal
      visible
      onDismiss={onDismiss}
      header={`Delete endpoint ${e.name}?`}
      data-testid="inference-delete-modal"
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" onClick={onDismiss}>
              Cancel
            </Button>
            <Button
              variant="primary"
              loading={del.isPending}
              onClick={() => del.mutate(undefined, { onSuccess: onDeleted })}
              data-testid="inference-delete-confirm"
            >
              Delete
            </Button>
          </SpaceBetween>
        </Box>
      }
    >
      <SpaceBetween size="s">
        <Box>{`These objects in namespace ${e.namespace} are removed, and the model stops answering:`}</Box>
        <ul data-testid="inference-delete-objects" style={{ margin: 0 }}>
          {e.objects.map((o) => (
            <li key={`${o.kind}/${o.name}`}>{`${o.kind} ${o.name}`}</li>
          ))}
        </ul>
        <Box color="text-body-secondary">
          {e.kind === 'container'
            ? 'The storage with the model, the token Secret and any model pool stay.'
            : 'What the inference operator made from it goes with it; the model in its storage stays.'}
        </Box>
        {del.error && (
          <Alert type="error" header="The endpoint was not deleted">
            <ProblemText error={del.error} />
          </Alert>
        )}
      </SpaceBetween>
    </Modal>
  );
}
