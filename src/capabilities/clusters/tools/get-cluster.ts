import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { ClusterDetailSchema, type ClusterDetail } from '../../../domain/schemas/clusters.js';
import { ClusterRefSchema, RegionSchema } from '../../../domain/schemas/common.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { READ_ONLY, registerRestTool } from '../../../mcp/tool-kit.js';
import { apiPath } from '../../../domain/api-path.js';
import { CLUSTER_PATHS } from '../paths.js';

/** `get_cluster` → GET /api/v1/clusters/{name}. */
export function registerGetClusterTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'get_cluster',
    title: 'Describe a HyperPod cluster',
    description:
      'One cluster: status, EKS cluster, groups with counts, node recovery, storage claims (Bound = mountable), active or not. Verify a create once its operation succeeded.',
    input: z
      .object({
        cluster: ClusterRefSchema.describe('Name of the cluster (from list_clusters).'),
        region: RegionSchema.optional(),
      })
      .strict(),
    output: ClusterDetailSchema,
    annotations: { ...READ_ONLY, openWorldHint: true },
    async run({ cluster, region }, { api, signal }) {
      const c = await api.get<ClusterDetail>(apiPath(CLUSTER_PATHS.one, { name: cluster }), {
        query: { region },
        signal,
      });
      const lines = [`${c.name} (${c.region}): ${c.status}${c.isActive ? ' [active cluster]' : ''}`];
      if (c.failureMessage) lines.push(`Failure: ${c.failureMessage}`);
      if (c.eks)
        lines.push(`EKS ${c.eks.name}: ${c.eks.status}${c.eks.version ? `, Kubernetes ${c.eks.version}` : ''}`);
      if (c.nodeRecovery) lines.push(`Node recovery: ${c.nodeRecovery}`);
      if (c.health)
        lines.push(
          `Health: ${c.health.state} — ${c.health.summary}${c.health.state === 'healthy' ? '' : ' Details: list_nodes (heal-node playbook).'}`,
        );
      for (const g of c.instanceGroups) {
        lines.push(
          `- group ${g.name}: ${g.currentCount}/${g.targetCount} × ${g.instanceType} (${g.capacityType}), ${g.status}`,
        );
      }
      if (c.storage?.s3Bucket)
        lines.push(
          `S3 bucket ${c.storage.s3Bucket}${c.storage.persistentVolumeClaim ? ` (PVC ${c.storage.persistentVolumeClaim})` : ''}`,
        );
      if (c.storage?.fsxFileSystemId) lines.push(`FSx for Lustre ${c.storage.fsxFileSystemId}`);
      for (const claim of c.storage?.claims ?? [])
        lines.push(
          `- claim ${claim.claim} (${claim.store}): ${claim.phase}${claim.volumeName ? ` → volume ${claim.volumeName}` : ''}`,
        );
      if (c.activeOperation)
        lines.push(
          `Operation ${c.activeOperation.id} (${c.activeOperation.kind}) is ${c.activeOperation.status}: follow it with wait_for_operation.`,
        );
      return { text: lines.join('\n'), data: c };
    },
  });
}
