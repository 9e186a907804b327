/** View and request types, straight from the backend's zod schemas (type-only imports). */

import type { AutoscalingView, SetAutoscalingRequestSchema } from '@domain/schemas/autoscaling.js';
import type { ClusterDetail, ClusterSummary, CreateClusterRequestSchema } from '@domain/schemas/clusters.js';
import type { CloudAccessProblem, ServerConfigView } from '@domain/schemas/config.js';
import type {
  AddInstanceGroupRequestSchema,
  InstanceGroupView,
  ScalePreflightResult,
} from '@domain/schemas/instance-groups.js';
import type {
  ClusterEvent,
  ClusterEventsSchema,
  ListNodesQuery,
  NodeActionResult,
  NodeDetail,
  NodeList,
  NodeOutcome,
  NodeView,
  StartDeepHealthCheckRequestSchema,
} from '@domain/schemas/nodes.js';
import type {
  Accepted,
  LogLine,
  OperationStatus,
  OperationView,
  PhaseStatus,
  PhaseView,
} from '@domain/schemas/operations.js';
import type {
  AvailabilityZoneViewSchema,
  InstanceTypeView,
  KubernetesVersions,
  PreflightProblem,
  QuotaCheckRequestSchema,
  QuotaCheckResult,
  QuotaFindingSchema,
  RegionViewSchema,
  TrainingPlanView,
} from '@domain/schemas/preflight.js';
import type { z } from 'zod';

export type {
  Accepted,
  ClusterDetail,
  ClusterSummary,
  InstanceTypeView,
  KubernetesVersions,
  LogLine,
  OperationStatus,
  OperationView,
  PhaseStatus,
  PhaseView,
  PreflightProblem,
  QuotaCheckResult,
  TrainingPlanView,
};
export type CreateClusterInput = z.input<typeof CreateClusterRequestSchema>;
export type AddInstanceGroupInput = z.input<typeof AddInstanceGroupRequestSchema>;
export type { InstanceGroupView, ScalePreflightResult };
export type RegionView = z.infer<typeof RegionViewSchema>;
export type AvailabilityZoneView = z.infer<typeof AvailabilityZoneViewSchema>;
export type QuotaFinding = z.infer<typeof QuotaFindingSchema>;
export type QuotaCheckInput = z.input<typeof QuotaCheckRequestSchema>;

/** GET /api/v1/config: the cloud, Region, account, and whether the server can act there (`cloudAccess`). */
export type ServerConfig = ServerConfigView;
export type { CloudAccessProblem };
export interface ActiveCluster {
  name: string | null;
  region: string | null;
}
export interface EventsPage {
  lines: LogLine[];
  nextAfter: number;
}

// ── nodes, events, autoscaling ───────────────────────────────────────────────────────────────────
export type { ClusterEvent, NodeActionResult, NodeDetail, NodeList, NodeOutcome, NodeView };
export type NodeHealthState = NodeView['health']['state'];
export type NodeActionKind = NodeActionResult['action'];
/** A cluster's health rolled up from its nodes and groups; a group short of its target. */
export type ClusterHealth = NonNullable<ClusterSummary['health']>;
export type GroupShortfall = NodeList['shortfalls'][number];
/** The list filters and page the node table sends (limit and nextToken included). */
export type NodeListParams = Partial<
  Pick<ListNodesQuery, 'group' | 'health' | 'availabilityZone' | 'limit' | 'nextToken'>
>;
export type ClusterEvents = z.infer<typeof ClusterEventsSchema>;
export type StartDeepHealthCheckInput = z.input<typeof StartDeepHealthCheckRequestSchema>;

/** GET /api/v1/clusters/{name}/autoscaling and the PUT body, from the backend's schemas. */
export type { AutoscalingView };
export type SetAutoscalingInput = z.input<typeof SetAutoscalingRequestSchema>;
