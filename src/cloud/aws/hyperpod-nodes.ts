import {
  BatchDeleteClusterNodesCommand,
  BatchRebootClusterNodesCommand,
  BatchReplaceClusterNodesCommand,
  DescribeClusterNodeCommand,
  ListClusterEventsCommand,
  ListClusterNodesCommand,
  StartClusterHealthCheckCommand,
  type DeepHealthCheckType,
} from '@aws-sdk/client-sagemaker';
import { NODE_ACTION_BATCH_LIMITS } from '../../domain/instance-groups.js';
import type {
  HyperPodEvent,
  HyperPodNode,
  HyperPodNodeDetails,
  HyperPodNodesPort,
  NodeActionResult,
} from '../ports.js';
import type { AwsClients } from './clients.js';
import { awsCall, hasCode } from './errors.js';

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** HyperPod nodes: listing (paged), details, events, and the Batch* node actions. */
export class HyperPodNodesAdapter implements HyperPodNodesPort {
  constructor(private readonly clients: AwsClients) {}

  /** One page of ListClusterNodes (MaxResults ≤ 100); includes nodes still provisioning. */
  async listPage(
    region: string,
    cluster: string,
    options: { groupName?: string; nextToken?: string; maxResults?: number } = {},
  ): Promise<{ nodes: HyperPodNode[]; nextToken?: string }> {
    const r = await awsCall('sagemaker', 'ListClusterNodes', () =>
      this.clients.sagemaker(region).send(
        new ListClusterNodesCommand({
          ClusterName: cluster,
          InstanceGroupNameContains: options.groupName,
          NextToken: options.nextToken,
          MaxResults: Math.min(100, options.maxResults ?? 100),
          IncludeNodeLogicalIds: true,
        }),
      ),
    );
    return { nodes: r.ClusterNodeSummaries ?? [], nextToken: r.NextToken };
  }

  /** Every node of the cluster (all pages). */
  async listAll(region: string, cluster: string, groupName?: string): Promise<HyperPodNode[]> {
    const out: HyperPodNode[] = [];
    let nextToken: string | undefined;
    do {
      const page = await this.listPage(region, cluster, { groupName, nextToken });
      out.push(...page.nodes);
      nextToken = page.nextToken;
    } while (nextToken);
    return out;
  }

  async describe(region: string, cluster: string, nodeId: string): Promise<HyperPodNodeDetails | undefined> {
    try {
      const r = await awsCall('sagemaker', 'DescribeClusterNode', () =>
        this.clients.sagemaker(region).send(
          new DescribeClusterNodeCommand({
            ClusterName: cluster,
            ...(nodeId.startsWith('i-') ? { NodeId: nodeId } : { NodeLogicalId: nodeId }),
          }),
        ),
      );
      return r.NodeDetails;
    } catch (err) {
      if (hasCode(err, 'ResourceNotFound', 'ResourceNotFoundException')) return undefined;
      throw err;
    }
  }

  /** Newest first; Continuous-mode clusters only (HyperPod's rule). */
  async events(
    region: string,
    cluster: string,
    options: { nodeId?: string; groupName?: string; nextToken?: string; maxResults?: number } = {},
  ): Promise<{ events: HyperPodEvent[]; nextToken?: string }> {
    const r = await awsCall('sagemaker', 'ListClusterEvents', () =>
      this.clients.sagemaker(region).send(
        new ListClusterEventsCommand({
          ClusterName: cluster,
          NodeId: options.nodeId,
          InstanceGroupName: options.groupName,
          SortBy: 'EventTime',
          SortOrder: 'Descending',
          NextToken: options.nextToken,
          MaxResults: Math.min(100, options.maxResults ?? 50),
        }),
      ),
    );
    return { events: r.Events ?? [], nextToken: r.NextToken };
  }

  reboot(region: string, cluster: string, nodeIds: string[]): Promise<NodeActionResult[]> {
    return this.batch(nodeIds, NODE_ACTION_BATCH_LIMITS.reboot, async (ids) => {
      const r = await awsCall('sagemaker', 'BatchRebootClusterNodes', () =>
        this.clients.sagemaker(region).send(new BatchRebootClusterNodesCommand({ ClusterName: cluster, NodeIds: ids })),
      );
      return {
        ok: r.Successful ?? [],
        failed: (r.Failed ?? []).map((f) => ({ nodeId: f.NodeId!, code: f.ErrorCode, message: f.Message })),
      };
    });
  }

  replace(region: string, cluster: string, nodeIds: string[]): Promise<NodeActionResult[]> {
    return this.batch(nodeIds, NODE_ACTION_BATCH_LIMITS.replace, async (ids) => {
      const r = await awsCall('sagemaker', 'BatchReplaceClusterNodes', () =>
        this.clients
          .sagemaker(region)
          .send(new BatchReplaceClusterNodesCommand({ ClusterName: cluster, NodeIds: ids })),
      );
      return {
        ok: r.Successful ?? [],
        failed: (r.Failed ?? []).map((f) => ({ nodeId: f.NodeId!, code: f.ErrorCode, message: f.Message })),
      };
    });
  }

  delete(region: string, cluster: string, nodeIds: string[]): Promise<NodeActionResult[]> {
    return this.batch(nodeIds, NODE_ACTION_BATCH_LIMITS.delete, async (ids) => {
      const r = await awsCall('sagemaker', 'BatchDeleteClusterNodes', () =>
        this.clients.sagemaker(region).send(new BatchDeleteClusterNodesCommand({ ClusterName: cluster, NodeIds: ids })),
      );
      return {
        ok: r.Successful ?? [],
        failed: (r.Failed ?? []).map((f) => ({ nodeId: f.NodeId!, code: f.Code, message: f.Message })),
      };
    });
  }

  /** On-demand deep health checks (GPU stress, EFA connectivity) on chosen nodes of one group. */
  async startDeepHealthCheck(
    region: string,
    cluster: string,
    groupName: string,
    nodeIds: string[],
    checks: DeepHealthCheckType[],
  ): Promise<void> {
    await awsCall('sagemaker', 'StartClusterHealthCheck', () =>
      this.clients.sagemaker(region).send(
        new StartClusterHealthCheckCommand({
          ClusterName: cluster,
          DeepHealthCheckConfigurations: [
            { InstanceGroupName: groupName, InstanceIds: nodeIds, DeepHealthChecks: checks },
          ],
        }),
      ),
    );
  }

  /** Larger requests are split to HyperPod's batch limits so callers see one result per node, whatever the batching. */
  private async batch(
    nodeIds: string[],
    limit: number,
    call: (
      ids: string[],
    ) => Promise<{ ok: string[]; failed: Array<{ nodeId: string; code?: string; message?: string }> }>,
  ): Promise<NodeActionResult[]> {
    const results: NodeActionResult[] = [];
    for (const ids of chunks(nodeIds, limit)) {
      const r = await call(ids);
      results.push(...r.ok.map((nodeId) => ({ nodeId, ok: true })), ...r.failed.map((f) => ({ ...f, ok: false })));
    }
    return results;
  }
}
