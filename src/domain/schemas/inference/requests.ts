import { z } from 'zod';
import { ClusterRefSchema, InstanceTypeSchema, RegionSchema } from '../common.js';
import { InstanceGroupNameSchema } from '../instance-groups.js';
import { StorageNameSchema, StorageNamespaceSchema } from '../storage.js';
import { EnvListSchema, ImageSchema } from '../training/fields.js';
import {
  ArgListSchema,
  EndpointNameSchema,
  HuggingFaceModelIdSchema,
  PortSchema,
  RouterPolicySchema,
  RoutingStrategySchema,
  SecretKeyRefSchema,
  ServiceVariantSchema,
  ServingEngineSchema,
} from './fields.js';

/**
 * What a caller sends to deploy, scale, delete and try an endpoint (docs/INFERENCE.md). Two ways to serve:
 * - **managed**: an InferenceEndpointConfig (or a JumpStartModel) the HyperPod inference operator deploys, with its
 *   KV cache, intelligent routing, autoscaling and load balancer declared on the object;
 * - **container**: a serving container of the user's choice (vLLM, SGLang, custom) as a standard Deployment and
 *   Service (external, internal or a model pool), with the SGLang router and KEDA scaling for multi-replica SGLang.
 * Rules across fields are here once (superRefine), so REST, MCP and the UI refuse the same things.
 */

const RegionField = RegionSchema.optional().describe("AWS Region of the cluster; defaults to the server's region.");
const NamespaceField = StorageNamespaceSchema.default('default').describe(
  'Its namespace, where its storage claim and token Secret are.',
);

// ── managed (the HyperPod inference operator) ─────────────────────────────────────────────────────────────────────

export const ManagedModelSchema = z
  .discriminatedUnion('source', [
    z
      .object({
        source: z.literal('storage'),
        storage: StorageNameSchema.describe(
          'An S3 or FSx storage of the cluster (the storage page / list_storage), in the endpoint namespace.',
        ),
        path: z
          .string()
          .max(1024)
          .regex(/^[^\s]*$/, 'must be a path without spaces')
          .optional()
          .describe('Where the model is inside the storage (a prefix or folder), e.g. models/Qwen3-0.6B.'),
      })
      .strict(),
    z
      .object({
        source: z.literal('huggingface'),
        modelId: HuggingFaceModelIdSchema,
        revision: z
          .string()
          .regex(/^[0-9a-f]{40}$/, 'must be a 40-character commit SHA')
          .optional()
          .describe('The commit SHA to serve; default the main branch.'),
        tokenSecret: SecretKeyRefSchema.optional(),
      })
      .strict(),
    z
      .object({
        source: z.literal('jumpstart'),
        modelId: z
          .string()
          .min(1)
          .max(63)
          .regex(/^[a-z0-9][a-z0-9-]*$/i, 'must be a JumpStart model id such as deepseek-llm-r1-distill-qwen-1-5b')
          .describe('SageMaker JumpStart model id, e.g. deepseek-llm-r1-distill-qwen-1-5b.'),
        modelVersion: z
          .string()
          .regex(/^\d{1,4}\.\d{1,4}\.\d{1,4}$/, 'must be a version such as 1.0.0')
          .optional()
          .describe('JumpStart model version (x.y.z); default the newest.'),
        acceptEula: z
          .boolean()
          .describe(
            "Whether you accept the model's end-user licence agreement. Models that have one deploy only when this is true.",
          ),
      })
      .strict(),
  ])
  .describe('Where the model comes from: a storage, Hugging Face or JumpStart.');

export const ManagedWorkerSchema = z
  .object({
    image: ImageSchema.describe('The serving container image, e.g. a vLLM or SGLang image your account can pull.'),
    args: ArgListSchema.default([]),
    port: PortSchema.default(8080).describe('The port the model server listens on. Default: 8080.'),
    gpus: z.number().int().min(0).max(64).describe("GPUs per replica (nvidia.com/gpu), within the instance type's."),
    cpu: z
      .string()
      .regex(/^\d+(\.\d+)?m?$/, 'must be a CPU quantity such as 4 or 500m')
      .optional()
      .describe('CPU request per replica, e.g. 8.'),
    memory: z
      .string()
      .regex(/^\d+(\.\d+)?(Ki|Mi|Gi|Ti|k|M|G|T)?$/, 'must be a memory quantity such as 32Gi')
      .optional()
      .describe('Memory request per replica, e.g. 32Gi.'),
    env: EnvListSchema.optional(),
  })
  .strict()
  .describe('The model server container the operator runs. Not for JumpStart models, which bring their own.');

