import { z } from 'zod';
import { idempotencyKey, keyedCall } from '../../api/accepted.js';
import { registerFollowSocket } from '../../api/log-follow-socket.js';
import { parseOrThrow } from '../../api/problem.js';
import { ClusterRefSchema, RegionSchema } from '../../domain/schemas/common.js';
import {
  AssignPoolWorkerRequestSchema,
  AutoscalingPreviewQuerySchema,
  AutoscalingPreviewSchema,
  CreateModelPoolRequestSchema,
  DeleteEndpointAnswerSchema,
  DeployContainerEndpointRequestSchema,
  DeployManagedEndpointRequestSchema,
  DeployRouterRequestSchema,
  EndpointDetailSchema,
  EndpointListSchema,
  EndpointLogsAnswerSchema,
  EndpointLogsFollowQuerySchema,
  EndpointLogsQuerySchema,
  EndpointRefSchema,
  EndpointViewSchema,
  InvokeEndpointAnswerSchema,
  InvokeEndpointRequestSchema,
  ModelPoolListSchema,
  ModelPoolViewSchema,
  ScaleEndpointRequestSchema,
  SetEndpointAutoscalingRequestSchema,
} from '../../domain/schemas/inference.js';
import { StorageNamespaceSchema } from '../../domain/schemas/storage.js';
import type { LogStreamMessage } from '../../domain/schemas/training.js';
import type { RouteContext } from '../capability.js';
import { INFERENCE_PATHS } from './paths.js';
import type { InferenceService } from './service.js';

const TAGS = ['inference'];
const ClusterParams = z.object({ name: ClusterRefSchema });
const RegionQuery = z.object({ region: RegionSchema.optional() }).strict();
const PoolNameSchema = z
  .string()
  .regex(/^[a-z]([-a-z0-9]*[a-z0-9])?$/, 'must be a pool name')
  .max(40);
const PoolParams = z.object({ name: ClusterRefSchema, namespace: StorageNamespaceSchema, pool: PoolNameSchema });
const ConfirmQuery = z
  .object({
    region: RegionSchema.optional(),
    confirm: z.literal('true', 'must be true: deleting removes the endpoint and every object it is made of'),
  })
  .strict();
const ListQuery = z.object({ region: RegionSchema.optional(), namespace: StorageNamespaceSchema.optional() }).strict();

