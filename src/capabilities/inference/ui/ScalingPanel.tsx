import Alert from '@cloudscape-design/components/alert';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import SpaceBetween from '@cloudscape-design/components/space-between';
import type { EndpointDetail } from '@domain/schemas/inference.js';
import { ProblemText } from '@kit/hooks/notifications.js';
import { useState } from 'react';
import { type EndpointRef, useScaleEndpoint, useSetAutoscaling } from './api.js';
import { AUTOSCALING_LABELS, AutoscalingFields } from './AutoscalingFields.js';
import { type AutoscalingState, autoscalingOf, autoscalingStateOf } from './container-request.js';
import { fieldErrors } from '@kit/lib/form-kit.js';

interface Props {
  cluster: string;
  region: string;
  endpoint: EndpointDetail;
}

/**
 * Scale an endpoint: the replicas wanted now, and for a container endpoint its KEDA autoscaling (set, previewed,
 * removed). While a scaler runs it owns the replica count within its bounds; the panel says so.
 */
export function ScalingPanel({ cluster, region, endpoint: e }: Props) {
  const ref: EndpointRef = { namespace: e.namespace, endpoint: e.name };
  const [replicas, setReplicas] = useState(String(e.replicas.desired));
  const scale = useScaleEndpoint(cluster, region, ref);
  const scaleErrors = fieldErrors(scale.error, { replicas: 'Replicas' });
  const [editing, setEditing] = useState(false);
  const [scaling, setScaling] = useState<AutoscalingState>(() => autoscalingStateOf(e.autoscaling));
  const autoscale = useSetAutoscaling(cluster, region, ref);
  const scalingErrors = fieldErrors(autoscale.error, AUTOSCALING_LABELS);
  const container = e.kind === 'container';
  return (
    <Container
      data-testid="inference-scaling"
      header={
        <Header
          variant="h2"
          description={
            e.autoscaling
              ? `The autoscaler keeps the replicas between ${e.autoscaling.min} and ${e.autoscaling.max}; remove it to set the count by hand.`
              : 'The replicas wanted; pods start or stop to match.'
          }
        >
          Scaling
        </Header>
      }
    >
      <SpaceBetween size="l">
        <SpaceBetween direction="horizontal" size="xs" alignItems="end">
          <FormField
            label="Replicas"
            errorText={scaleErrors.errorOf('replicas')}
            data-testid="inference-scale-replicas"
            stretch={false}
          >
            <Input
              value={replicas}
              inputMode="numeric"
              disabled={!!e.autoscaling}
              onChange={({ detail }) => setReplicas(detail.value)}
            />
          </FormField>
          <Button
            disabled={!!e.autoscaling}
            onClick={() => scale.mutate(replicas.trim() === '' ? Number.NaN : Number(replicas))}
            loading={scale.isPending}
            data-testid="inference-scale-apply"
          >
            Scale
          </Button>
        </SpaceBetween>
        {scale.isSuccess && !scale.isPending && (
          <Alert type="success" data-testid="inference-scale-done">
            {`Scaling to ${replicas} replicas; ready ${e.replicas.ready}/${e.replicas.desired} now.`}
          </Alert>
        )}
        {scaleErrors.alert && (
          <Alert type="error" header="Not scaled">
            <ProblemText error={scale.error} />
          </Alert>
        )}
        {container && !editing && (
          <SpaceBetween direction="horizontal" size="xs">
            <Button onClick={() => setEditing(true)} data-testid="inference-autoscaling-edit">
              {e.autoscaling ? 'Change autoscaling' : 'Set up autoscaling'}
            </Button>
            {e.autoscaling && (
              <Button
                onClick={() => autoscale.mutate(null)}
                loading={autoscale.isPending}
                data-testid="inference-autoscaling-remove"
              >
                Remove autoscaling
              </Button>
            )}
          </SpaceBetween>
        )}
        {container && editing && (
          <SpaceBetween size="m">
            <AutoscalingFields
              cluster={cluster}
              region={region}
              endpoint={ref}
              state={scaling}
              set={(patch) => setScaling((x) => ({ ...x, ...patch }))}
              errorOf={scalingErrors.errorOf}
              deployed
            />
            <SpaceBetween direction="horizontal" size="xs">
              <Button variant="link" onClick={() => setEditing(false)}>
                Cancel
              </Button>
              <Button
                variant="primary"
                loading={autoscale.isPending}
                onClick={() => autoscale.mutate(autoscalingOf(scaling), { onSuccess: () => setEditing(false) })}
                data-testid="inference-autoscaling-apply"
              >
                Apply autoscaling
              </Button>
            </SpaceBetween>
          </SpaceBetween>
        )}
        {scalingErrors.alert && (
          <Alert type="error" header="Autoscaling not changed">
            <ProblemText error={autoscale.error} />
          </Alert>
        )}
      </SpaceBetween>
    </Container>
  );
}
