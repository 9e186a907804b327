import { parseArgs } from 'node:util';
import { runStdioMcp } from '../src/mcp/stdio.js';

const USAGE = `usage: instantstart mcp [--url http://127.0.0.1:3099] [--token TOKEN]

An MCP server on stdin/stdout whose tools call a running InstantStart server's REST API.`;

export async function runMcpCommand(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      url: { type: 'string', default: process.env.INSTANTSTART_URL ?? 'http://127.0.0.1:3099' },
      token: { type: 'string', default: process.env.INSTANTSTART_API_TOKEN },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    process.stderr.write(`${USAGE}\n`);
    return;
  }
  await runStdioMcp({ url: values.url, token: values.token });
}
