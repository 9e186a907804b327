import { InputError } from '../errors.js';
import { scaledObjectManifest, type ScaledObjectManifest } from '../kube/scaled-object.js';
import type { ServingEngine } from '../schemas/inference/fields.js';
import type { DeployContainerEndpointRequest } from '../schemas/inference/requests.js';
import { endpointLabels, MODEL_SERVER, scaledObjectName, serverName } from './names.js';

/**
 * KEDA scaling of a container endpoint's Deployment: one ScaledObject named for the endpoint (never
 * shared), one prometheus trigger whose query sums a gauge the model servers publish over the
 * endpoint's pods. KEDA's prometheus scaler (kedacore/keda v2.17 `pkg/scalers/prometheus_scaler.go`)
 * takes `serverAddress`, `query` (one element) and `threshold` as strings; with the default
 * AverageValue target the HPA keeps about `threshold` per replica: replicas = ceil(value / threshold).
 *
 * The gauges (what the servers publish, per pod):
 * - queue_depth: requests waiting — vLLM `vllm:num_requests_waiting`, SGLang `sglang:num_queue_reqs`;
 * - running_requests: requests in flight — vLLM `vllm:num_requests_running`, SGLang `sglang:num_running_reqs`.
 * The SGLang router (sgl-project/sglang sgl-router `src/metrics.rs`) publishes no queue-depth gauge,
 * only per-worker load, so the servers' gauges drive it with or without the router. Series are picked
 * by the `namespace` and `pod` labels Prometheus' Kubernetes pod discovery adds (the prometheus-community
 * chart's `kubernetes-pods` job): the endpoint's pods are `<endpoint>-<replicaset hash>-<suffix>`, a
 * pattern the router's pods (`<endpoint>-router-…`) do not match.
 */

export type ContainerAutoscaling = NonNullable<DeployContainerEndpointRequest['autoscaling']>;

const GAUGES: Readonly<Record<'vllm' | 'sglang', Record<ContainerAutoscaling['metric'], string>>> = {
  vllm: { queue_depth: 'vllm:num_requests_waiting', running_requests: 'vllm:num_requests_running' },
  sglang: { queue_depth: 'sglang:num_queue_reqs', running_requests: 'sglang:num_running_reqs' },
};

/** How often KEDA queries (its default is 30 s; 15 s follows a queue closely enough for serving). */
const POLLING_SECONDS = 15;

/** The PromQL the trigger runs for an endpoint's servers. */
export function autoscalingQuery(
  endpoint: { name: string; namespace: string; engine: 'vllm' | 'sglang' },
  metric: ContainerAutoscaling['metric'],
): string {
  const gauge = GAUGES[endpoint.engine][metric];
  return `sum(${gauge}{namespace="${endpoint.namespace}",pod=~"${endpoint.name}-[a-z0-9]+-[a-z0-9]+"})`;
}

/**
 * The ScaledObject set_endpoint_autoscaling (and a deploy with `autoscaling`) applies to endpoint
 * `name`; a custom server publishes no gauge we know, so its scaling is refused by field.
 *
 * @example
 * scaledObjectPreview({ name: 'chat', namespace: 'default', engine: 'sglang' }, req.autoscaling)
 */
export function scaledObjectPreview(
  endpoint: { name: string; namespace: string; engine: ServingEngine },
  autoscaling: ContainerAutoscaling,
): ScaledObjectManifest {
  const engine = endpoint.engine;
  if (engine === 'custom')
    throw InputError.field(
      'autoscaling',
      'is for vllm and sglang endpoints: a custom server publishes no metric InstantStart knows to scale on',
    );
  return scaledObjectManifest({
    name: scaledObjectName(endpoint.name),
    namespace: endpoint.namespace,
    labels: endpointLabels(endpoint.name, engine, MODEL_SERVER),
    deployment: serverName(endpoint.name),
    spec: {
      minReplicaCount: autoscaling.min,
      maxReplicaCount: autoscaling.max,
      cooldownPeriod: autoscaling.cooldownSeconds,
      pollingInterval: POLLING_SECONDS,
      triggers: [
        {
          type: 'prometheus',
          name: autoscaling.metric.replace('_', '-'),
          metadata: {
            serverAddress: autoscaling.prometheusUrl.replace(/\/+$/, ''),
            query: autoscalingQuery({ name: endpoint.name, namespace: endpoint.namespace, engine }, autoscaling.metric),
            threshold: String(autoscaling.threshold),
          },
        },
      ],
    },
  });
}
