import {
  list,
  num,
  parseConditions,
  rec,
  str,
  time,
  type Condition,
  type KubeHealth,
  health,
  type Loose,
} from './kind.js';

/**
 * What the HyperPod inference operator's two endpoint kinds (InferenceEndpointConfig, JumpStartModel;
 * group `inference.sagemaker.aws.amazon.com`, v1) share: the spec blocks both declare with the same
 * shapes (autoscaling as KEDA triggers, intelligent routing, KV cache, load balancer, metrics) and the
 * status both report. Typed from the CRDs in aws/sagemaker-hyperpod-cli at 011ca92
 * (`helm_chart/HyperPodHelmChart/charts/inference-operator/config/crd/`, controller-gen v0.16.4):
 * every field named here exists there with this type; defaults noted are the CRD's.
 */

export const INFERENCE_OPERATOR_API = 'inference.sagemaker.aws.amazon.com/v1';
export const INFERENCE_OPERATOR_INSTALLED_BY =
  "the HyperPod inference operator (turn the inference-operator feature on: the cluster's Features tab, or set_features)";

/** `autoScalingSpec.cloudWatchTrigger` (metricStat default Average, metricType Value|Average). */
export type CloudWatchTrigger = {
  name?: string;
  namespace?: string;
  metricName?: string;
  dimensions?: Array<{ name: string; value: string }>;
  metricStat?: string;
  metricType?: 'Value' | 'Average';
  targetValue?: number;
  activationTargetValue?: number;
  minValue?: number;
  metricCollectionPeriod?: number;
  metricCollectionStartTime?: number;
  useCachedMetrics?: boolean;
};

/** `autoScalingSpec.prometheusTrigger`; `serverAddress` must be an Amazon Managed Prometheus workspace URL (CRD pattern). */
export type PrometheusTrigger = {
  name?: string;
  serverAddress?: string;
  query?: string;
  targetValue?: number;
  activationTargetValue?: number;
  metricType?: 'Value' | 'Average';
  namespace?: string;
  customHeaders?: string;
  useCachedMetrics?: boolean;
};

/** `autoScalingSpec` (becomes a KEDA ScaledObject the operator owns). Defaults: min 1, max 5, cooldown 300. */
export type OperatorAutoScalingSpec = {
  minReplicaCount?: number;
  maxReplicaCount?: number;
  pollingInterval?: number;
  cooldownPeriod?: number;
  initialCooldownPeriod?: number;
  scaleUpStabilizationTime?: number;
  scaleDownStabilizationTime?: number;
  cloudWatchTrigger?: CloudWatchTrigger;
  cloudWatchTriggerList?: CloudWatchTrigger[];
  prometheusTrigger?: PrometheusTrigger;
  prometheusTriggerList?: PrometheusTrigger[];
};

export const ROUTING_STRATEGY_VALUES = ['prefixaware', 'kvaware', 'session', 'roundrobin'] as const;
export type OperatorRoutingStrategy = (typeof ROUTING_STRATEGY_VALUES)[number];

/** `intelligentRoutingSpec`: cannot be modified once set, nor added to a deployed endpoint (AWS docs, CRD description). */
export type IntelligentRoutingSpec = {
  enabled?: boolean;
  routingStrategy?: OperatorRoutingStrategy;
  autoScalingSpec?: OperatorAutoScalingSpec;
};

/** `kvCacheSpec`: L1 (CPU offload, default on), L2 shared across workers (backend matches `(?i)redis|tieredstorage`). */
export type KvCacheSpec = {
  enableL1Cache?: boolean;
  enableL2Cache?: boolean;
  l2CacheSpec?: { l2CacheBackend?: string; l2CacheLocalUrl?: string };
  cacheConfigFile?: string;
};

/** `loadBalancer`: the ALB the operator puts in front (healthCheckPath `^/.*`, default /ping). */
export type OperatorLoadBalancer = {
  healthCheckPath?: string;
  routingAlgorithm?: 'least_outstanding_requests' | 'round_robin';
};

/** `metrics` (modelMetrics.port: 1024–65535, default 8080; scrape interval 5–300 s, default 15). */
export type OperatorMetrics = {
  enabled?: boolean;
  metricsScrapeIntervalSeconds?: number;
  modelMetrics?: { path?: string; port?: number };
};

/** The spec blocks both kinds carry with one shape. */
export type OperatorCommonSpec = {
  replicas?: number;
  maxDeployTimeInSeconds?: number;
  autoScalingSpec?: OperatorAutoScalingSpec;
  intelligentRoutingSpec?: IntelligentRoutingSpec;
  kvCacheSpec?: KvCacheSpec;
  loadBalancer?: OperatorLoadBalancer;
  metrics?: OperatorMetrics;
};

/** `status.state` (CRD enum). */
export const OPERATOR_STATE_VALUES = [
  'DeploymentPending',
  'DeploymentInProgress',
  'DeploymentFailed',
  'DeploymentComplete',
  'DeletionPending',
  'DeletionInProgress',
  'DeletionFailed',
  'DeletionComplete',
] as const;
export type OperatorState = (typeof OPERATOR_STATE_VALUES)[number];

