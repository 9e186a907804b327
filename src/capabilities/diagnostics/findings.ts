import type { Finding } from '../../domain/schemas/diagnostics.js';

/** One piece of evidence: where it was read, what it says. */
export const evidence = (source: string, detail: string) => ({ source, detail });

const ORDER: Record<Finding['severity'], number> = { critical: 0, warning: 1, info: 2 };

/** Most severe first (the schema's order), keeping the gathering order within a severity. */
export const bySeverity = (findings: Finding[]): Finding[] =>
  findings
    .map((f, i) => [f, i] as const)
    .sort((a, b) => ORDER[a[0].severity] - ORDER[b[0].severity] || a[1] - b[1])
    .map(([f]) => f);

/**
 * An MCP tool call as text, the way an agent (or a person in a client) would type it.
 *
 * @example
 * mcp('reboot_nodes', { cluster: 'demo', nodeIds: ['i-0abc'] }); // 'reboot_nodes {"cluster":"demo","nodeIds":["i-0abc"]}'
 */
export const mcp = (tool: string, args: Record<string, unknown>): string => `${tool} ${JSON.stringify(args)}`;