/** Endpoints (both kinds), their scale, autoscaling, router, logs and invoke; model pools and their workers. */
export function registerInferenceRoutes(ctx: RouteContext<InferenceService>): void {
  const { app, routes, service, region } = ctx;

  routes.define(
    app,
    {
      method: 'GET',
      url: INFERENCE_PATHS.endpoints,
      operationId: 'listEndpoints',
      tags: TAGS,
      summary: "The cluster's inference endpoints, managed and container, read live: state, replicas, URLs",
      params: ClusterParams,
      query: ListQuery,
      responses: { 200: { description: 'The endpoints', schema: EndpointListSchema } },
    },
    async ({ params, query }) => service().list(region(query.region), params.name, query.namespace),
  );

  routes.define(
    app,
    {
      method: 'POST',
      url: INFERENCE_PATHS.managedEndpoints,
      operationId: 'deployManagedEndpoint',
      tags: TAGS,
      summary:
        'Deploy a model through the HyperPod inference operator: an InferenceEndpointConfig (or a JumpStartModel) applied at once',
      description:
        'Refused before anything is applied: the inference-operator feature off 422 naming it (turn it on with PATCH /api/v1/clusters/{name}/features); ' +
        'an instance type no group of the cluster has 422 naming instanceTypes; an unknown storage or token Secret 422 naming it; a re-deploy with another ' +
        'routing strategy 422 naming routing.strategy (immutable once set). A re-deploy of the same endpoint with other settings updates it.',
      params: ClusterParams,
      body: DeployManagedEndpointRequestSchema,
      responses: { 201: { description: 'The endpoint as applied', schema: EndpointViewSchema } },
    },
    async ({ params, body, request }) =>
      service().deployManaged(region(body.region), params.name, body, idempotencyKey(request)),
  );

  routes.define(
    app,
    {
      method: 'POST',
      url: INFERENCE_PATHS.containerEndpoints,
      operationId: 'deployContainerEndpoint',
      tags: TAGS,
      summary:
        'Deploy a serving container (vLLM, SGLang or custom) as a Deployment and Service (external, internal or a pool), with the SGLang router and KEDA scaling when asked',
      description:
        'Refused before anything is applied: an unknown group 422 naming instanceGroup; more GPUs than its instance type has 422 naming gpus; an unknown storage, ' +
        'token Secret or pool 422 naming it; a name taken by another endpoint or object 409 naming name.',
      params: ClusterParams,
      body: DeployContainerEndpointRequestSchema,
      responses: { 201: { description: 'The endpoint as applied', schema: EndpointViewSchema } },
    },
    async ({ params, body, request }) =>
      service().deployContainer(region(body.region), params.name, body, idempotencyKey(request)),
  );

  routes.define(
    app,
    {
      method: 'GET',
      url: INFERENCE_PATHS.endpoint,
      operationId: 'getEndpoint',
      tags: TAGS,
      summary: 'One endpoint with its pods and recent events (a managed one: with what the operator made)',
      params: EndpointRefSchema,
      query: RegionQuery,
      responses: { 200: { description: 'The endpoint', schema: EndpointDetailSchema } },
    },
    async ({ params, query }) => service().get(region(query.region), params.name, params.namespace, params.endpoint),
  );

  routes.define(
    app,
    {
      method: 'DELETE',
      url: INFERENCE_PATHS.endpoint,
      operationId: 'deleteEndpoint',
      tags: TAGS,
      summary:
        'Delete an endpoint: exactly the objects it is made of (confirm=true). A managed endpoint: its InferenceEndpointConfig or JumpStartModel; the operator removes what it made',
      params: EndpointRefSchema,
      query: ConfirmQuery,
      responses: { 200: { description: 'What was deleted', schema: DeleteEndpointAnswerSchema } },
    },
    async ({ params, query, request }) =>
      service().delete(region(query.region), params.name, params.namespace, params.endpoint, keyedCall(request)),
  );

  routes.define(
    app,
    {
      method: 'PUT',
      url: INFERENCE_PATHS.endpointScale,
      operationId: 'scaleEndpoint',
      tags: TAGS,
      summary:
        "Set an endpoint's replicas (a container endpoint's Deployment scale; a managed one's replicas). Refused while KEDA scales it",
      params: EndpointRefSchema,
      body: ScaleEndpointRequestSchema,
      responses: { 200: { description: 'The endpoint', schema: EndpointViewSchema } },
    },
    async ({ params, body }) =>
      service().scaling.scale(region(body.region), params.name, params.namespace, params.endpoint, body.replicas),
  );

  routes.define(
    app,
    {
      method: 'PUT',
      url: INFERENCE_PATHS.endpointAutoscaling,
      operationId: 'setEndpointAutoscaling',
      tags: TAGS,
      summary: "Set (or with null remove) a container endpoint's KEDA scaling: the ScaledObject named for it",
      params: EndpointRefSchema,
      body: SetEndpointAutoscalingRequestSchema,
      responses: { 200: { description: 'The endpoint', schema: EndpointViewSchema } },
    },
    async ({ params, body }) =>
      service().scaling.setAutoscaling(
        region(body.region),
        params.name,
        params.namespace,
        params.endpoint,
        body.autoscaling,
      ),
  );

  routes.define(
    app,
    {
      method: 'GET',
      url: INFERENCE_PATHS.endpointAutoscaling,
      operationId: 'previewEndpointAutoscaling',
      tags: TAGS,
      summary: 'The ScaledObject a PUT of these settings would apply (nothing is applied)',
      params: EndpointRefSchema,
      query: AutoscalingPreviewQuerySchema,
      responses: { 200: { description: 'The preview', schema: AutoscalingPreviewSchema } },
    },
    async ({ params, query: { region: r, ...autoscaling } }) =>
      service().scaling.previewAutoscaling(region(r), params.name, params.namespace, params.endpoint, autoscaling),
  );

  routes.define(
    app,
    {
      method: 'PUT',
      url: INFERENCE_PATHS.endpointRouter,
      operationId: 'deployRouter',
      tags: TAGS,
      summary:
        'Put the SGLang router (cache-aware by default) in front of an sglang container endpoint: its own Deployment, Service and service-discovery RBAC',
      params: EndpointRefSchema,
      body: DeployRouterRequestSchema,
      responses: { 200: { description: 'The endpoint', schema: EndpointViewSchema } },
    },
    async ({ params, body, request }) =>
      service().scaling.deployRouter(
        region(body.region),
        params.name,
        params.namespace,
        params.endpoint,
        body.policy,
        idempotencyKey(request),
      ),
  );

  routes.define(
    app,
    {
      method: 'GET',
      url: INFERENCE_PATHS.endpointLogs,
      operationId: 'getEndpointLogs',
      tags: TAGS,
      summary: "The capped tail of the endpoint's pods' logs (up to 10 pods, tailLines each, 256 KiB per pod)",
      description: `Follow live over the WebSocket at ${INFERENCE_PATHS.endpointLogsFollow} (docs/API.md: its messages).`,
      params: EndpointRefSchema,
      query: EndpointLogsQuerySchema,
      responses: { 200: { description: 'The lines per pod', schema: EndpointLogsAnswerSchema } },
    },
    async ({ params, query }) =>
      service().logs(region(query.region), params.name, params.namespace, params.endpoint, query),
  );

  registerFollowSocket(app, {
    url: INFERENCE_PATHS.endpointLogsFollow,
    async resolve(request) {
      const params = parseOrThrow(EndpointRefSchema, request.params, 'path');
      const query = parseOrThrow(EndpointLogsFollowQuerySchema, request.query, 'query');
      const target = await service().logTarget(
        region(query.region),
        params.name,
        params.namespace,
        params.endpoint,
        query.pod,
      );
      return { target, query };
    },
    follow: ({ target, query }, sink) => service().followLogs(target, query, sink),
    dropped: (reason): LogStreamMessage => ({ type: 'dropped', reason }),
    docs: 'endpoint logs',
  });

  routes.define(
    app,
    {
      method: 'POST',
      url: INFERENCE_PATHS.endpointInvoke,
      operationId: 'invokeEndpoint',
      tags: TAGS,
      summary:
        "Send an OpenAI-style chat completion to the endpoint through the Kubernetes API server's service proxy; stream=true answers server-sent events",
      description:
        "A plain answer carries the generated text (capped; truncated says so). With stream=true the model server's events " +
        '(data: {chat.completion.chunk} … data: [DONE]) are passed through as they come, as text/event-stream, with the header ' +
        'x-served-by naming the pod that answers when its server says so (servedBy in a plain answer). 422 when no replica is ready.',
      params: EndpointRefSchema,
      body: InvokeEndpointRequestSchema,
      responses: { 200: { description: 'The completion (or the event stream)', schema: InvokeEndpointAnswerSchema } },
      readOnly: true,
    },
    async ({ params, body, reply }) => {
      const r = region(body.region);
      if (!body.stream) return service().invoke(r, params.name, params.namespace, params.endpoint, body);
      const abort = new AbortController();
      // The client went away before the answer ended: stop asking the model server (a request's own 'close' fires
      // once its body is read, so the reply's is the one that tells).
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) abort.abort();
      });
      const { events, servedBy } = await service().invokeStream(
        r,
        params.name,
        params.namespace,
        params.endpoint,
        body,
        abort.signal,
      );
      reply.type('text/event-stream').header('cache-control', 'no-cache').header('x-accel-buffering', 'no');
      // Which pod answers (the UI shows it): known from the model server's headers, before its first event.
      if (servedBy) reply.header('x-served-by', servedBy);
      return events;
    },
  );

  registerPoolRoutes(ctx);
}

