import { api, qs } from './client.js';
import type {
  Accepted,
  ActiveCluster,
  AddInstanceGroupInput,
  InstanceGroupView,
  AutoscalingView,
  AvailabilityZoneView,
  ClusterDetail,
  ClusterEvents,
  ClusterSummary,
  CreateClusterInput,
  EventsPage,
  InstanceTypeView,
  NodeActionResults,
  NodeDetail,
  NodeList,
  NodeListParams,
  OperationView,
  QuotaCheckResult,
  RegionView,
  ServerConfig,
  SetAutoscalingInput,
  StartDeepHealthCheckInput,
  TrainingPlanView,
} from './types.js';

/** One function per REST endpoint of docs/API.md that the UI uses. */

export const getConfig = () => api<ServerConfig>('/api/v1/config');
/** Checks the server's cloud credentials again; when they work, the server opens that account's data (no restart). */
export const checkCredentials = () => api<ServerConfig>('/api/v1/config/credentials/check', { method: 'POST' });
export const listRegions = () => api<{ regions: RegionView[] }>('/api/v1/regions').then((r) => r.regions);
export const listAvailabilityZones = (region?: string) =>
  api<{ region: string; availabilityZones: AvailabilityZoneView[] }>(`/api/v1/availability-zones${qs({ region })}`).then((r) => r.availabilityZones);
export const listInstanceTypes = (region: string | undefined, availabilityZone: string | undefined) =>
  api<{ instanceTypes: InstanceTypeView[] }>(`/api/v1/instance-types${qs({ region, availabilityZone })}`).then((r) => r.instanceTypes);
export const listTrainingPlans = (region?: string) =>
  api<{ trainingPlans: TrainingPlanView[] }>(`/api/v1/training-plans${qs({ region })}`).then((r) => r.trainingPlans);
export const preflightCluster = (body: CreateClusterInput) => api<QuotaCheckResult>('/api/v1/preflight/clusters', { method: 'POST', body });

export const listClusters = (region?: string) => api<{ clusters: ClusterSummary[] }>(`/api/v1/clusters${qs({ region })}`).then((r) => r.clusters);
export const getCluster = (name: string, region?: string) => api<ClusterDetail>(`/api/v1/clusters/${encodeURIComponent(name)}${qs({ region })}`);
export const createCluster = (body: CreateClusterInput, idempotencyKey: string) =>
  api<Accepted>('/api/v1/clusters', { method: 'POST', body, headers: { 'idempotency-key': idempotencyKey } });
export const deleteCluster = (name: string, options: { region?: string; keepStorage?: boolean } = {}) =>
  api<Accepted>(`/api/v1/clusters/${encodeURIComponent(name)}${qs({ confirm: 'true', region: options.region, keepStorage: options.keepStorage ? 'true' : undefined })}`, {
    method: 'DELETE',
  });
const groupsPath = (cluster: string) => `/api/v1/clusters/${encodeURIComponent(cluster)}/instance-groups`;
export const listInstanceGroups = (cluster: string, region?: string) =>
  api<{ instanceGroups: InstanceGroupView[] }>(`${groupsPath(cluster)}${qs({ region })}`).then((r) => r.instanceGroups);
export const addInstanceGroup = (cluster: string, body: AddInstanceGroupInput, idempotencyKey: string) =>
  api<Accepted>(groupsPath(cluster), { method: 'POST', body, headers: { 'idempotency-key': idempotencyKey } });
/** Sends only the count: the diff contract (never unchanged fields). */
export const scaleInstanceGroup = (cluster: string, group: string, instanceCount: number, region?: string) =>
  api<Accepted>(`${groupsPath(cluster)}/${encodeURIComponent(group)}`, { method: 'PATCH', body: { instanceCount, ...(region ? { region } : {}) } });
export const deleteInstanceGroup = (cluster: string, group: string, region?: string) =>
  api<Accepted>(`${groupsPath(cluster)}/${encodeURIComponent(group)}${qs({ confirm: 'true', region })}`, { method: 'DELETE' });

const nodesPath = (cluster: string) => `/api/v1/clusters/${encodeURIComponent(cluster)}/nodes`;
/** One page of nodes, filtered on the server; `nextToken` comes from the previous page. */
export const listNodes = (cluster: string, params: NodeListParams, region?: string) => api<NodeList>(`${nodesPath(cluster)}${qs({ region, ...params })}`);
export const getNode = (cluster: string, instanceId: string, region?: string) =>
  api<NodeDetail>(`${nodesPath(cluster)}/${encodeURIComponent(instanceId)}${qs({ region })}`);
/** Reboot needs no confirmation; replace and delete send `confirm: true` (the user typed the word). */
export const actOnNodes = (cluster: string, action: 'reboot' | 'replace' | 'delete', nodeIds: string[], region?: string) =>
  api<NodeActionResults>(`${nodesPath(cluster)}/${action}`, {
    method: 'POST',
    body: { nodeIds, ...(action === 'reboot' ? {} : { confirm: true }), ...(region ? { region } : {}) },
  });
export const startDeepHealthCheck = (cluster: string, body: StartDeepHealthCheckInput) =>
  api<NodeActionResults>(`${nodesPath(cluster)}/deep-health-check`, { method: 'POST', body });
export const listClusterEvents = (cluster: string, params: { group?: string; nodeId?: string; limit?: number }, region?: string) =>
  api<ClusterEvents>(`/api/v1/clusters/${encodeURIComponent(cluster)}/events${qs({ region, ...params })}`);

const autoscalingPath = (cluster: string) => `/api/v1/clusters/${encodeURIComponent(cluster)}/autoscaling`;
export const getAutoscaling = (cluster: string, region?: string) => api<AutoscalingView>(`${autoscalingPath(cluster)}${qs({ region })}`);
export const setAutoscaling = (cluster: string, body: SetAutoscalingInput) => api<Accepted>(autoscalingPath(cluster), { method: 'PUT', body });

export const getActiveCluster = () => api<ActiveCluster>('/api/v1/active-cluster');
export const setActiveCluster = (name: string, region?: string) => api<ActiveCluster>('/api/v1/active-cluster', { method: 'PUT', body: { name, region } });

export const listOperations = (params: { status?: string; kind?: string; target?: string; limit?: number } = {}) =>
  api<{ operations: OperationView[] }>(`/api/v1/operations${qs(params)}`).then((r) => r.operations);
export const getOperation = (id: string) => api<OperationView>(`/api/v1/operations/${encodeURIComponent(id)}`);
export const getOperationEvents = (id: string, after: number, limit = 1000) =>
  api<EventsPage>(`/api/v1/operations/${encodeURIComponent(id)}/events${qs({ after, limit })}`);
export const retryPhase = (id: string, phase: string) =>
  api<Accepted>(`/api/v1/operations/${encodeURIComponent(id)}/phases/${encodeURIComponent(phase)}/retry`, { method: 'POST' });
export const cancelOperation = (id: string) => api<Accepted>(`/api/v1/operations/${encodeURIComponent(id)}/cancel`, { method: 'POST' });
