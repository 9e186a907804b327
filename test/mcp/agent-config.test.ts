import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { hintsOf, inMemoryToolClient } from './client-helpers.js';

/**
 * The Kiro agent config (agent/hypd-inst-agent.json) against the live tool list: its prompt's rule
 * lists are read from the tools' own annotations and output schemas, so adding or changing a tool
 * without updating the prompt fails here; its timeouts cover the longest tool call.
 */

interface AgentConfig {
  prompt: string;
  mcpServers: Record<string, { timeout?: number; requestTimeout?: number }>;
}

function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return dir;
}

/** The tool names a prompt sentence lists after `lead`, up to the sentence's end. */
function listAfter(prompt: string, lead: string): string[] {
  const at = prompt.indexOf(lead);
  assert.ok(at >= 0, `the prompt has the list "${lead}"`);
  const rest = prompt.slice(at + lead.length);
  const list = rest.slice(0, rest.search(/[.;]/));
  return list
    .split(',')
    .map((s) => s.trim().replace(/`/g, ''))
    .filter(Boolean)
    .sort();
}

const names = (tools: Tool[]) => tools.map((t) => t.name).sort();

describe('the Kiro agent config matches the tools', () => {
  let client: Client;
  let tools: Tool[];
  let agent: AgentConfig;
  before(async () => {
    ({ client, tools } = await inMemoryToolClient());
    agent = JSON.parse(readFileSync(join(repoRoot(), 'agent/hypd-inst-agent.json'), 'utf8')) as AgentConfig;
  });
  after(() => client.close());

  const answersWithOperation = (t: Tool) =>
    Boolean(t.outputSchema?.properties && 'statusTool' in t.outputSchema.properties);
  const mutating = (t: Tool) => !hintsOf(t).readOnlyHint;

  it('lists exactly the tools that answer with an operation as the ones to poll', () => {
    assert.deepEqual(
      listAfter(agent.prompt, 'Tools that answer with an operation that is NOT done:'),
      names(tools.filter(answersWithOperation)),
    );
  });

  it('names every other mutating tool as answering at once, so no mutating tool is left out of the rules', () => {
    assert.deepEqual(
      listAfter(agent.prompt, 'Tools that change something and answer at once (no operation):'),
      names(tools.filter((t) => mutating(t) && !answersWithOperation(t))),
    );
  });

  it('asks for an explicit yes before exactly the destructive tools', () => {
    assert.deepEqual(
      listAfter(agent.prompt, 'before you call them:'),
      names(tools.filter((t) => hintsOf(t).destructiveHint)),
    );
  });

  it('gives Kiro a per-call timeout (requestTimeout) longer than the longest wait_for_operation, and the same handshake timeout', () => {
    const server = agent.mcpServers.instantstart!;
    const wait = tools.find((t) => t.name === 'wait_for_operation')!;
    const longest = (wait.inputSchema.properties?.timeoutSeconds as { maximum: number }).maximum;
    assert.ok(
      server.requestTimeout !== undefined && server.requestTimeout >= (longest + 20) * 1000,
      `requestTimeout ${server.requestTimeout} ms covers a ${longest} s wait`,
    );
    // Older Kiro releases read `timeout` per request; current ones for the handshake only.
    assert.equal(server.timeout, server.requestTimeout);
  });
});

/**
 * The read-only Kiro agent (agent/hypd-inst-diagnostics.json): it loads exactly the read tools — every tool whose
 * annotations say readOnlyHint, and nothing else, so a new read tool must be added and a mutating one cannot be — and
 * sends a read-scoped token, so the server refuses a change even if a tool list were wrong.
 */
describe('the read-only diagnostics agent config', () => {
  let client: Client;
  let tools: Tool[];
  let agent: AgentConfig & {
    tools: string[];
    allowedTools: string[];
    mcpServers: Record<string, { headers?: Record<string, string> }>;
  };
  before(async () => {
    ({ client, tools } = await inMemoryToolClient());
    agent = JSON.parse(readFileSync(join(repoRoot(), 'agent/hypd-inst-diagnostics.json'), 'utf8'));
  });
  after(() => client.close());

  const listed = (entries: string[]) =>
    entries
      .filter((t) => t.startsWith('@instantstart/'))
      .map((t) => t.slice('@instantstart/'.length))
      .sort();

  it('loads and allows exactly the read-only tools', () => {
    const readOnly = names(tools.filter((t) => hintsOf(t).readOnlyHint));
    assert.ok(readOnly.includes('diagnose_node') && readOnly.includes('diagnose_cluster_creation'));
    assert.deepEqual(listed(agent.tools), readOnly);
    assert.deepEqual(listed(agent.allowedTools), readOnly);
    assert.ok(!agent.tools.includes('@instantstart'), 'never the whole server');
  });

  it('sends a read-scoped token and has the same timeouts as the operating agent', () => {
    const server = agent.mcpServers.instantstart!;
    assert.equal(server.headers?.Authorization, 'Bearer ${INSTANTSTART_READ_TOKEN}');
    const operating = JSON.parse(readFileSync(join(repoRoot(), 'agent/hypd-inst-agent.json'), 'utf8')) as AgentConfig;
    assert.equal(server.requestTimeout, operating.mcpServers.instantstart!.requestTimeout);
  });
});
