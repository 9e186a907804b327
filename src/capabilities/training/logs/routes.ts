import { registerFollowSocket } from '../../../api/log-follow-socket.js';
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
import type { JobLogs } from './job-logs.js';

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

  registerFollowSocket(app, {
    url: TRAINING_PATHS.jobLogsFollow,
    async resolve(request) {
      const params = parseOrThrow(TrainingJobParamsSchema, request.params, 'path');
      const query = parseOrThrow(TrainingLogsFollowQuerySchema, request.query, 'query');
      const target = await service().target(
        region(query.region),
        params.name,
        params.namespace,
        params.job,
        query.rank,
      );
      return { target, query };
    },
    follow: ({ target, query }, sink) => service().follow(target, query, sink),
    dropped: (reason): LogStreamMessage => ({ type: 'dropped', reason }),
    docs: 'training job logs',
  });
}
