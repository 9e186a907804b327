import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { apiPath } from '../../../domain/api-path.js';
import { TrainingLogsQuerySchema, type TrainingLogsAnswer } from '../../../domain/schemas/training.js';
import type { RestClient } from '../../../mcp/rest-client.js';
import { READ_ONLY, registerRestTool } from '../../../mcp/tool-kit.js';
import { TRAINING_PATHS } from '../paths.js';
import { JobRefInput } from './get-job.js';

const q = TrainingLogsQuerySchema.shape;

/** Smaller than the REST defaults: an agent's context is not a log viewer. */
const MCP_TAIL_LINES = 200;
const MCP_LIMIT_BYTES = 64 * 1024;

/** `get_job_logs` → GET /api/v1/clusters/{name}/jobs/{namespace}/{job}/logs: the capped tail, `[rank N]`-prefixed. */
export function registerGetJobLogsTool(server: McpServer, api: RestClient): void {
  registerRestTool(server, api, {
    name: 'get_job_logs',
    title: "Read a training job's logs",
    description:
      "A training job's last log lines, one rank or all merged by time: progress, why a rank crashed (previous: true), grep. Capped by tailLines and limitBytes (the answer says when cut). Text only.",
    input: z
      .object({
        ...JobRefInput,
        rank: z
          .union([z.literal('all'), z.number().int().min(0).max(100_000)])
          .default('all')
          .describe('One rank (its number), or all (default) for every rank merged by time.'),
        tailLines: z
          .number()
          .int()
          .min(1)
          .max(10_000)
          .default(MCP_TAIL_LINES)
          .describe(`Last lines per rank (1–10 000, default ${MCP_TAIL_LINES}). With grep: the last matching lines.`),
        sinceSeconds: z
          .number()
          .int()
          .min(1)
          .max(30 * 86_400)
          .optional()
          .describe('Only lines of the last this many seconds.'),
        limitBytes: z
          .number()
          .int()
          .min(1024)
          .max(10 * 1024 * 1024)
          .default(MCP_LIMIT_BYTES)
          .describe(
            `Cap in bytes per rank and on the whole answer. The oldest lines go first (default ${MCP_LIMIT_BYTES}).`,
          ),
        grep: q.grep,
        previous: z.boolean().default(false).describe("true: each rank's run before its last restart."),
      })
      .strict(),
    textOnly:
      'log lines are text: sent once, in the text (the whole answer within limitBytes), not again as structured ' +
      'content',
    annotations: { ...READ_ONLY, openWorldHint: true },
    restFields: { name: 'cluster' },
    async run({ cluster, namespace, job, previous, ...query }, { api, signal }) {
      const path = apiPath(TRAINING_PATHS.jobLogs, { name: cluster, namespace, job });
      const read = await api.get<TrainingLogsAnswer>(path, { query: { ...query, previous: String(previous) }, signal });
      return { text: logsText(read, { ...query, previous }), data: undefined };
    },
  });
}

/** What the JSON-RPC answer wraps around the text (`{"jsonrpc":"2.0","id":…,"result":{"content":[{"type":"text","text":…}]}}`), with room to spare. */
const ENVELOPE_BYTES = 256;
/** A text's size inside the JSON answer: escapes (quotes, backslashes, newlines, control characters) count. */
const encodedBytes = (text: string) => Buffer.byteLength(JSON.stringify(text)) - 2;

type Asked = { rank: number | 'all'; tailLines: number; limitBytes: number; grep?: string; previous: boolean };

/**
 * The lines as an agent reads them, then what was cut and which ranks could not be read. The whole
 * answer, as sent, stays within limitBytes: the REST cap counts the lines alone, so the oldest lines
 * that would push the head, the notes or JSON's escapes past it are dropped here too.
 */
function logsText(v: TrainingLogsAnswer, asked: Asked): string {
  const lines = v.lines.map((l) => `[rank ${l.rank}] ${l.text}`);
  const budget = asked.limitBytes - ENVELOPE_BYTES;
  const fixed = encodedBytes([head(v, asked, v.lines.length), ...notes(v, asked, true)].join('\n'));
  let kept = 0;
  for (let used = fixed, i = lines.length - 1; i >= 0; i--, kept++) {
    used += encodedBytes(lines[i]!) + 2;
    if (used > budget) break;
  }
  const cut = kept < lines.length;
  return [head(v, asked, kept), ...lines.slice(lines.length - kept), ...notes(v, asked, v.truncated || cut)].join('\n');
}

function head(v: TrainingLogsAnswer, asked: Asked, count: number): string {
  const which = `${asked.rank === 'all' ? 'all ranks' : `rank ${asked.rank}`}${asked.previous ? ', previous run' : ''}${asked.grep ? `, lines containing "${asked.grep}"` : ''}`;
  return count
    ? `${count} line(s) of job ${v.job} (${which}), oldest first:`
    : `No log lines of job ${v.job} (${which}).`;
}

function notes(v: TrainingLogsAnswer, asked: Asked, truncated: boolean): string[] {
  const out: string[] = [];
  if (truncated) {
    out.push(
      `(truncated: older lines were cut by tailLines=${asked.tailLines} per rank or limitBytes=${asked.limitBytes} per rank and in all. See more with a larger tailLines/limitBytes, ` +
        `one rank at a time (rank), a narrower grep or sinceSeconds; the whole log is a download: GET ${TRAINING_PATHS.jobLogs}?format=text.)`,
    );
  }
  for (const r of v.ranks) if (r.error) out.push(`(rank ${r.rank}${r.pod ? ` ${r.pod}` : ''}: ${r.error})`);
  return out;
}
