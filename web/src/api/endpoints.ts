import { AUTOSCALING_PATHS } from '../../../src/capabilities/autoscaling/paths.js';
import { CATALOG_PATHS } from '../../../src/capabilities/catalog/paths.js';
import { CLUSTER_PATHS } from '../../../src/capabilities/clusters/paths.js';
import { GROUP_PATHS } from '../../../src/capabilities/instance-groups/paths.js';
import { NODE_PATHS } from '../../../src/capabilities/nodes/paths.js';
import { OPERATION_PATHS } from '../../../src/capabilities/operations/paths.js';
import { SYSTEM_PATHS } from '../../../src/capabilities/system/paths.js';
import { apiPath } from '../../../src/domain/api-path.js';
import type { DeletePlan } from '../../../src/domain/schemas/clusters.js';
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
  KubernetesVersions,
  NodeDetail,
  NodeList,
  NodeListParams,
  OperationView,
  QuotaCheckInput,
  QuotaCheckResult,
  RegionView,
  ScalePreflightResult,
  ServerConfig,
  SetAutoscalingInput,
  StartDeepHealthCheckInput,
  TrainingPlanView,
} from './types.js';

/** One function per REST endpoint of docs/API.md that the UI uses; the paths are each capability's paths.ts. */

export const getConfig = () => api<ServerConfig>(SYSTEM_PATHS.config);
/** Checks the server's cloud credentials again; when they work, the server opens that account's data (no restart). */
export const checkCredentials = () => api<ServerConfig>(SYSTEM_PATHS.credentialsCheck, { method: 'POST' });
export const listRegions = () => api<{ regions: RegionView[] }>(CATALOG_PATHS.regions).then((r) => r.regions);
export const listAvailabilityZones = (region?: string) =>
  api<{ region: string; availabilityZones: AvailabilityZoneView[] }>(
    `${CATALOG_PATHS.availabilityZones}${qs({ region })}`,
  ).then((r) => r.availabilityZones);
export const listInstanceTypes = (region: string | undefined, availabilityZone: string | undefined) =>
  api<{ instanceTypes: InstanceTypeView[] }>(`${CATALOG_PATHS.instanceTypes}${qs({ region, availabilityZone })}`).then(
    (r) => r.instanceTypes,
  );
export const listTrainingPlans = (region?: string) =>
  api<{ trainingPlans: TrainingPlanView[] }>(`${CATALOG_PATHS.trainingPlans}${qs({ region })}`).then(
    (r) => r.trainingPlans,
  );
export const listKubernetesVersions = (region?: string) =>
  api<KubernetesVersions>(`${CATALOG_PATHS.kubernetesVersions}${qs({ region })}`);
export const preflightCluster = (body: CreateClusterInput) =>
  api<QuotaCheckResult>(CATALOG_PATHS.clusterCheck, { method: 'POST', body });
export const checkQuotas = (body: QuotaCheckInput) =>
  api<QuotaCheckResult>(CATALOG_PATHS.quotaCheck, { method: 'POST', body });

export const listClusters = (region?: string) =>
  api<{ clusters: ClusterSummary[] }>(`${CLUSTER_PATHS.list}${qs({ region })}`).then((r) => r.clusters);
export const getCluster = (name: string, region?: string) =>
  api<ClusterDetail>(`${apiPath(CLUSTER_PATHS.one, { name })}${qs({ region })}`);
export const createCluster = (body: CreateClusterInput, idempotencyKey: string) =>
  api<Accepted>(CLUSTER_PATHS.list, { method: 'POST', body, headers: { 'idempotency-key': idempotencyKey } });
export const deleteCluster = (name: string, options: { region?: string; keepStorage?: boolean } = {}) =>
  api<Accepted>(
    `${apiPath(CLUSTER_PATHS.one, { name })}${qs({ confirm: 'true', region: options.region, keepStorage: options.keepStorage ? 'true' : undefined })}`,
    {
      method: 'DELETE',
    },
  );
export const getDeletePlan = (name: string, options: { region?: string; keepStorage?: boolean } = {}) =>
  api<DeletePlan>(
    `${apiPath(CLUSTER_PATHS.deletePlan, { name })}${qs({ region: options.region, keepStorage: options.keepStorage ? 'true' : undefined })}`,
  );
export const listInstanceGroups = (cluster: string, region?: string) =>
  api<{ instanceGroups: InstanceGroupView[] }>(`${apiPath(GROUP_PATHS.list, { name: cluster })}${qs({ region })}`).then(
    (r) => r.instanceGroups,
  );
export const addInstanceGroup = (cluster: string, body: AddInstanceGroupInput, idempotencyKey: string) =>
  api<Accepted>(apiPath(GROUP_PATHS.list, { name: cluster }), {
    method: 'POST',
    body,
    headers: { 'idempotency-key': idempotencyKey },
  });
