import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import type { TestSandbox } from '../helpers/sandbox.js';
import { startSandboxAndServer, stopAll, type TestServer } from '../helpers/server.js';

/**
 * A client nobody here wrote: the official MCP Inspector's CLI (`@modelcontextprotocol/inspector`,
 * `--cli`) lists the tools, prompts and resources and calls a read tool, over streamable HTTP and over
 * stdio (`instantstart mcp`). 0.15.0 is its newest release that runs on Node 20: from 0.16.0 on it asks for
 * Node ≥ 22.7.5 (package.json engines), 2.x for ≥ 22.19.
 * INSTANTSTART_TEST_INSPECTOR may name another install's `mcp-inspector` (to try a release by hand).
 */
const INSPECTOR =
  process.env.INSTANTSTART_TEST_INSPECTOR ?? join(process.cwd(), 'node_modules', '.bin', 'mcp-inspector');
const missing = existsSync(INSPECTOR)
  ? false
  : `the MCP Inspector is not installed (${INSPECTOR}): add the devDependency "@modelcontextprotocol/inspector": "0.15.0" and run npm install`;

const run = promisify(execFile);

/** One Inspector CLI call; its stdout is the JSON answer. */
async function inspector(target: string[], method: string, ...options: string[]): Promise<any> {
  const { stdout } = await run(process.execPath, [INSPECTOR, '--cli', ...target, '--method', method, ...options], {
    timeout: 60_000,
    maxBuffer: 32 * 1024 * 1024,
  });
  return JSON.parse(stdout);
}

const playbooks = () =>
  readdirSync(join(process.cwd(), 'agent', 'skills'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => f.replace(/\.md$/, ''))
    .sort();

describe('the official MCP Inspector CLI lists tools, prompts and resources and calls a read tool', {
  skip: missing,
}, () => {
  let sb: TestSandbox;
  let server: TestServer;
  before(async () => {
    ({ sb, server } = await startSandboxAndServer(600));
  });
  after(() => stopAll(server, sb));

  const transports: Array<[string, () => string[]]> = [
    ['streamable HTTP', () => [`${server.url}/mcp`, '--transport', 'http']],
    // The wrapper passes everything after --cli that is not its own option on to the command.
    ['stdio (instantstart mcp)', () => [process.execPath, 'bin/instantstart.mjs', 'mcp', '--url', server.url]],
  ];
  for (const [transport, target] of transports) {
    it(`over ${transport}`, async () => {
      const { tools } = await inspector(target(), 'tools/list');
      const names = tools.map((t: { name: string }) => t.name);
      for (const name of ['get_server_info', 'create_cluster', 'wait_for_operation', 'get_operation_logs'])
        assert.ok(names.includes(name), `${name} is listed`);

      const info = await inspector(target(), 'tools/call', '--tool-name', 'get_server_info');
      assert.equal(info.isError, undefined, JSON.stringify(info));
      assert.equal(info.structuredContent.cloud, 'sandbox');
      assert.match(info.content[0].text, /sandbox/);

      const { prompts } = await inspector(target(), 'prompts/list');
      assert.deepEqual(prompts.map((p: { name: string }) => p.name).sort(), playbooks());

      const { resources } = await inspector(target(), 'resources/list');
      const uris = resources.map((r: { uri: string }) => r.uri);
      for (const uri of ['instantstart://docs/README.md', 'instantstart://docs/MCP.md', 'instantstart://openapi.json'])
        assert.ok(uris.includes(uri), `${uri} is listed`);
    });
  }
});