export const KvCacheSchema = z
  .object({
    l1: z.boolean().default(true).describe('L1: CPU memory offload on each worker. Default: on.'),
    l2: z
      .object({
        backend: z
          .enum(['redis', 'tieredstorage'])
          .describe('redis (your Redis) or tieredstorage (HyperPod managed tiered storage).'),
        url: z
          .string()
          .regex(/^redis:\/\/[^\s]+$/, 'must be a redis:// URL')
          .optional()
          .describe('redis only: the Redis URL, e.g. redis://redis.cache.svc.cluster.local:6379.'),
      })
      .strict()
      .optional()
      .describe('L2: a cache shared across workers.'),
  })
  .strict()
  .describe('Managed tiered KV cache.');

export const AMP_SERVER = /^https:\/\/aps-workspaces\.[a-z0-9-]+\.amazonaws\.com\/workspaces\/ws-[A-Za-z0-9-]+\/?$/;

export const ManagedAutoscalingSchema = z
  .object({
    min: z.number().int().min(0).max(100).default(1).describe('Fewest replicas. Default 1.'),
    max: z.number().int().min(1).max(100).default(5).describe('Most replicas. Default 5.'),
    trigger: z.discriminatedUnion('type', [
      z
        .object({
          type: z.literal('cloudwatch'),
          metricName: z.string().min(1).max(255).describe('CloudWatch metric, e.g. Invocations.'),
          namespace: z.string().min(1).max(255).describe('CloudWatch namespace, e.g. AWS/SageMaker.'),
          dimensions: z
            .array(z.object({ name: z.string().min(1).max(255), value: z.string().min(1).max(1024) }).strict())
            .max(30)
            .default([]),
          statistic: z.enum(['Average', 'Sum', 'Maximum', 'Minimum', 'SampleCount']).default('Average'),
          targetValue: z.number().positive().describe('Scale so each replica sees about this value.'),
        })
        .strict(),
      z
        .object({
          type: z.literal('prometheus'),
          serverAddress: z
            .string()
            .regex(
              AMP_SERVER,
              'must be an Amazon Managed Prometheus workspace URL: https://aps-workspaces.<region>.amazonaws.com/workspaces/ws-…',
            )
            .describe('Amazon Managed Prometheus workspace URL (what the operator accepts).'),
          query: z.string().min(1).max(4096).describe('PromQL returning one value.'),
          targetValue: z.number().positive(),
        })
        .strict(),
    ]),
  })
  .strict()
  .refine((a) => a.min <= a.max, { message: 'must not be more than max', path: ['min'] })
  .describe("Autoscaling by KEDA. The operator makes a ScaledObject on the endpoint's Deployment.");

