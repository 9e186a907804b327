import { z } from 'zod';
import { RoutingStrategySchema, ServiceVariantSchema, ServingEngineSchema } from './fields.js';

/**
 * What the inference capability answers: endpoints read live from Kubernetes (the InferenceEndpointConfig or
 * JumpStartModel and what the operator made, or our Deployment, Service, router and ScaledObject), pools, and the
 * answer of a chat completion sent through the service proxy.
 */

/** The inference operator's `status.state` values (InferenceEndpointConfig / JumpStartModel CRD, 011ca92). */
export const OPERATOR_STATES = [
  'DeploymentPending',
  'DeploymentInProgress',
  'DeploymentFailed',
  'DeploymentComplete',
  'DeletionPending',
  'DeletionInProgress',
  'DeletionFailed',
  'DeletionComplete',
] as const;

export const EndpointStateSchema = z
  .enum(['Pending', 'Deploying', 'Ready', 'Degraded', 'Failed', 'Deleting'])
  .describe(
    'Pending (accepted, nothing running yet), Deploying (replicas starting), Ready (every wanted replica ready), Degraded ' +
      '(some ready), Failed (the operator or Kubernetes says why), Deleting.',
  );

export const EndpointKindSchema = z
  .enum(['managed', 'jumpstart', 'container'])
  .describe('managed: an InferenceEndpointConfig; jumpstart: a JumpStartModel; container: our Deployment and Service.');

export const EndpointPodSchema = z.object({
  name: z.string(),
  node: z.string().optional(),
  phase: z.string(),
  ready: z.boolean(),
  restarts: z.number().int(),
  reason: z.string().optional().describe('Why it is not running (ImagePullBackOff, Unschedulable, …).'),
});

export const EndpointEventSchema = z.object({
  type: z.string(),
  reason: z.string(),
  message: z.string(),
  object: z.string().describe('Kind/name of the object the event is about.'),
  lastSeen: z.string().optional(),
  count: z.number().int().optional(),
});

export const EndpointViewSchema = z
  .object({
    name: z.string(),
    namespace: z.string(),
    kind: EndpointKindSchema,
    engine: ServingEngineSchema.optional().describe('container endpoints: the serving engine.'),
    model: z.string().describe('What it serves (model id, JumpStart id or storage path).'),
    state: EndpointStateSchema,
    operatorState: z
      .enum(OPERATOR_STATES)
      .optional()
      .describe("managed and jumpstart: the operator's own state, as it reports it."),
    reason: z.string().optional().describe("Why it failed or is degraded, in the operator's or Kubernetes' words."),
    replicas: z.object({ ready: z.number().int(), desired: z.number().int() }),
    instanceTypes: z.array(z.string()),
    variant: ServiceVariantSchema.optional().describe('container endpoints: how the endpoint is reached.'),
    pool: z.string().optional(),
    routing: RoutingStrategySchema.optional().describe('managed: the intelligent routing strategy.'),
    router: z
      .object({ policy: z.string(), ready: z.boolean(), service: z.string() })
      .optional()
      .describe('sglang: the router in front.'),
    autoscaling: z
      .object({
        min: z.number().int(),
        max: z.number().int(),
        scaledObject: z.string(),
        active: z.boolean().optional(),
      })
      .optional(),
    urls: z
      .object({
        inCluster: z.string().optional().describe('http://<service>.<namespace>.svc.cluster.local:<port>/…'),
        loadBalancer: z.string().optional().describe("The load balancer's hostname, once AWS gave it one."),
      })
      .describe('Where clients reach it.'),
    invocationPath: z.string(),
    objects: z
      .array(z.object({ kind: z.string(), name: z.string() }))
      .describe('The Kubernetes objects that make the endpoint (what delete removes).'),
    createdAt: z.string().optional(),
  })
  .describe('One inference endpoint, read live.');
export type EndpointView = z.infer<typeof EndpointViewSchema>;

export const EndpointDetailSchema = EndpointViewSchema.extend({
  pods: z.array(EndpointPodSchema),
  events: z.array(EndpointEventSchema),
});
export type EndpointDetail = z.infer<typeof EndpointDetailSchema>;

export const EndpointListSchema = z.object({
  endpoints: z.array(EndpointViewSchema),
  inferenceOperator: z.boolean().describe('Whether the inference-operator feature is on (managed endpoints need it).'),
});
export type EndpointList = z.infer<typeof EndpointListSchema>;

export const PoolWorkerSchema = z.object({
  pod: z.string(),
  node: z.string().optional(),
  ready: z.boolean(),
  endpoint: z.string().optional().describe('The endpoint this worker serves (its model label).'),
});

export const ModelPoolViewSchema = z.object({
  name: z.string(),
  namespace: z.string(),
  engine: ServingEngineSchema,
  model: z.string(),
  workers: z.array(PoolWorkerSchema),
  endpoints: z.array(z.string()).describe('The pool endpoints (Services) of this pool.'),
});
export type ModelPoolView = z.infer<typeof ModelPoolViewSchema>;

export const InvokeEndpointAnswerSchema = z.object({
  model: z.string(),
  content: z.string().describe('The generated text (capped; truncated says so).'),
  finishReason: z.string().optional(),
  truncated: z.boolean(),
  usage: z.object({ promptTokens: z.number().int(), completionTokens: z.number().int() }).optional(),
  servedBy: z.string().optional().describe('The pod that answered, when the server says so.'),
  latencyMs: z.number(),
});
export type InvokeEndpointAnswer = z.infer<typeof InvokeEndpointAnswerSchema>;

export const DeleteEndpointAnswerSchema = z.object({
  endpoint: z.string(),
  namespace: z.string(),
  deleted: z.array(z.object({ kind: z.string(), name: z.string() })),
});

export const EndpointLogsAnswerSchema = z.object({
  endpoint: z.string(),
  namespace: z.string(),
  pods: z.array(
    z.object({
      pod: z.string(),
      lines: z.array(z.string()),
      truncated: z.boolean().describe('More lines were there than tailLines or the byte cap let through.'),
      error: z.string().optional().describe('Why this pod could not be read (not started yet).'),
    }),
  ),
});
export type EndpointLogsAnswer = z.infer<typeof EndpointLogsAnswerSchema>;

export const AutoscalingPreviewSchema = z.object({
  scaledObject: z.record(z.string(), z.unknown()).describe('The KEDA ScaledObject (keda.sh/v1alpha1) it would apply.'),
});

export const ModelPoolListSchema = z.object({ pools: z.array(ModelPoolViewSchema) });
export type ModelPoolList = z.infer<typeof ModelPoolListSchema>;
