import * as all from './all.js';
import type { Capability, ToolRegistration } from './capability.js';

/** Every capability of all.ts (a module namespace lists its exports in name order). */
export const CAPABILITIES: readonly Capability<unknown>[] = Object.values(all) as Capability<unknown>[];

/** Every MCP tool registration, capability by capability. */
export const CAPABILITY_TOOLS: readonly ToolRegistration[] = CAPABILITIES.flatMap((c) => c.tools ?? []);

/** Each capability's MCP tool registrations, by the capability's name (for the MCP tool groups, src/mcp/tool-groups.ts). */
export const TOOLS_BY_CAPABILITY: ReadonlyMap<string, readonly ToolRegistration[]> = new Map(
  CAPABILITIES.map((c) => [c.name, c.tools ?? []]),
);

export type { Capability, RouteContext, ServiceDeps, ServiceOperations, ToolRegistration } from './capability.js';
export { defineCapability } from './capability.js';