/** Model pools: warm workers, the endpoints that select them, and reassigning one worker. */
function registerPoolRoutes({ app, routes, service, region }: RouteContext<InferenceService>): void {
  routes.define(
    app,
    {
      method: 'GET',
      url: INFERENCE_PATHS.pools,
      operationId: 'listModelPools',
      tags: TAGS,
      summary: "The cluster's model pools with each worker's assignment",
      params: ClusterParams,
      query: ListQuery,
      responses: { 200: { description: 'The pools', schema: ModelPoolListSchema } },
    },
    async ({ params, query }) => service().pools.list(region(query.region), params.name, query.namespace),
  );

  routes.define(
    app,
    {
      method: 'POST',
      url: INFERENCE_PATHS.pools,
      operationId: 'createModelPool',
      tags: TAGS,
      summary:
        'Create a model pool: a Deployment of warm workers (pool-<name>), each labelled with the endpoint it serves',
      params: ClusterParams,
      body: CreateModelPoolRequestSchema,
      responses: { 201: { description: 'The pool', schema: ModelPoolViewSchema } },
    },
    async ({ params, body, request }) =>
      service().pools.create(region(body.region), params.name, body, idempotencyKey(request)),
  );

  routes.define(
    app,
    {
      method: 'GET',
      url: INFERENCE_PATHS.pool,
      operationId: 'getModelPool',
      tags: TAGS,
      summary: 'One model pool with its workers and their endpoints',
      params: PoolParams,
      query: RegionQuery,
      responses: { 200: { description: 'The pool', schema: ModelPoolViewSchema } },
    },
    async ({ params, query }) => service().pools.get(region(query.region), params.name, params.namespace, params.pool),
  );

  routes.define(
    app,
    {
      method: 'DELETE',
      url: INFERENCE_PATHS.pool,
      operationId: 'deleteModelPool',
      tags: TAGS,
      summary: "Delete a model pool's workers (confirm=true); refused while an endpoint still selects them",
      params: PoolParams,
      query: ConfirmQuery,
      responses: {
        200: {
          description: 'What was deleted',
          schema: z.object({ pool: z.string(), namespace: z.string(), deleted: z.boolean() }),
        },
      },
    },
    async ({ params, query }) =>
      service().pools.delete(region(query.region), params.name, params.namespace, params.pool),
  );

  routes.define(
    app,
    {
      method: 'PUT',
      url: INFERENCE_PATHS.poolWorker,
      operationId: 'assignPoolWorker',
      tags: TAGS,
      summary:
        "Reassign one warm worker to another endpoint of its pool: one change of the pod's model label (traffic moves with it)",
      params: PoolParams.extend({ pod: z.string().min(1).max(253) }),
      body: AssignPoolWorkerRequestSchema,
      responses: { 200: { description: 'The pool', schema: ModelPoolViewSchema } },
    },
    async ({ params, body }) =>
      service().pools.assign(
        region(body.region),
        params.name,
        params.namespace,
        params.pool,
        params.pod,
        body.endpoint,
      ),
  );
}