export const DeployManagedEndpointRequestSchema = z
  .object({
    region: RegionField,
    name: EndpointNameSchema,
    namespace: NamespaceField,
    model: ManagedModelSchema,
    instanceTypes: z
      .array(InstanceTypeSchema)
      .min(1)
      .max(10)
      .describe("Instance types in order of preference. Each must be an instance group's type in the cluster."),
    replicas: z.number().int().min(1).max(100).default(1).describe('Replicas wanted. Default 1.'),
    worker: ManagedWorkerSchema.optional(),
    invocationPath: z
      .string()
      .max(256)
      .regex(/^[A-Za-z0-9._~\-/]*$/, 'must be a URL path such as v1/chat/completions')
      .default('v1/chat/completions')
      .describe('The path after http://host:port/ that invocations go to. Default v1/chat/completions.'),
    kvCache: KvCacheSchema.optional(),
    routing: z
      .object({ strategy: RoutingStrategySchema.default('prefixaware') })
      .strict()
      .optional()
      .describe('Intelligent routing. Set once at deploy: it cannot be added, removed or changed later.'),
    autoscaling: ManagedAutoscalingSchema.optional(),
    loadBalancer: z
      .object({
        healthCheckPath: z.string().max(256).default('/ping'),
        algorithm: z.enum(['least_outstanding_requests', 'round_robin']).default('least_outstanding_requests'),
      })
      .strict()
      .optional()
      .describe('The Application Load Balancer the operator puts in front.'),
    metrics: z.boolean().default(true).describe('Whether the operator scrapes model metrics. Default on.'),
  })
  .strict()
  .superRefine((r, ctx) => {
    const jumpstart = r.model.source === 'jumpstart';
    if (!jumpstart && !r.worker)
      ctx.addIssue({ code: 'custom', path: ['worker'], message: 'is required unless the model comes from JumpStart' });
    if (jumpstart && r.worker)
      ctx.addIssue({
        code: 'custom',
        path: ['worker'],
        message: 'must be left out: a JumpStart model brings its server',
      });
    if (jumpstart && r.instanceTypes.length > 1)
      ctx.addIssue({
        code: 'custom',
        path: ['instanceTypes'],
        message: 'must name one instance type for a JumpStart model',
      });
    if (r.kvCache?.l2?.backend === 'redis' && !r.kvCache.l2.url)
      ctx.addIssue({ code: 'custom', path: ['kvCache', 'l2', 'url'], message: 'is required for the redis backend' });
    if (r.autoscaling && (r.replicas < r.autoscaling.min || r.replicas > r.autoscaling.max))
      ctx.addIssue({ code: 'custom', path: ['replicas'], message: 'must be within autoscaling min..max' });
  })
  .describe('Deploy a model through the HyperPod inference operator (the inference-operator feature must be on).');
export type DeployManagedEndpointRequest = z.infer<typeof DeployManagedEndpointRequestSchema>;

// ── container (self-managed Deployment + Service) ─────────────────────────────────────────────────────────────────

export const ContainerAutoscalingSchema = z
  .object({
    min: z.number().int().min(1).max(64).default(1),
    max: z.number().int().min(1).max(64).describe('Most replicas.'),
    cooldownSeconds: z.number().int().min(0).max(3600).default(300).describe('Wait before scaling down. Default 300.'),
    metric: z
      .enum(['queue_depth', 'running_requests'])
      .default('queue_depth')
      .describe(
        "What drives it: the servers' waiting requests (queue_depth: vllm:num_requests_waiting, sglang:num_queue_reqs) or their running requests (running_requests).",
      ),
    threshold: z.number().positive().describe('Target value per replica: replicas = ceil(metric / threshold).'),
    prometheusUrl: z
      .string()
      .url()
      .describe(
        'The Prometheus KEDA queries (in-cluster or Amazon Managed Prometheus), e.g. http://prometheus-server.monitoring.svc.cluster.local.',
      ),
  })
  .strict()
  .refine((a) => a.min <= a.max, { message: 'must not be more than max', path: ['min'] })
  .describe(
    'KEDA scaling from a Prometheus metric. A ScaledObject named for the endpoint scales the serving Deployment.',
  );

