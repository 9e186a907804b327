import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { apiPath } from '../../../domain/api-path.js';
import { TrainingLogsAnswerSchema, TrainingLogsQuerySchema, type TrainingLogsAnswer } from '../../../domain/schemas/training.js';
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
    title: 'Read a training job\'s logs',
    description:
      'The last lines of a training job\'s logs: one rank, or every rank merged by time with [rank N] prefixes. Use it to see how far a job got (step, loss, tokens/s), ' +
      'why a rank crashed (previous=true reads the run before its restart), or to search (grep: plain text, case-sensitive). ' +
      `Capped: tailLines per rank (default ${MCP_TAIL_LINES}) and limitBytes (default ${MCP_LIMIT_BYTES / 1024} KiB) per rank and for the whole answer, oldest lines dropped first; the answer says when it was cut and how to see more. ` +
      'Ranks that could not be read are listed with why (not started yet, no previous run).',
    input: z
      .object({
        ...JobRefInput,
        rank: z.union([z.literal('all'), z.number().int().min(0).max(100_000)]).default('all').describe('One rank (its number), or all (default) for every rank merged by time.'),
        tailLines: z.number().int().min(1).max(10_000).default(MCP_TAIL_LINES).describe(`Last lines per rank (1–10 000, default ${MCP_TAIL_LINES}). With grep: the last matching lines.`),
        sinceSeconds: z.number().int().min(1).max(30 * 86_400).optional().describe('Only lines of the last this many seconds.'),
        limitBytes: z.number().int().min(1024).max(10 * 1024 * 1024).default(MCP_LIMIT_BYTES).describe(`Cap in bytes (default ${MCP_LIMIT_BYTES}) per rank and on the lines of the whole answer (all ranks merged); the oldest lines go first.`),
        grep: q.grep,
        previous: z.boolean().default(false).describe('true: the previous container run of each rank (what a crashed rank printed before it restarted).'),
      })
      .strict(),
    output: TrainingLogsAnswerSchema,
    annotations: { ...READ_ONLY, openWorldHint: true },
    restFields: { name: 'cluster' },
    async run({ cluster, namespace, job, previous, ...query }, { api, signal }) {
      const path = apiPath(TRAINING_PATHS.jobLogs, { name: cluster, namespace, job });
      const read = await api.get<TrainingLogsAnswer>(path, { query: { ...query, previous: String(previous) }, signal });
      return { text: logsText(read, { ...query, previous }), data: read };
    },
  });
}

/** The lines as an agent reads them, then what was cut and which ranks could not be read. */
function logsText(v: TrainingLogsAnswer, asked: { rank: number | 'all'; tailLines: number; limitBytes: number; grep?: string; previous: boolean }): string {
  const which = `${asked.rank === 'all' ? 'all ranks' : `rank ${asked.rank}`}${asked.previous ? ', previous run' : ''}${asked.grep ? `, lines containing "${asked.grep}"` : ''}`;
  const head = v.lines.length ? `${v.lines.length} line(s) of job ${v.job} (${which}), oldest first:` : `No log lines of job ${v.job} (${which}).`;
  const notes: string[] = [];
  if (v.truncated) {
    notes.push(
      `(truncated: older lines were cut by tailLines=${asked.tailLines} per rank or limitBytes=${asked.limitBytes} per rank and in all. See more with a larger tailLines/limitBytes, ` +
        `one rank at a time (rank), a narrower grep or sinceSeconds; the whole log is a download: GET ${TRAINING_PATHS.jobLogs}?format=text.)`,
    );
  }
  for (const r of v.ranks) if (r.error) notes.push(`(rank ${r.rank}${r.pod ? ` ${r.pod}` : ''}: ${r.error})`);
  return [head, ...v.lines.map((l) => `[rank ${l.rank}] ${l.text}`), ...notes].join('\n');
}
