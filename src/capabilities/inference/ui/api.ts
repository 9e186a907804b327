import type {
  AssignPoolWorkerRequestSchema,
  ContainerAutoscalingSchema,
  DeleteEndpointAnswerSchema,
  DeployContainerEndpointRequestSchema,
  DeployManagedEndpointRequestSchema,
  EndpointDetail,
  EndpointList,
  EndpointView,
  ModelPoolView,
} from '@domain/schemas/inference.js';
import { rest } from '@kit/api/rest.js';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { INFERENCE_PATHS } from '../paths.js';

/** The inference REST calls the UI makes and their queries (paths from the capability's paths.ts). */

export type DeployManagedInput = z.input<typeof DeployManagedEndpointRequestSchema>;
export type DeployContainerInput = z.input<typeof DeployContainerEndpointRequestSchema>;
export type ContainerAutoscalingInput = z.input<typeof ContainerAutoscalingSchema>;
export type AssignWorkerInput = z.input<typeof AssignPoolWorkerRequestSchema>;
export type DeleteEndpointAnswer = z.infer<typeof DeleteEndpointAnswerSchema>;

export interface EndpointRef {
  namespace: string;
  endpoint: string;
}

// Endpoints are under 'inference', not 'clusters': Kubernetes moves them without our operations; they follow their poll.
export const inferenceKeys = {
  endpoints: (cluster: string, region: string) => ['inference', 'endpoints', cluster, region] as const,
  endpoint: (cluster: string, region: string, ref: EndpointRef) =>
    ['inference', 'endpoints', cluster, region, ref.namespace, ref.endpoint] as const,
  pools: (cluster: string, region: string) => ['inference', 'pools', cluster, region] as const,
};

/** An endpoint's path parameters: its cluster, namespace and name. */
const endpointParams = (cluster: string, ref: EndpointRef) => ({
  name: cluster,
  namespace: ref.namespace,
  endpoint: ref.endpoint,
});

export const listEndpoints = (cluster: string, region: string) =>
  rest(INFERENCE_PATHS.endpoints, { name: cluster }).get<EndpointList>({ region });
export const getEndpoint = (cluster: string, region: string, ref: EndpointRef) =>
  rest(INFERENCE_PATHS.endpoint, endpointParams(cluster, ref)).get<EndpointDetail>({ region });
export const deployManaged = (cluster: string, region: string, body: DeployManagedInput, idempotencyKey: string) =>
  rest(INFERENCE_PATHS.managedEndpoints, { name: cluster }).post<unknown>({
    body: { ...body, region },
    idempotencyKey,
  });
export const deployContainer = (cluster: string, region: string, body: DeployContainerInput, idempotencyKey: string) =>
  rest(INFERENCE_PATHS.containerEndpoints, { name: cluster }).post<unknown>({
    body: { ...body, region },
    idempotencyKey,
  });
export const scaleEndpoint = (cluster: string, region: string, ref: EndpointRef, replicas: number) =>
  rest(INFERENCE_PATHS.endpointScale, endpointParams(cluster, ref)).put<unknown>({ body: { region, replicas } });
export const setAutoscaling = (
  cluster: string,
  region: string,
  ref: EndpointRef,
  autoscaling: ContainerAutoscalingInput | null,
) =>
  rest(INFERENCE_PATHS.endpointAutoscaling, endpointParams(cluster, ref)).put<unknown>({
    body: { region, autoscaling },
  });
/** The ScaledObject a PUT of these settings would apply (nothing is applied): the settings go as the query. */
export const previewAutoscaling = (
  cluster: string,
  region: string,
  ref: EndpointRef,
  autoscaling: ContainerAutoscalingInput,
) =>
  rest(INFERENCE_PATHS.endpointAutoscaling, endpointParams(cluster, ref)).get<{
    scaledObject: Record<string, unknown>;
  }>({
    region,
    ...autoscaling,
  });
/** Puts the SGLang router in front of an sglang endpoint (its own Deployment and Service, `<endpoint>-router`). */
export const deployRouter = (cluster: string, region: string, ref: EndpointRef, policy: string) =>
  rest(INFERENCE_PATHS.endpointRouter, endpointParams(cluster, ref)).put<EndpointView>({ body: { region, policy } });
export const deleteEndpoint = (cluster: string, region: string, ref: EndpointRef) =>
  rest(INFERENCE_PATHS.endpoint, endpointParams(cluster, ref)).delete<DeleteEndpointAnswer>({
    query: { region, confirm: 'true' },
  });