export const DeployContainerEndpointRequestSchema = z
  .object({
    region: RegionField,
    name: EndpointNameSchema,
    namespace: NamespaceField,
    engine: ServingEngineSchema,
    image: ImageSchema.optional().describe(
      'The serving image. Default for vllm and sglang: the pinned image docs/INFERENCE.md names; required for custom.',
    ),
    model: z
      .string()
      .min(1)
      .max(1024)
      .regex(/^[^\s]+$/, 'must be a model id or path without spaces')
      .describe('A Hugging Face model id (Qwen/Qwen3-0.6B) or a path under /data (/data/models/Qwen3-0.6B).'),
    storage: StorageNameSchema.optional().describe(
      'A storage of the cluster mounted at /data (models you downloaded).',
    ),
    hfTokenSecret: SecretKeyRefSchema.optional(),
    command: z
      .array(z.string().min(1).max(1024))
      .min(1)
      .max(16)
      .optional()
      .describe('custom only: the entrypoint, one element each. E.g. ["python3", "-m", "my_server"].'),
    args: ArgListSchema.default([]).describe(
      'Extra engine arguments, one element each. E.g. ["--max-model-len", "8192"]; never a shell string.',
    ),
    instanceGroup: InstanceGroupNameSchema.describe('The instance group the replicas run on.'),
    gpus: z
      .number()
      .int()
      .min(0)
      .max(64)
      .describe("GPUs per replica (tensor parallel size). At most the group's instance type has."),
    replicas: z.number().int().min(1).max(64).default(1).describe('Replicas wanted. Default 1.'),
    port: PortSchema.default(8000).describe('The port the server listens on. Default 8000.'),
    env: EnvListSchema.optional(),
    service: z
      .object({
        variant: ServiceVariantSchema.default('internal'),
        pool: z
          .string()
          .regex(/^[a-z]([-a-z0-9]*[a-z0-9])?$/, 'must be a pool name: lower-case letters, digits and hyphens')
          .max(40)
          .optional()
          .describe('pool only: the model pool whose warm workers serve this endpoint.'),
      })
      .strict()
      .default({ variant: 'internal' })
      .describe('How the endpoint is reached (variant) and, for pool, which pool. Default internal.'),
    router: z
      .object({ policy: RouterPolicySchema.default('cache_aware') })
      .strict()
      .optional()
      .describe('The SGLang router in front of a multi-replica sglang endpoint. It has its own Service.'),
    autoscaling: ContainerAutoscalingSchema.optional(),
  })
  .strict()
  .superRefine((r, ctx) => {
    if (r.engine === 'custom' && !r.image)
      ctx.addIssue({ code: 'custom', path: ['image'], message: 'is required for a custom engine' });
    if (r.engine === 'custom' && !r.command)
      ctx.addIssue({ code: 'custom', path: ['command'], message: 'is required for a custom engine' });
    if (r.engine !== 'custom' && r.command)
      ctx.addIssue({ code: 'custom', path: ['command'], message: `must be left out: ${r.engine} has its own` });
    if (r.router && r.engine !== 'sglang')
      ctx.addIssue({ code: 'custom', path: ['router'], message: 'is for sglang endpoints only' });
    if (r.service.variant === 'pool' && !r.service.pool)
      ctx.addIssue({ code: 'custom', path: ['service', 'pool'], message: 'is required for the pool variant' });
    if (r.service.variant !== 'pool' && r.service.pool)
      ctx.addIssue({ code: 'custom', path: ['service', 'pool'], message: 'is only for the pool variant' });
    if (r.model.startsWith('/') && !r.storage)
      ctx.addIssue({ code: 'custom', path: ['storage'], message: 'is required to serve a path under /data' });
    if (r.autoscaling && (r.replicas < r.autoscaling.min || r.replicas > r.autoscaling.max))
      ctx.addIssue({ code: 'custom', path: ['replicas'], message: 'must be within autoscaling min..max' });
  })
  .describe('Deploy a serving container (vLLM, SGLang or custom) as a Deployment and Service.');
export type DeployContainerEndpointRequest = z.infer<typeof DeployContainerEndpointRequestSchema>;

// ── pools ─────────────────────────────────────────────────────────────────────────────────────────────────────────

export const CreateModelPoolRequestSchema = z
  .object({
    region: RegionField,
    name: z
      .string()
      .regex(/^[a-z]([-a-z0-9]*[a-z0-9])?$/, 'must be a pool name: lower-case letters, digits and hyphens')
      .max(40)
      .describe('Pool name.'),
    namespace: NamespaceField,
    engine: ServingEngineSchema,
    image: ImageSchema.optional(),
    model: z.string().min(1).max(1024).describe('The model every warm worker loads at start.'),
    storage: StorageNameSchema.optional(),
    instanceGroup: InstanceGroupNameSchema,
    gpus: z.number().int().min(0).max(64),
    workers: z.number().int().min(1).max(64).describe('Warm workers in the pool.'),
    port: PortSchema.default(8000),
  })
  .strict()
  .describe('A pool of warm GPU workers; endpoints of variant pool select workers by their model label.');

