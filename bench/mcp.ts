import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Served } from './lib/servers.js';
import { int, median, ms, percentile, progress, ratio, report, table } from './lib/stats.js';

/**
 * (b) An MCP tool call against the REST call it wraps: the MCP SDK's client over streamable HTTP
 * (one session, as an agent keeps one) and plain fetch, one call at a time, alternating which goes
 * first, so both see the same server state and the same machine noise.
 */

export interface McpOptions {
  cluster: string;
  operationId: string;
  zone: string;
  calls: number;
}

interface Pair {
  /** The REST call as the report shows it (ids and names as placeholders). */
  label: string;
  tool: string;
  args: Record<string, unknown>;
  rest: string;
}

export interface McpFigure {
  tool: string;
  rest: string;
  mcpMedian: number;
  mcpP99: number;
  restMedian: number;
  restP99: number;
  ratio: number;
  mcpChars: number;
  restChars: number;
}

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t0 = performance.now();
  const value = await fn();
  return [performance.now() - t0, value];
}

export async function mcpVsRest(served: Served, options: McpOptions): Promise<McpFigure[]> {
  const pairs: Pair[] = [
    { tool: 'list_clusters', label: 'GET /api/v1/clusters', args: {}, rest: '/api/v1/clusters' },
    {
      tool: 'get_operation',
      label: 'GET /api/v1/operations/{id}',
      args: { operationId: options.operationId },
      rest: `/api/v1/operations/${options.operationId}`,
    },
    // On a finished operation: both answer at once, so this is the cost of the answer, not of waiting.
    {
      tool: 'wait_for_operation',
      label: 'GET /api/v1/operations/{id}/wait',
      args: { operationId: options.operationId },
      rest: `/api/v1/operations/${options.operationId}/wait?timeoutSeconds=50`,
    },
    { tool: 'list_operations', label: 'GET /api/v1/operations', args: {}, rest: '/api/v1/operations' },
    {
      tool: 'list_instance_types',
      label: 'GET /api/v1/instance-types?availabilityZone',
      args: { availabilityZone: options.zone },
      rest: `/api/v1/instance-types?availabilityZone=${options.zone}`,
    },
    {
      tool: 'list_nodes',
      label: 'GET /api/v1/clusters/{name}/nodes',
      args: { cluster: options.cluster },
      rest: `/api/v1/clusters/${options.cluster}/nodes`,
    },
  ];
  const client = new Client({ name: 'instantstart-bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${served.url}/mcp`)));
  const out: McpFigure[] = [];
  try {
    for (const p of pairs) {
      progress(`(b) ${p.tool} vs ${p.label}: ${options.calls} calls each`);
      const callTool = async () => {
        const r = await client.callTool({ name: p.tool, arguments: p.args });
        if (r.isError) throw new Error(`${p.tool}: ${JSON.stringify(r.content).slice(0, 500)}`);
        return JSON.stringify(r).length;
      };
      const callRest = async () => {
        const res = await fetch(`${served.url}${p.rest}`);
        const text = await res.text();
        if (res.status !== 200) throw new Error(`GET ${p.rest}: ${res.status} ${text.slice(0, 500)}`);
        return text.length;
      };
      for (let i = 0; i < 5; i++) await Promise.all([callTool(), callRest()]); // warm-up, not counted
      const mcp: number[] = [];
      const rest: number[] = [];
      let mcpChars = 0;
      let restChars = 0;
      const viaMcp = async () => {
        const [t, chars] = await timed(callTool);
        mcp.push(t);
        mcpChars = chars;
      };
      const viaRest = async () => {
        const [t, chars] = await timed(callRest);
        rest.push(t);
        restChars = chars;
      };
      for (let i = 0; i < options.calls; i++) {
        if (i % 2 === 0) await viaMcp().then(viaRest);
        else await viaRest().then(viaMcp);
      }
      out.push({
        tool: p.tool,
        rest: p.label,
        mcpMedian: median(mcp),
        mcpP99: percentile(mcp, 99),
        restMedian: median(rest),
        restP99: percentile(rest, 99),
        ratio: median(mcp) / median(rest),
        mcpChars,
        restChars,
      });
    }
  } finally {
    await client.close();
  }
  report(
    `(b) MCP tool call vs the REST call it wraps (streamable HTTP, one session, ${options.calls} sequential calls each, alternating)`,
    table([
      ['tool', 'REST call', 'MCP median', 'MCP p99', 'REST median', 'REST p99', 'MCP/REST', 'MCP answer', 'REST body'],
      ...out.map((f) => [
        f.tool,
        f.rest,
        ms(f.mcpMedian),
        ms(f.mcpP99),
        ms(f.restMedian),
        ms(f.restP99),
        ratio(f.ratio),
        `${int(f.mcpChars)} ch`,
        `${int(f.restChars)} ch`,
      ]),
    ]),
  );
  return out;
}
