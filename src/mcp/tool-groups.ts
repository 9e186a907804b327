import { TOOLS_BY_CAPABILITY } from '../capabilities/index.js';
import { InputError } from '../domain/errors.js';
import type { ToolRegistration } from './tool-set.js';

/**
 * Tool groups a client can ask for (`/mcp?tools=cluster,diagnostics`, `instantstart mcp --tools …`), so an agent
 * loads only what its task needs: every tool in `tools/list` costs its context in every conversation (docs/MCP.md →
 * Tool list size). Groups are unions of capabilities; the operations and system tools (polling, the server's info)
 * come with every group, since every mutating tool's answer names one of them.
 */
export const TOOL_GROUPS = {
  /** Clusters and what they are made of: lifecycle, instance groups, nodes, features, autoscaling, storage, the catalog. */
  cluster: ['clusters', 'instance-groups', 'nodes', 'features', 'autoscaling', 'storage', 'catalog'],
  /** What runs on a cluster: model downloads, training, inference. */
  workloads: ['model-downloads', 'training', 'inference'],
  /** The read-only investigations, the audit timeline (who changed what) and the account's readiness check. */
  diagnostics: ['diagnostics', 'audit', 'doctor'],
} as const satisfies Record<string, readonly string[]>;

export type ToolGroup = keyof typeof TOOL_GROUPS;
export const TOOL_GROUP_NAMES = Object.keys(TOOL_GROUPS) as ToolGroup[];

/** Capabilities whose tools every group carries. */
const ALWAYS = ['operations', 'system'];

/**
 * The groups a `tools` parameter names (comma-separated; empty or absent: every tool), in a canonical order so that
 * equal requests share one tool set. An unknown name is refused naming it and the groups there are.
 */
export function parseToolGroups(text: string | undefined): ToolGroup[] | undefined {
  const names = (text ?? '')
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  if (names.length === 0) return undefined;
  for (const n of names)
    if (!Object.hasOwn(TOOL_GROUPS, n))
      throw InputError.field('tools', `names no tool group '${n}' (groups: ${TOOL_GROUP_NAMES.join(', ')})`);
  return TOOL_GROUP_NAMES.filter((g) => names.includes(g));
}

/** The tool registrations of some groups (with the tools every group carries), capability by capability. */
export function toolsOfGroups(groups: readonly ToolGroup[]): ToolRegistration[] {
  const capabilities = new Set<string>([...ALWAYS, ...groups.flatMap((g) => TOOL_GROUPS[g])]);
  return [...TOOLS_BY_CAPABILITY].filter(([name]) => capabilities.has(name)).flatMap(([, tools]) => tools);
}

/** Every capability is in a group or always served: a new capability's tools cannot fall out of every group. */
export function capabilitiesOutsideGroups(): string[] {
  const grouped = new Set<string>([...ALWAYS, ...Object.values(TOOL_GROUPS).flat()]);
  return [...TOOLS_BY_CAPABILITY]
    .filter(([name, tools]) => tools.length > 0 && !grouped.has(name))
    .map(([name]) => name);
}
