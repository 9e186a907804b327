import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  CREATE_CLUSTER_REST_FIELDS,
  CreateClusterToolInputSchema,
  createClusterRequest,
} from '../../../domain/schemas/create-cluster-tool-input.js';
import { ClusterPlanSchema, type ClusterPlan } from '../../../domain/schemas/plans.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { READ_ONLY, registerRestTool } from '../../../mcp/tool-kit.js';
import { CLUSTER_PATHS } from '../paths.js';

const usd = (n: number) => `$${n.toFixed(2)}`;

/** The plan as a few lines an agent can show: what is made, per service, and the hourly cost with its sources. */
function planText(plan: ClusterPlan): string {
  const counts = new Map<string, number>();
  for (const m of plan.mutations) counts.set(m.resource, (counts.get(m.resource) ?? 0) + 1);
  const made = [...counts].map(([r, n]) => (n > 1 ? `${n} × ${r}` : r)).join(', ');
  const lines = plan.cost.lines.map((l) =>
    l.hourlyUsd === undefined
      ? `- ${l.description}: no price (${l.missing})`
      : `- ${l.description}: ${usd(l.hourlyUsd)}/h (${l.source?.serviceCode} SKU ${l.source?.sku}, effective ${l.source?.effectiveDate})`,
  );
  return [
    `Creating ${plan.cluster} (${plan.region}) would make: ${made}.`,
    `Hourly cost ${usd(plan.cost.totalHourlyUsd)}${plan.cost.complete ? '' : ' (incomplete)'}:`,
    ...lines,
    plan.cost.note,
  ].join('\n');
}

/** `plan_cluster` → POST /api/v1/clusters/plan (changes nothing). */
export function registerPlanClusterTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'plan_cluster',
    title: 'Plan a cluster create with its hourly cost',
    description:
      "Changes nothing: what create_cluster would make, in order, and its hourly cost from AWS's Price List. Same arguments as create_cluster; show it before asking to create.",
    input: CreateClusterToolInputSchema,
    argumentsOf: 'create_cluster',
    restFields: CREATE_CLUSTER_REST_FIELDS,
    output: ClusterPlanSchema,
    annotations: { ...READ_ONLY, openWorldHint: true },
    async run(args, { api, signal }) {
      const plan = await api.post<ClusterPlan>(CLUSTER_PATHS.plan, { body: createClusterRequest(args), signal });
      return { text: planText(plan), data: plan };
    },
  });
}
