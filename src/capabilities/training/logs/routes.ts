import type { FastifyRequest } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import { parseOrThrow } from '../../../api/problem.js';
import {
  TrainingJobParamsSchema,
  TrainingLogsAnswerSchema,
  TrainingLogsFollowQuerySchema,
  TrainingLogsQuerySchema,
  type LogStreamMessage,
} from '../../../domain/schemas/training.js';
import type { RouteContext } from '../../capability.js';
import { TRAINING_PATHS } from '../paths.js';
import type { JobLogs, LogTarget } from './job-logs.js';

/**
 * Past this much unsent data on a follow socket the client is not keeping up: it is sent `dropped`
 * and closed, so the server's memory per client stays bounded (the UI reconnects with sinceSeconds).
 */
export const FOLLOW_BUFFER_CAP = 2 * 1024 * 1024;
/** WebSocket close codes of a follow (4000–4999 are the application's). */
export const CLOSE_DROPPED = 4008;
/**
 * How long a dropped client has to read its backlog and the close frame behind it before the socket
 * is cut (ws's own closing timeout). The close frame waits behind up to FOLLOW_BUFFER_CAP of unsent
 * lines: a client that paused for a few seconds and reads again must get `dropped` and 4008 as
 * documented, not an abnormal 1006; meanwhile it holds only that capped backlog.
 */
export const DROP_GRACE_MS = 30_000;
/** What a client may send on a follow socket: nothing but pings; anything bigger is not ours. */
const MAX_CLIENT_MESSAGE = 1024;

/** The follow's job, resolved before the upgrade so that a missing job or a bad field is an HTTP problem, not a socket. */
const followTargets = new WeakMap<
  FastifyRequest,
  { target: LogTarget; query: ReturnType<typeof TrainingLogsFollowQuerySchema.parse> }
>();

/**
 * The REST tail (JSON, or a streamed text download) and the follow WebSocket of a training job's
 * logs. The lead wires these into the training capability (index.ts) at merge.
 */
export function registerJobLogRoutes({ app, routes, service, region }: RouteContext<JobLogs>): void {
  routes.define(
    app,
    {
      method: 'GET',
      url: TRAINING_PATHS.jobLogs,
      operationId: 'getTrainingJobLogs',
      tags: ['training'],
      summary:
        "The capped tail of one rank's or every rank's log, merged by time (JSON), or a download of them (format=text)",
      description:
        'Per rank: the last tailLines lines (default 500) within limitBytes (default 1 MiB), and the whole answer (all ranks merged, as `[rank N] …` lines) within limitBytes too — oldest dropped first; truncated says so. Optionally of the last sinceSeconds, only lines containing grep, ' +
        'or of the previous container run (previous=true: what a crashed rank printed). ranks says which ranks were read and why one could not be (not started yet, no previous run). ' +
        'format=text answers text/plain as an attachment, every line `[rank N] …`, streamed (the whole log unless tailLines or sinceSeconds bound it). ' +
        `Follow live over the WebSocket at ${TRAINING_PATHS.jobLogsFollow} (docs/API.md: its messages).`,
      params: TrainingJobParamsSchema,
      query: TrainingLogsQuerySchema,
      responses: {
        200: {
          description: 'The tail (application/json), or the download (text/plain) with format=text',
          schema: TrainingLogsAnswerSchema,
        },
      },
    },
    async ({ params, query, reply }) => {
      const target = await service().target(
        region(query.region),
        params.name,
        params.namespace,
        params.job,
        query.rank,
      );
      if (query.format === 'json') return service().tail(target, query);
      const rankPart = query.rank === 'all' ? 'all-ranks' : `rank-${query.rank}`;
      reply
        .type('text/plain; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="${params.job}-${rankPart}${query.previous === 'true' ? '-previous' : ''}.log"`,
        );
      return service().download(target, query);
    },
  );

  app.route({
    method: 'GET',
    url: TRAINING_PATHS.jobLogsFollow.replace(/\{(\w+)\}/g, ':$1'),
    // Browsers cannot set a WebSocket's headers: the UI sends its token as ?token= (redacted from logs).
    config: { tokenInQuery: true },
    preHandler: async (request) => {
      const params = parseOrThrow(TrainingJobParamsSchema, request.params, 'path');
      const query = parseOrThrow(TrainingLogsFollowQuerySchema, request.query, 'query');
      followTargets.set(request, {
        target: await service().target(region(query.region), params.name, params.namespace, params.job, query.rank),
        query,
      });
    },
    handler: async (_request, reply) =>
      reply.code(426).header('upgrade', 'websocket').type('application/problem+json').send({
        type: 'about:blank',
        title: 'Upgrade Required',
        status: 426,
        detail: 'This path is a WebSocket: connect with Upgrade: websocket (docs/API.md → training job logs).',
      }),
    wsHandler: (socket: WebSocket, request: FastifyRequest) => {
      const resolved = followTargets.get(request);
      followTargets.delete(request);
      if (!resolved) return socket.close(1011, 'no job');
      let dropped = false;
      const session = service().follow(resolved.target, resolved.query, {
        send(message: LogStreamMessage) {
          if (socket.readyState !== socket.OPEN) return false;
          if (socket.bufferedAmount > FOLLOW_BUFFER_CAP) return false;
          socket.send(JSON.stringify(message));
          return true;
        },
        drop(reason: string) {
          if (dropped || socket.readyState !== socket.OPEN) return;
          dropped = true;
          // Best effort: it queues behind what the client has not read; the close follows it.
          socket.send(JSON.stringify({ type: 'dropped', reason } satisfies LogStreamMessage));
          socket.close(CLOSE_DROPPED, 'dropped');
          // A client that never reads again never completes the closing handshake: cut it after the grace.
          setTimeout(() => socket.terminate(), DROP_GRACE_MS).unref();
        },
        fail() {
          if (socket.readyState === socket.OPEN) socket.close(1011, 'the log stream failed');
        },
      });
      const end = () => session.stop();
      socket.on('close', end);
      socket.on('error', end);
      socket.on('message', (data: RawData) => {
        if (String(data).length > MAX_CLIENT_MESSAGE) socket.close(1009, 'message too big');
      });
    },
  });
}