/** Sends only the count: the diff contract (never unchanged fields). */
/** `confirm` is the user's yes to a shrink (a lower count terminates nodes; the API refuses it without). */
export const scaleInstanceGroup = (
  cluster: string,
  group: string,
  instanceCount: number,
  region?: string,
  confirm = false,
) =>
  api<Accepted>(apiPath(GROUP_PATHS.one, { name: cluster, group }), {
    method: 'PATCH',
    body: { instanceCount, ...(region ? { region } : {}), ...(confirm ? { confirm: true } : {}) },
  });
/** The create's checks for what a new count adds (read-only; PATCH runs the same one). */
/** Labels, taints, lifecycle scripts, AMI updates, patching: only the fields that change (PATCH, the diff contract). */
export const updateInstanceGroup = (cluster: string, group: string, body: Record<string, unknown>) =>
  api<Accepted>(apiPath(GROUP_PATHS.one, { name: cluster, group }), { method: 'PATCH', body });
export const checkScaleInstanceGroup = (cluster: string, group: string, instanceCount: number, region?: string) =>
  api<ScalePreflightResult>(apiPath(GROUP_PATHS.scalePreflight, { name: cluster, group }), {
    method: 'POST',
    body: { instanceCount, ...(region ? { region } : {}) },
  });
export const deleteInstanceGroup = (cluster: string, group: string, region?: string) =>
  api<Accepted>(`${apiPath(GROUP_PATHS.one, { name: cluster, group })}${qs({ confirm: 'true', region })}`, {
    method: 'DELETE',
  });

/** One page of nodes, filtered on the server; `nextToken` comes from the previous page. */
export const listNodes = (cluster: string, params: NodeListParams, region?: string) =>
  api<NodeList>(`${apiPath(NODE_PATHS.list, { name: cluster })}${qs({ region, ...params })}`);
export const getNode = (cluster: string, instanceId: string, region?: string) =>
  api<NodeDetail>(`${apiPath(NODE_PATHS.one, { name: cluster, nodeId: instanceId })}${qs({ region })}`);
/** Reboot needs no confirmation; replace and delete send `confirm: true` (the user typed the word). Answers the operation. */
export const actOnNodes = (
  cluster: string,
  action: 'reboot' | 'replace' | 'delete',
  nodeIds: string[],
  region?: string,
) =>
  api<Accepted>(apiPath(NODE_PATHS[action], { name: cluster }), {
    method: 'POST',
    body: { nodeIds, ...(action === 'reboot' ? {} : { confirm: true }), ...(region ? { region } : {}) },
  });
export const startDeepHealthCheck = (cluster: string, body: StartDeepHealthCheckInput) =>
  api<Accepted>(apiPath(NODE_PATHS.deepHealthCheck, { name: cluster }), { method: 'POST', body });
export const listClusterEvents = (
  cluster: string,
  params: { group?: string; nodeId?: string; limit?: number },
  region?: string,
) => api<ClusterEvents>(`${apiPath(NODE_PATHS.events, { name: cluster })}${qs({ region, ...params })}`);

export const getAutoscaling = (cluster: string, region?: string) =>
  api<AutoscalingView>(`${apiPath(AUTOSCALING_PATHS.one, { name: cluster })}${qs({ region })}`);
export const setAutoscaling = (cluster: string, body: SetAutoscalingInput) =>
  api<Accepted>(apiPath(AUTOSCALING_PATHS.one, { name: cluster }), { method: 'PUT', body });

export const getActiveCluster = () => api<ActiveCluster>(CLUSTER_PATHS.active);
export const setActiveCluster = (name: string, region?: string) =>
  api<ActiveCluster>(CLUSTER_PATHS.active, { method: 'PUT', body: { name, region } });

export const listOperations = (params: { status?: string; kind?: string; target?: string; limit?: number } = {}) =>
  api<{ operations: OperationView[] }>(`${OPERATION_PATHS.list}${qs(params)}`).then((r) => r.operations);
export const getOperation = (id: string) => api<OperationView>(apiPath(OPERATION_PATHS.one, { id }));
export const getOperationEvents = (id: string, after: number, limit = 1000) =>
  api<EventsPage>(`${apiPath(OPERATION_PATHS.events, { id })}${qs({ after, limit })}`);
export const retryPhase = (id: string, phase: string) =>
  api<Accepted>(apiPath(OPERATION_PATHS.retryPhase, { id, phase }), { method: 'POST' });
export const cancelOperation = (id: string) =>
  api<Accepted>(apiPath(OPERATION_PATHS.cancel, { id }), { method: 'POST' });
