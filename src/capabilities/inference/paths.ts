/**
 * The REST paths of the inference capability, written once (routes, MCP tools and the UI use these).
 * An endpoint is named by cluster, namespace and name.
 */
export const INFERENCE_PATHS = {
  /** GET: the cluster's endpoints, both kinds (?namespace=). */
  endpoints: '/api/v1/clusters/{name}/endpoints',
  /** POST: deploy a managed endpoint (InferenceEndpointConfig or JumpStartModel). */
  managedEndpoints: '/api/v1/clusters/{name}/endpoints/managed',
  /** POST: deploy a container endpoint (Deployment + Service, router, ScaledObject). */
  containerEndpoints: '/api/v1/clusters/{name}/endpoints/container',
  /** GET: one endpoint with its pods and events; DELETE: remove exactly the objects it is made of (?confirm=true). */
  endpoint: '/api/v1/clusters/{name}/endpoints/{namespace}/{endpoint}',
  /** PUT: the replicas wanted. */
  endpointScale: '/api/v1/clusters/{name}/endpoints/{namespace}/{endpoint}/scale',
  /** PUT: add (or re-apply) the SGLang router in front of an sglang endpoint (`<endpoint>-router`). */
  endpointRouter: '/api/v1/clusters/{name}/endpoints/{namespace}/{endpoint}/router',
  /** PUT: the KEDA scaling (null removes it); GET ?preview: the ScaledObject it would apply. */
  endpointAutoscaling: '/api/v1/clusters/{name}/endpoints/{namespace}/{endpoint}/autoscaling',
  /** POST: a chat completion through the service proxy (stream=true answers server-sent events). */
  endpointInvoke: '/api/v1/clusters/{name}/endpoints/{namespace}/{endpoint}/invoke',
  /** GET: the capped tail of the endpoint's pods' logs. */
  endpointLogs: '/api/v1/clusters/{name}/endpoints/{namespace}/{endpoint}/logs',
  /** GET (WebSocket): the pods' logs followed live — the tail, then new lines, new pods as they start. */
  endpointLogsFollow: '/api/v1/clusters/{name}/endpoints/{namespace}/{endpoint}/logs/follow',
  /** GET: the model pools of the cluster; POST: create one. */
  pools: '/api/v1/clusters/{name}/model-pools',
  /** GET: one pool with its workers' assignment; DELETE: remove it. */
  pool: '/api/v1/clusters/{name}/model-pools/{namespace}/{pool}',
  /** PUT: assign one worker to an endpoint of its pool. */
  poolWorker: '/api/v1/clusters/{name}/model-pools/{namespace}/{pool}/workers/{pod}',
} as const;
