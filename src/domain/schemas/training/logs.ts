import { z } from 'zod';
import { RegionSchema } from '../common.js';

/**
 * A job's logs: the capped tail (JSON, or a text download of every line) and the follow WebSocket,
 * its query and the messages it sends.
 */

export const LogRankSchema = z
  .union([z.literal('all'), z.coerce.number().int().min(0).max(100_000)])
  .default('all')
  .describe('One rank (its number), or all for every rank merged line by line with [rank N] prefixes.');

const logQueryFields = {
  region: RegionSchema.optional(),
  rank: LogRankSchema,
  tailLines: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000)
    .optional()
    .describe(
      'Last lines per rank (at most 10 000; default 500; the follow stream continues from there). With ' +
        "grep: the last matching lines, searched in each rank's last 100 000 lines. The download " +
        '(format=text) is the whole log unless given.',
    ),
  sinceSeconds: z.coerce
    .number()
    .int()
    .min(1)
    .max(30 * 86_400)
    .optional()
    .describe('Only lines of the last this many seconds.'),
  limitBytes: z.coerce
    .number()
    .int()
    .min(1024)
    .max(10 * 1024 * 1024)
    .optional()
    .describe(
      "Cap in bytes (default 1 MiB) on each rank's lines and on the whole answer as `[rank N] …` text, all " +
        'ranks merged; the oldest lines go first. Not with format=text (the download streams every line).',
    ),
  grep: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('Only lines containing this text. Plain, case-sensitive; not a regular expression.'),
  previous: z
    .enum(['true', 'false'])
    .default('false')
    .describe('true: the previous container run of each pod (what a crashed rank printed before its restart).'),
};

export const TrainingLogsQuerySchema = z
  .object({
    ...logQueryFields,
    format: z
      .enum(['json', 'text'])
      .default('json')
      .describe(
        "json: the capped tail as lines; text: a download (text/plain attachment) of every rank's lines merged by time, each `[rank N] …`, streamed.",
      ),
  })
  .strict()
  .superRefine((q, ctx) => {
    if (q.format === 'text' && q.limitBytes !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['limitBytes'],
        message:
          'does not go with format=text: the download streams every line; bound it with tailLines or sinceSeconds',
      });
  });
export type TrainingLogsQuery = z.output<typeof TrainingLogsQuerySchema>;

/** The follow WebSocket's query: the tail's options (no download, no previous run: that one is over) and the browser's token. */
export const TrainingLogsFollowQuerySchema = z
  .object({
    ...logQueryFields,
    previous: z
      .literal('false', 'must be false: the previous run is over; read it with GET …/logs?previous=true')
      .default('false')
      .describe('Always false for a follow.'),
    token: z
      .string()
      .max(1024)
      .optional()
      .describe("The API token, for browsers (they cannot set a WebSocket's headers)."),
  })
  .strict();
export type TrainingLogsFollowQuery = z.output<typeof TrainingLogsFollowQuerySchema>;

export const LogLineSchema = z
  .object({
    rank: z.number().int(),
    pod: z.string(),
    time: z.string().optional().describe('RFC 3339 time Kubernetes recorded for the line.'),
    text: z.string(),
  })
  .describe('One log line of one rank.');
export type LogLine = z.infer<typeof LogLineSchema>;

export const TrainingLogsAnswerSchema = z
  .object({
    job: z.string(),
    lines: z.array(LogLineSchema).describe('Oldest first; all ranks merged by time.'),
    truncated: z.boolean().describe('True when tailLines or limitBytes cut older lines off.'),
    ranks: z
      .array(z.object({ rank: z.number().int(), pod: z.string(), error: z.string().optional() }))
      .describe('The ranks read, with why one could not be (e.g. not started yet).'),
  })
  .describe("The tail of a job's logs. Follow live over the WebSocket at the logsFollow path.");
export type TrainingLogsAnswer = z.infer<typeof TrainingLogsAnswerSchema>;

/**
 * What the follow WebSocket sends, one JSON message each: the capped tail first (`line`s), then
 * `tail-end`, then new lines as they come. A client that does not keep up is sent `dropped` and
 * closed (the server never buffers without bound); reconnect with sinceSeconds to resume.
 */
export const LogStreamMessageSchema = z.discriminatedUnion('type', [
  LogLineSchema.extend({ type: z.literal('line') }),
  z.object({ type: z.literal('tail-end'), ranks: z.array(z.object({ rank: z.number().int(), pod: z.string() })) }),
  z.object({ type: z.literal('rank-ended'), rank: z.number().int(), pod: z.string(), reason: z.string() }),
  z.object({ type: z.literal('rank-started'), rank: z.number().int(), pod: z.string() }),
  z.object({ type: z.literal('dropped'), reason: z.string() }),
  z.object({ type: z.literal('error'), message: z.string() }),
]);
export type LogStreamMessage = z.infer<typeof LogStreamMessageSchema>;
