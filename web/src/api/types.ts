/** View and request types, straight from the backend's zod schemas (type-only imports). */
import type { z } from 'zod';
import type { ClusterDetail, ClusterSummary, CreateClusterRequestSchema } from '../../../src/domain/schemas/clusters.js';
import type { AddInstanceGroupRequestSchema, InstanceGroupView } from '../../../src/domain/schemas/instance-groups.js';
import type { Accepted, LogLine, OperationStatus, OperationView, PhaseStatus, PhaseView } from '../../../src/domain/schemas/operations.js';
import type {
  AvailabilityZoneViewSchema,
  InstanceTypeView,
  PreflightProblem,
  QuotaCheckResult,
  QuotaFindingSchema,
  RegionViewSchema,
  TrainingPlanView,
} from '../../../src/domain/schemas/preflight.js';

export type { Accepted, ClusterDetail, ClusterSummary, InstanceTypeView, LogLine, OperationStatus, OperationView, PhaseStatus, PhaseView, PreflightProblem, QuotaCheckResult, TrainingPlanView };
export type CreateClusterInput = z.input<typeof CreateClusterRequestSchema>;
export type AddInstanceGroupInput = z.input<typeof AddInstanceGroupRequestSchema>;
export type { InstanceGroupView };
export type RegionView = z.infer<typeof RegionViewSchema>;
export type AvailabilityZoneView = z.infer<typeof AvailabilityZoneViewSchema>;
export type QuotaFinding = z.infer<typeof QuotaFindingSchema>;

export interface ServerConfig {
  cloud: 'sandbox' | 'aws';
  region: string;
  accountId?: string;
  version?: string;
}
export interface ActiveCluster {
  name: string | null;
  region: string | null;
}
export interface EventsPage {
  lines: LogLine[];
  nextAfter: number;
}
