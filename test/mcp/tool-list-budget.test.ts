import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { capabilityTools } from '../../src/mcp/server.js';
import { capabilitiesOutsideGroups, parseToolGroups, TOOL_GROUP_NAMES } from '../../src/mcp/tool-groups.js';
import { inMemoryToolClient } from './client-helpers.js';

/**
 * The `tools/list` answer is read by an agent in every conversation: its size is context the agent cannot use
 * for the user's work. Measured as the JSON a client receives, in characters (≈ 4 per token). docs/MCP.md →
 * Tool list size has the figures and what each part holds.
 *
 * Issue 29's bound: 80,000 characters (20k tokens). The schemas' listed form (src/mcp/listed-schema.ts) brought 418k
 * down to 117k; shorter descriptions, the shared fields said once in the server instructions and the hints MCP
 * assumes left out brought it under the bound. Never raise it to let a new tool in: trim.
 */
const BUDGET = 80_000;

/** One line per tool, biggest first: where the characters are when the budget is broken. */
function sizes(tools: Tool[]): string {
  const rows = tools.map(({ name, description, inputSchema, outputSchema, annotations }) => {
    const parts = {
      description: (description ?? '').length,
      input: JSON.stringify(inputSchema).length,
      output: outputSchema ? JSON.stringify(outputSchema).length : 0,
      annotations: JSON.stringify(annotations ?? {}).length,
    };
    return { name, total: Object.values(parts).reduce((a, b) => a + b, 0), parts };
  });
  const sum = (part: keyof (typeof rows)[number]['parts']) => rows.reduce((a, r) => a + r.parts[part], 0);
  return [
    `descriptions ${sum('description')}, input schemas ${sum('input')}, output schemas ${sum('output')}, annotations ${sum('annotations')}`,
    ...rows
      .sort((a, b) => b.total - a.total)
      .map(
        (r) =>
          `${r.name}: ${r.total} (${Object.entries(r.parts)
            .map(([k, v]) => `${k} ${v}`)
            .join(', ')})`,
      ),
  ].join('\n');
}

describe('the tools/list budget', () => {
  let client: Client;
  let tools: Tool[];

  before(async () => {
    ({ client, tools } = await inMemoryToolClient());
  });
  after(() => client.close());

  it(`lists every tool in under ${BUDGET} characters of JSON`, () => {
    assert.deepEqual(
      tools.map((t) => t.name),
      capabilityTools().names,
      'every registered tool is listed (none dropped to fit)',
    );
    const length = JSON.stringify({ tools }).length;
    assert.ok(length < BUDGET, `tools/list is ${length} characters (budget ${BUDGET}):\n${sizes(tools)}`);
  });

  it('lists answer shapes that the answers still validate against (the client checks every structuredContent)', () => {
    for (const tool of tools.filter((t) => t.outputSchema)) {
      const schema = tool.outputSchema as { type: string; properties?: Record<string, unknown>; required?: unknown };
      assert.equal(schema.type, 'object', tool.name);
      assert.ok(Object.keys(schema.properties ?? {}).length > 0, `${tool.name}: its top-level properties are listed`);
      assert.equal(schema.required, undefined, `${tool.name}: the listed shape requires nothing the answer may omit`);
    }
  });

  it('each tool group lists under 80,000 characters (20k tokens), with the polling tools; together they cover every tool', () => {
    assert.deepEqual(capabilitiesOutsideGroups(), [], 'every capability with tools is in a group');
    const covered = new Set<string>();
    for (const group of TOOL_GROUP_NAMES) {
      const set = capabilityTools([group]);
      const length = JSON.stringify({ tools: set.definitions }).length;
      assert.ok(length < 80_000, `group ${group}: ${length} characters\n${sizes([...set.definitions])}`);
      assert.ok(set.names.includes('wait_for_operation'), `group ${group} carries the polling tool`);
      for (const n of set.names) covered.add(n);
    }
    assert.deepEqual([...covered].sort(), [...capabilityTools().names].sort());
  });

  it('refuses an unknown group naming the groups there are; equal requests share one tool set', () => {
    assert.throws(
      () => parseToolGroups('cluster,gpu'),
      /tools: names no tool group 'gpu' \(groups: cluster, workloads, diagnostics\)/,
    );
    assert.equal(parseToolGroups(' '), undefined);
    assert.deepEqual(parseToolGroups('diagnostics, cluster'), ['cluster', 'diagnostics']);
    assert.equal(capabilityTools(['cluster', 'diagnostics']), capabilityTools(parseToolGroups('diagnostics,cluster')));
  });
});
