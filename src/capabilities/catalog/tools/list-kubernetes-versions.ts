import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { RegionSchema } from '../../../domain/schemas/common.js';
import { KubernetesVersionsSchema, type KubernetesVersions } from '../../../domain/schemas/preflight.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { READ_ONLY, registerRestTool } from '../../../mcp/tool-kit.js';
import { CATALOG_PATHS } from '../paths.js';

/** `list_kubernetes_versions` → GET /api/v1/kubernetes-versions: what EKS offers and HyperPod supports. */
export function registerListKubernetesVersionsTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'list_kubernetes_versions',
    title: 'List Kubernetes versions',
    description:
      "Kubernetes versions a new cluster may run in a Region and create_cluster's default. Only when the user asks for a version; never ask them for one.",
    input: z.object({ region: RegionSchema.optional() }).strict(),
    output: KubernetesVersionsSchema,
    annotations: { ...READ_ONLY, openWorldHint: true },
    async run({ region }, { api, signal }) {
      const data = await api.get<KubernetesVersions>(CATALOG_PATHS.kubernetesVersions, { query: { region }, signal });
      const sides = (v: KubernetesVersions['versions'][number]) =>
        v.usable
          ? `EKS (${v.eks.status ?? '?'}${v.eks.isDefault ? ', EKS default' : ''}) and HyperPod${v.isChosenDefault ? ' — the default' : ''}`
          : v.eks.offered
            ? `EKS only${v.eks.isDefault ? ' (EKS default)' : ''}: HyperPod does not support it`
            : 'HyperPod only: EKS does not offer it here';
      const lines = data.versions.map((v) => `- ${v.version}: ${sides(v)}`);
      const head = data.defaultVersion
        ? `Kubernetes versions in ${data.region}; create_cluster uses ${data.defaultVersion} unless asked otherwise:`
        : `No Kubernetes version in ${data.region} is both offered by EKS and supported by HyperPod; create the cluster in another region.`;
      return {
        text: `${head}\n${lines.join('\n')}\nHyperPod's range is read from ${data.hyperpodSupport.sources[0]} (${data.hyperpodSupport.readOn}).`,
        data,
      };
    },
  });
}