export const AssignPoolWorkerRequestSchema = z
  .object({
    region: RegionField,
    namespace: NamespaceField,
    endpoint: EndpointNameSchema.describe('The pool endpoint the worker serves from now on.'),
  })
  .strict()
  .describe("Reassign one warm worker to another endpoint of its pool: one change of the worker's model label.");

// ── scale, autoscaling, delete, invoke ────────────────────────────────────────────────────────────────────────────

export const ScaleEndpointRequestSchema = z
  .object({
    region: RegionField,
    replicas: z.number().int().min(0).max(100).describe('Replicas wanted.'),
  })
  .strict();

export const SetEndpointAutoscalingRequestSchema = z
  .object({
    region: RegionField,
    autoscaling: ContainerAutoscalingSchema.nullable().describe('The scaling to keep; null removes it.'),
  })
  .strict();

export const ChatMessageSchema = z
  .object({
    role: z.enum(['system', 'user', 'assistant']),
    content: z.string().max(32_768),
  })
  .strict();

export const InvokeEndpointRequestSchema = z
  .object({
    region: RegionField,
    messages: z.array(ChatMessageSchema).min(1).max(64).describe('OpenAI-style chat messages.'),
    maxTokens: z.number().int().min(1).max(4096).default(256).describe('Most tokens to generate. Default 256.'),
    temperature: z.number().min(0).max(2).optional(),
    stream: z.boolean().default(false).describe('Stream tokens as server-sent events (REST only).'),
  })
  .strict()
  .describe("An OpenAI-style chat completion sent through the Kubernetes API server's service proxy.");

export const EndpointRefSchema = z.object({
  name: ClusterRefSchema,
  namespace: StorageNamespaceSchema,
  endpoint: EndpointNameSchema,
});

/** Adds (or re-applies) the SGLang router in front of an sglang container endpoint. */
export const DeployRouterRequestSchema = z
  .object({
    region: RegionField,
    policy: RouterPolicySchema.default('cache_aware'),
  })
  .strict()
  .describe('The SGLang router in front of an sglang endpoint: its own Deployment and Service (<endpoint>-router).');

/** GET …/logs: the capped tail of every pod of the endpoint. */
export const EndpointLogsQuerySchema = z
  .object({
    region: RegionField,
    tailLines: z.coerce.number().int().min(1).max(5000).default(200).describe('Last lines per pod. Default 200.'),
    pod: z.string().max(253).optional().describe('Only this pod; default every pod of the endpoint (up to 10).'),
  })
  .strict();

/**
 * The endpoint logs' follow WebSocket: the tail of each pod first (as the REST tail), then new lines as they come.
 * Its messages are the training follow's (LogStreamMessage), `rank` numbering the endpoint's pods as first seen.
 */
export const EndpointLogsFollowQuerySchema = z
  .object({
    region: RegionField,
    tailLines: z.coerce.number().int().min(1).max(5000).default(200).describe('Last lines per pod first. Default 200.'),
    sinceSeconds: z.coerce
      .number()
      .int()
      .min(1)
      .max(30 * 86400)
      .optional()
      .describe('Only lines of the last N seconds (a reconnect resumes with it).'),
    pod: z.string().max(253).optional().describe('Only this pod; default every pod of the endpoint (up to 10).'),
  })
  .strict();
export type EndpointLogsFollowQuery = z.infer<typeof EndpointLogsFollowQuerySchema>;

/** GET …/autoscaling: the ScaledObject a PUT would apply for these settings (nothing applied). */
export const AutoscalingPreviewQuerySchema = z
  .object({
    region: RegionField,
    min: z.coerce.number().int().min(1).max(64).default(1),
    max: z.coerce.number().int().min(1).max(64),
    cooldownSeconds: z.coerce.number().int().min(0).max(3600).default(300),
    metric: z.enum(['queue_depth', 'running_requests']).default('queue_depth'),
    threshold: z.coerce.number().positive(),
    prometheusUrl: z.string().url(),
  })
  .strict();
export type InvokeEndpointRequest = z.infer<typeof InvokeEndpointRequestSchema>;
export type CreateModelPoolRequest = z.infer<typeof CreateModelPoolRequestSchema>;
export type ContainerAutoscaling = z.infer<typeof ContainerAutoscalingSchema>;