/** The status both kinds report, read tolerantly. */
export type OperatorStatus = Loose & {
  state?: OperatorState;
  conditions: Condition[];
  /** `deploymentStatus`: the Deployment the operator made, with its own status and the operator's reason. */
  deployment?: {
    name?: string;
    reason?: string;
    message?: string;
    lastUpdated?: string;
    overallState?: string;
    replicas?: number;
    readyReplicas?: number;
    availableReplicas?: number;
  };
  /** `endpoints.sagemaker.state`, when a SageMaker endpoint was registered. */
  sagemakerEndpointState?: string;
  replicas?: number;
  observedGeneration?: number;
};

const isState = (v: unknown): v is OperatorState =>
  typeof v === 'string' && (OPERATOR_STATE_VALUES as readonly string[]).includes(v);

export function parseOperatorStatus(raw: unknown): OperatorStatus {
  const status = rec(raw);
  const ds = rec(status.deploymentStatus);
  const dss = rec(ds.status);
  const hasDeployment = Object.keys(ds).length > 0;
  const sm = rec(rec(status.endpoints).sagemaker);
  return {
    ...status,
    // Read fields replace the raw ones (a wrong-typed value reads as absent).
    state: isState(status.state) ? status.state : undefined,
    conditions: parseConditions(status.conditions),
    ...(hasDeployment
      ? {
          deployment: defined({
            name: str(ds.name),
            reason: str(ds.reason),
            message: str(ds.message),
            lastUpdated: time(ds.lastUpdated),
            overallState: str(ds.deploymentObjectOverallState),
            replicas: num(dss.replicas),
            readyReplicas: num(dss.readyReplicas),
            availableReplicas: num(dss.availableReplicas),
          }),
        }
      : {}),
    ...(str(sm.state) ? { sagemakerEndpointState: str(sm.state) } : {}),
    replicas: num(status.replicas),
    observedGeneration: num(status.observedGeneration),
  };
}

/**
 * The shared spec blocks read tolerantly: a block that is not an object, or a count that is not a number, reads
 * as absent. Every key is present (undefined when absent) so spreading it over the raw spec replaces a wrong-typed one.
 */
export function parseCommonSpec(spec: Loose): OperatorCommonSpec {
  const block = <T>(v: unknown): T | undefined => (Object.keys(rec(v)).length ? (rec(v) as T) : undefined);
  return {
    replicas: num(spec.replicas),
    maxDeployTimeInSeconds: num(spec.maxDeployTimeInSeconds),
    autoScalingSpec: block<OperatorAutoScalingSpec>(spec.autoScalingSpec),
    intelligentRoutingSpec: block<IntelligentRoutingSpec>(spec.intelligentRoutingSpec),
    kvCacheSpec: block<KvCacheSpec>(spec.kvCacheSpec),
    loadBalancer: block<OperatorLoadBalancer>(spec.loadBalancer),
    metrics: block<OperatorMetrics>(spec.metrics),
  };
}

/** Why the operator failed, in its words: the deployment status' reason/message, else a False condition's. */
export function operatorFailure(status: OperatorStatus): string | undefined {
  const d = status.deployment;
  const fromDeployment = [d?.reason, d?.message].filter(Boolean).join(': ');
  if (fromDeployment) return fromDeployment;
  const c = status.conditions.find((x) => x.status === 'False' && (x.message || x.reason));
  return c ? [c.reason, c.message].filter(Boolean).join(': ') : undefined;
}

/** The health of an operator object from its `status.state`. */
export function operatorHealth(what: string, status: OperatorStatus): KubeHealth {
  switch (status.state) {
    case 'DeploymentComplete':
      return health('healthy', 'DeploymentComplete', `${what} is deployed.`);
    case 'DeploymentFailed':
    case 'DeletionFailed': {
      const why = operatorFailure(status);
      return health('failed', status.state, `${what}: ${status.state}${why ? ` (${why})` : ''}.`);
    }
    case undefined:
      return health('transitional', 'pending', `${what} has not been reported on by the operator yet.`);
    default:
      return health('transitional', status.state, `${what}: ${status.state}.`);
  }
}

/** Routing as it stands on an object: the strategy when enabled (the CRD defaults it to prefixaware), else none. */
export function routingOf(spec: {
  intelligentRoutingSpec?: IntelligentRoutingSpec;
}): OperatorRoutingStrategy | undefined {
  const r = spec.intelligentRoutingSpec;
  if (!r || r.enabled !== true) return undefined;
  const s = r.routingStrategy;
  return s && (ROUTING_STRATEGY_VALUES as readonly string[]).includes(s) ? s : 'prefixaware';
}

export const strings = (v: unknown): string[] => list(v).filter((x): x is string => typeof x === 'string');

function defined<T extends Record<string, unknown>>(o: T): T {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
}
