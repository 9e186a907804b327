import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import Select from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { ProblemText } from '@kit/hooks/notifications.js';
import { useMutation } from '@tanstack/react-query';
import { type EndpointRef, previewAutoscaling } from './api.js';
import { type AutoscalingState, autoscalingOf } from './container-request.js';
import { option, pick } from '@kit/lib/form-kit.js';

const METRICS = [
  option('queue_depth', 'Queue depth', "Requests waiting in the router's or servers' queue"),
  option('running_requests', 'Running requests', 'Requests the servers are working on'),
];

/** The autoscaling inputs: request path → label (the deploy form and the scaling panel place refusals with it). */
export const AUTOSCALING_LABELS = {
  autoscaling: 'Autoscaling',
  'autoscaling.min': 'Fewest replicas',
  'autoscaling.max': 'Most replicas',
  'autoscaling.cooldownSeconds': 'Cooldown',
  'autoscaling.metric': 'Metric',
  'autoscaling.threshold': 'Target per replica',
  'autoscaling.prometheusUrl': 'Prometheus URL',
};

interface Props {
  cluster: string;
  region: string;
  /** The endpoint the ScaledObject is for (the one being deployed, or the one shown). */
  endpoint: EndpointRef;
  state: AutoscalingState;
  set(patch: Partial<AutoscalingState>): void;
  /** The message for the input owning a path under `autoscaling` (min, max, threshold, …). */
  errorOf(path: string): string | undefined;
  /** Whether the endpoint exists: the server previews the scaler of a deployed endpoint only. */
  deployed: boolean;
}

/** The ScaledObject as it would be applied, indented (YAML is what kubectl shows; JSON reads the same here). */
const previewText = (a: { scaledObject: Record<string, unknown> }) => JSON.stringify(a.scaledObject, null, 2);

/**
 * KEDA scaling of a container endpoint: replicas = ceil(metric / threshold) between min and max, scaled down after the
 * cooldown. "Preview" shows the ScaledObject the server would apply for these settings, before anything is applied.
 */
export function AutoscalingFields({ cluster, region, endpoint, state, set, errorOf, deployed }: Props) {
  const preview = useMutation({
    mutationFn: () => previewAutoscaling(cluster, region, endpoint, autoscalingOf(state)).then(previewText),
  });
  const text =
    (k: keyof AutoscalingState) =>
    ({ detail }: { detail: { value: string } }) => {
      set({ [k]: detail.value });
      preview.reset();
    };
  return (
    <SpaceBetween size="m">
      <ColumnLayout columns={3}>
        <FormField label="Fewest replicas" errorText={errorOf('autoscaling.min')} data-testid="inference-scaling-min">
          <Input value={state.min} inputMode="numeric" onChange={text('min')} />
        </FormField>
        <FormField label="Most replicas" errorText={errorOf('autoscaling.max')} data-testid="inference-scaling-max">
          <Input value={state.max} inputMode="numeric" onChange={text('max')} />
        </FormField>
        <FormField
          label="Cooldown (seconds)"
          description="Wait before scaling down."
          errorText={errorOf('autoscaling.cooldownSeconds')}
        >
          <Input value={state.cooldownSeconds} inputMode="numeric" onChange={text('cooldownSeconds')} />
        </FormField>
        <FormField label="Metric" errorText={errorOf('autoscaling.metric')}>
          <Select
            selectedOption={pick(METRICS, state.metric)}
            options={METRICS}
            onChange={({ detail }) => {
              set({ metric: detail.selectedOption.value as AutoscalingState['metric'] });
              preview.reset();
            }}
          />
        </FormField>
        <FormField
          label="Target per replica"
          description="Replicas = metric ÷ target, rounded up."
          errorText={errorOf('autoscaling.threshold')}
          data-testid="inference-scaling-threshold"
        >
          <Input value={state.threshold} inputMode="decimal" onChange={text('threshold')} />
        </FormField>
        <FormField
          label="Prometheus URL"
          description="The Prometheus KEDA queries."
          errorText={errorOf('autoscaling.prometheusUrl')}
          data-testid="inference-scaling-prometheus"
        >
          <Input
            value={state.prometheusUrl}
            onChange={text('prometheusUrl')}
            placeholder="http://prometheus-server.monitoring.svc.cluster.local"
          />
        </FormField>
      </ColumnLayout>
      <SpaceBetween size="s">
        {deployed ? (
          <Button onClick={() => preview.mutate()} loading={preview.isPending} data-testid="inference-scaling-preview">
            Preview the scaler
          </Button>
        ) : (
          <Box variant="small" color="text-body-secondary">
            Once deployed, the endpoint's page previews the scaler for other settings before they are applied.
          </Box>
        )}
        {preview.data !== undefined && (
          <Box variant="code" data-testid="inference-scaling-preview-text">
            <pre
              style={{ margin: 0, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', maxHeight: 320, overflow: 'auto' }}
            >
              {preview.data}
            </pre>
          </Box>
        )}
        {preview.error && (
          <Alert type="error" header="No preview">
            <ProblemText error={preview.error} />
          </Alert>
        )}
      </SpaceBetween>
    </SpaceBetween>
  );
}
