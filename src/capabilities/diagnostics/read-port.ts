import type { HyperPodCluster, HyperPodEvent, IamRoleFacts } from '../../cloud/ports.js';
import { NotFoundError } from '../../domain/errors.js';
import type { OperationKind } from '../../domain/operation-kinds.js';
import type { DeletePlan } from '../../domain/schemas/clusters.js';
import type { NodeDetail } from '../../domain/schemas/nodes.js';
import type { LogLine, OperationView } from '../../domain/schemas/operations.js';
import type { QuotaCheckRequest, QuotaCheckResult } from '../../domain/schemas/preflight.js';
import type { ServiceDeps } from '../capability.js';
import { catalog } from '../catalog/index.js';
import { clusters } from '../clusters/index.js';
import { nodes } from '../nodes/index.js';

/**
 * Everything a diagnosis may read, and nothing else: each member describes, lists or gets. The diagnostics service is
 * built from this port alone (index.ts), so no code under this folder holds the cloud, the operation engine or another
 * capability's service — a diagnostic cannot reach a mutating call, whatever it is asked (issue 29: read-only by
 * construction; test/capabilities/diagnostics-read-only.test.ts and the layering rule `diagnostics-read-only` keep it so).
 */
export interface DiagnosticsReadPort {
  /** One operation (404 when the store has none of that id). */
  operation(id: string): OperationView;
  /** Operations newest first, by kind and target. */
  operations(query: { kind?: OperationKind; target?: string; limit: number }): OperationView[];
  /** An operation's log lines after `after`, at most `limit`. */
  operationLog(id: string, after: number, limit: number): { lines: LogLine[]; nextAfter: number };
  /** sagemaker:DescribeCluster; undefined when HyperPod has no such cluster. */
  hyperpodCluster(region: string, name: string): Promise<HyperPodCluster | undefined>;
  /** sagemaker:ListClusterEvents, newest first; empty when the cluster lists none (not Continuous mode, or gone). */
  hyperpodEvents(
    region: string,
    cluster: string,
    options: { nodeId?: string; maxResults: number },
  ): Promise<HyperPodEvent[]>;
  /** iam:GetRole: the role's ARN and trust policy; undefined when it does not exist. */
  role(roleName: string): Promise<IamRoleFacts | undefined>;
  /** Service Quotas and ListClusters: would the request fit the account's HyperPod quotas now? */
  quotas(request: QuotaCheckRequest): Promise<QuotaCheckResult>;
  /** What of the cluster is left to delete (the clusters capability's delete plan); undefined when nothing is. */
  leftBehind(region: string, cluster: string): Promise<DeletePlan | undefined>;
  /** One node: DescribeClusterNode joined with its Kubernetes Node, pods and events (the nodes capability's view). */
  node(region: string, cluster: string, nodeId: string): Promise<NodeDetail>;
  /** The account the cloud answers for (names of a cluster's roles carry it). */
  accountId(): Promise<string>;
}

/**
 * The read port of one workspace, from the services' deps: only read functions are taken out of them. This is the one
 * file of the folder that sees the whole cloud, and it calls describe/list/get members only.
 */
export function readPortOf(deps: ServiceDeps): DiagnosticsReadPort {
  const { cloud, operations } = deps;
  return {
    operation: (id) => operations.get(id),
    operations: (query) => operations.list(query),
    operationLog: (id, after, limit) => operations.events(id, after, limit),
    hyperpodCluster: (region, name) => cloud.hyperpod.describe(region, name),
    async hyperpodEvents(region, cluster, options) {
      try {
        return (await cloud.hyperpodNodes.events(region, cluster, options)).events;
      } catch {
        return []; // clusters outside Continuous provisioning (or gone) have no event list
      }
    },
    role: (roleName) => cloud.iam.describeRole(roleName),
    quotas: (request) => deps.service(catalog).checkQuotas(request),
    async leftBehind(region, cluster) {
      try {
        return await deps.service(clusters).deletePlan(region, cluster, false);
      } catch (err) {
        if (err instanceof NotFoundError) return undefined;
        throw err;
      }
    },
    node: (region, cluster, nodeId) => deps.service(nodes).views.get(region, cluster, nodeId),
    accountId: () => cloud.accountId(),
  };
}