/** Lines asked for of each pod before following. */
export const LOG_TAIL_LINES = 200;
/** The endpoint logs' follow WebSocket path (its query too; the kit's log stream adds the token). */
export const endpointLogsFollowPath = (cluster: string, region: string, ref: EndpointRef) =>
  rest(INFERENCE_PATHS.endpointLogsFollow, endpointParams(cluster, ref)).url({
    region,
    tailLines: String(LOG_TAIL_LINES),
  });
export const listPools = (cluster: string, region: string) =>
  rest(INFERENCE_PATHS.pools, { name: cluster })
    .get<{ pools: ModelPoolView[] }>({ region })
    .then((a) => a.pools ?? []);
export const assignPoolWorker = (
  cluster: string,
  region: string,
  pool: { namespace: string; name: string },
  pod: string,
  endpoint: string,
) =>
  rest(INFERENCE_PATHS.poolWorker, { name: cluster, namespace: pool.namespace, pool: pool.name, pod }).put<unknown>({
    body: { region, namespace: pool.namespace, endpoint } satisfies AssignWorkerInput,
  });

/** States an endpoint leaves on its own: while one is in them the table and detail refresh every 3 s. */
const SETTLED = new Set(['Ready', 'Failed']);
const moving = (endpoints: readonly EndpointView[]) => endpoints.some((e) => !SETTLED.has(e.state));

/** The cluster's endpoints: polled (Kubernetes moves them, not our operations), faster while one changes. */
export function useEndpoints(cluster: string, region: string) {
  return useQuery({
    queryKey: inferenceKeys.endpoints(cluster, region),
    queryFn: () => listEndpoints(cluster, region),
    refetchInterval: (q) => (q.state.data && moving(q.state.data.endpoints) ? 3000 : 15_000),
  });
}

export function useEndpoint(cluster: string, region: string, ref: EndpointRef) {
  return useQuery({
    queryKey: inferenceKeys.endpoint(cluster, region, ref),
    queryFn: () => getEndpoint(cluster, region, ref),
    refetchInterval: (q) => (q.state.data && SETTLED.has(q.state.data.state) ? 10_000 : 3000),
    retry: (count, error) => count < 2 && !(error instanceof Error && 'status' in error && error.status === 404),
  });
}

/** The pools and their workers' assignment: a reassignment moves a label, so they are read again every 10 s. */
export function usePools(cluster: string, region: string) {
  return useQuery({
    queryKey: inferenceKeys.pools(cluster, region),
    queryFn: () => listPools(cluster, region),
    refetchInterval: 10_000,
  });
}

/** A mutation that changes the cluster's endpoints: the list, the endpoint and the pools are read again after it. */
function useInferenceMutation<Args, A>(cluster: string, region: string, fn: (args: Args) => Promise<A>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: inferenceKeys.endpoints(cluster, region) });
      void qc.invalidateQueries({ queryKey: inferenceKeys.pools(cluster, region) });
    },
  });
}

export const useDeployManaged = (cluster: string, region: string, idempotencyKey: string) =>
  useInferenceMutation(cluster, region, (body: DeployManagedInput) =>
    deployManaged(cluster, region, body, idempotencyKey),
  );
export const useDeployContainer = (cluster: string, region: string, idempotencyKey: string) =>
  useInferenceMutation(cluster, region, (body: DeployContainerInput) =>
    deployContainer(cluster, region, body, idempotencyKey),
  );
export const useScaleEndpoint = (cluster: string, region: string, ref: EndpointRef) =>
  useInferenceMutation(cluster, region, (replicas: number) => scaleEndpoint(cluster, region, ref, replicas));
export const useSetAutoscaling = (cluster: string, region: string, ref: EndpointRef) =>
  useInferenceMutation(cluster, region, (a: ContainerAutoscalingInput | null) =>
    setAutoscaling(cluster, region, ref, a),
  );
export const useDeployRouter = (cluster: string, region: string, ref: EndpointRef) =>
  useInferenceMutation(cluster, region, (policy: string) => deployRouter(cluster, region, ref, policy));
export const useDeleteEndpoint = (cluster: string, region: string, ref: EndpointRef) =>
  useInferenceMutation(cluster, region, () => deleteEndpoint(cluster, region, ref));
export const useAssignPoolWorker = (cluster: string, region: string) =>
  useInferenceMutation(
    cluster,
    region,
    (a: { pool: { namespace: string; name: string }; pod: string; endpoint: string }) =>
      assignPoolWorker(cluster, region, a.pool, a.pod, a.endpoint),
  );
