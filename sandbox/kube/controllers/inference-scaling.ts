import type { KubeObject } from '../types.js';
import { ENDPOINT_LABEL } from './inference-objects.js';
import { controllerRef, type Any } from './util.js';

/**
 * The KEDA ScaledObject the inference operator makes from an endpoint's `autoScalingSpec`
 * (keda.sh/v1alpha1, the KEDA 2.17 its add-on bundles): min/max, polling, cooldowns, the HPA's
 * stabilization windows from `scaleUp/DownStabilizationTime`, and one trigger per CloudWatch or
 * Prometheus trigger of the spec (the list form when given, else the single one). Trigger metadata uses KEDA's keys:
 * `aws-cloudwatch` (namespace, metricName, dimensionName/dimensionValue joined by `;`, metricStat,
 * targetMetricValue, activationTargetMetricValue, minMetricValue, metricStatPeriod,
 * metricCollectionTime, awsRegion, identityOwner operator) and `prometheus` (serverAddress, query,
 * threshold, activationThreshold, namespace, customHeaders, awsRegion). Assumed: the mapping of the
 * CRD's names onto those keys (`metricCollectionPeriod` → metricStatPeriod, `metricCollectionStartTime`
 * → metricCollectionTime), `metricType: Average` → KEDA's `AverageValue`, and the triggers
 * authenticating as the KEDA operator's own IRSA role.
 */

const num = (v: unknown, fallback: number) => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);
const text = (v: unknown) => String(v);

const metricType = (t: Any) => (t.metricType === 'Value' ? 'Value' : 'AverageValue');

function cloudWatchTrigger(t: Any, region: string): Any {
  const dims = (Array.isArray(t.dimensions) ? t.dimensions : []) as Any[];
  const metadata: Record<string, string> = {
    namespace: text(t.namespace ?? ''),
    metricName: text(t.metricName ?? ''),
    ...(dims.length
      ? {
          dimensionName: dims.map((d) => text(d.name)).join(';'),
          dimensionValue: dims.map((d) => text(d.value)).join(';'),
        }
      : {}),
    metricStat: text(t.metricStat ?? 'Average'),
    targetMetricValue: text(num(t.targetValue, 0)),
    activationTargetMetricValue: text(num(t.activationTargetValue, 0)),
    minMetricValue: text(num(t.minValue, 0)),
    metricStatPeriod: text(num(t.metricCollectionPeriod, 300)),
    metricCollectionTime: text(num(t.metricCollectionStartTime, 300)),
    awsRegion: region,
    identityOwner: 'operator',
  };
  return {
    type: 'aws-cloudwatch',
    ...(t.name ? { name: text(t.name) } : {}),
    metadata,
    metricType: metricType(t),
    useCachedMetrics: t.useCachedMetrics !== false,
  };
}

function prometheusTrigger(t: Any, region: string): Any {
  const metadata: Record<string, string> = {
    serverAddress: text(t.serverAddress ?? ''),
    query: text(t.query ?? ''),
    threshold: text(num(t.targetValue, 0)),
    activationThreshold: text(num(t.activationTargetValue, 0)),
    ...(t.namespace ? { namespace: text(t.namespace) } : {}),
    ...(t.customHeaders ? { customHeaders: text(t.customHeaders) } : {}),
    awsRegion: region,
    identityOwner: 'operator',
  };
  return {
    type: 'prometheus',
    ...(t.name ? { name: text(t.name) } : {}),
    metadata,
    metricType: metricType(t),
    useCachedMetrics: t.useCachedMetrics !== false,
  };
}

/** The CRD: a `…TriggerList` "takes priority over" its single `…Trigger` when both are given. */
export function triggersOf(spec: Any, region: string): Any[] {
  const list = (single: unknown, many: unknown) =>
    Array.isArray(many) && many.length ? (many as Any[]) : single && typeof single === 'object' ? [single as Any] : [];
  return [
    ...list(spec.cloudWatchTrigger, spec.cloudWatchTriggerList).map((t) => cloudWatchTrigger(t, region)),
    ...list(spec.prometheusTrigger, spec.prometheusTriggerList).map((t) => prometheusTrigger(t, region)),
  ];
}

export function scaledObject(
  owner: KubeObject,
  o: { name: string; namespace: string; endpoint: string; target: string; spec: Any; region: string },
): KubeObject | undefined {
  const triggers = triggersOf(o.spec, o.region);
  if (triggers.length === 0) return undefined;
  const s = o.spec;
  return {
    apiVersion: 'keda.sh/v1alpha1',
    kind: 'ScaledObject',
    metadata: {
      name: o.name,
      namespace: o.namespace,
      labels: { [ENDPOINT_LABEL]: o.endpoint },
      ownerReferences: [controllerRef(owner)],
    },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: o.target },
      pollingInterval: num(s.pollingInterval, 30),
      cooldownPeriod: num(s.cooldownPeriod, 300),
      initialCooldownPeriod: num(s.initialCooldownPeriod, 300),
      minReplicaCount: num(s.minReplicaCount, 1),
      maxReplicaCount: num(s.maxReplicaCount, 5),
      advanced: {
        horizontalPodAutoscalerConfig: {
          behavior: {
            scaleUp: { stabilizationWindowSeconds: num(s.scaleUpStabilizationTime, 0) },
            scaleDown: { stabilizationWindowSeconds: num(s.scaleDownStabilizationTime, 300) },
          },
        },
      },
      triggers,
    },
  };
}
