import { parseArgs } from 'node:util';
import { runStdioMcp } from '../src/mcp/stdio.js';
import { parseToolGroups, TOOL_GROUP_NAMES, type ToolGroup } from '../src/mcp/tool-groups.js';

const USAGE = `usage: instantstart mcp [--url http://127.0.0.1:3099] [--token TOKEN] [--tools ${TOOL_GROUP_NAMES.join(',')}]

An MCP server on stdin/stdout whose tools call a running InstantStart server's REST API.
--tools serves only those tool groups (with the operations tools every group needs): an agent loads what its task
needs. Default: every tool.`;

export async function runMcpCommand(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      url: { type: 'string', default: process.env.INSTANTSTART_URL ?? 'http://127.0.0.1:3099' },
      token: { type: 'string', default: process.env.INSTANTSTART_API_TOKEN },
      tools: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    process.stderr.write(`${USAGE}\n`);
    return;
  }
  let groups: ToolGroup[] | undefined;
  try {
    groups = parseToolGroups(values.tools);
  } catch (err) {
    process.stderr.write(
      `instantstart mcp: --tools ${err instanceof Error ? err.message.replace(/^tools: /, '') : String(err)}\n`,
    );
    process.exitCode = 2;
    return;
  }
  await runStdioMcp({ url: values.url, token: values.token, ...(groups ? { groups } : {}) });
}
