import { z } from 'zod';
import {
  AcceptedSchema,
  ListOperationsQuerySchema,
  LogLineSchema,
  OperationEventsQuerySchema,
  OperationViewSchema,
  WaitQuerySchema,
} from '../../domain/schemas/operations.js';
import { accepted } from '../../api/accepted.js';
import type { RouteContext } from '../capability.js';
import { OPERATION_PATHS } from './paths.js';

const IdParams = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, 'must be an operation id')
    .describe('Operation id.'),
});
const PhaseParams = IdParams.extend({
  phase: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[a-z0-9-]+$/, 'must be a phase name such as hyperpod')
    .describe('Phase name.'),
});

export function registerOperationRoutes({ app, routes, api: ctx, checkRetry }: RouteContext<never>): void {
  routes.define(
    app,
    {
      method: 'GET',
      url: OPERATION_PATHS.list,
      operationId: 'listOperations',
      tags: ['operations'],
      summary: 'List operations, newest first',
      query: ListOperationsQuerySchema,
      responses: { 200: { description: 'Operations', schema: z.object({ operations: z.array(OperationViewSchema) }) } },
    },
    async ({ query }) => ({ operations: ctx.operations.list(query) }),
  );
  routes.define(
    app,
    {
      method: 'GET',
      url: OPERATION_PATHS.one,
      operationId: 'getOperation',
      tags: ['operations'],
      summary: "An operation with each phase's status, duration, progress and error",
      params: IdParams,
      responses: { 200: { description: 'Operation', schema: OperationViewSchema } },
    },
    async ({ params }) => ctx.operations.get(params.id),
  );
  routes.define(
    app,
    {
      method: 'GET',
      url: OPERATION_PATHS.wait,
      operationId: 'waitForOperation',
      tags: ['operations'],
      summary: 'Block until the operation is terminal or timeoutSeconds pass, then return it',
      params: IdParams,
      query: WaitQuerySchema,
      responses: { 200: { description: 'Operation', schema: OperationViewSchema } },
    },
    async ({ params, query }) => {
      ctx.operations.get(params.id); // 404 first
      return ctx.operations.waitFor(params.id, query.timeoutSeconds * 1000);
    },
  );
  routes.define(
    app,
    {
      method: 'GET',
      url: OPERATION_PATHS.events,
      operationId: 'getOperationEvents',
      tags: ['operations'],
      summary: "Log lines of an operation's phases, paged by sequence number",
      params: IdParams,
      query: OperationEventsQuerySchema,
      responses: {
        200: {
          description: 'Log lines',
          schema: z.object({ lines: z.array(LogLineSchema), nextAfter: z.number().int() }),
        },
      },
    },
    async ({ params, query }) => ctx.operations.events(params.id, query.after, query.limit),
  );
  routes.define(
    app,
    {
      method: 'POST',
      url: OPERATION_PATHS.retryPhase,
      operationId: 'retryOperationPhase',
      tags: ['operations'],
      summary: 'Retry the failed phase of a failed operation; it starts by observing, so nothing is done twice',
      params: PhaseParams,
      description:
        'Some kinds are checked again first: a scale (or an update that changes the count) whose count no longer fits the quotas or the training plan is refused with 422 naming the quota and the fix, and nothing is retried.',
      responses: { 202: { description: 'Operation resumed', schema: AcceptedSchema } },
    },
    async ({ params }) => {
      // The operation's own capability may check first that a retry still makes sense (a scale's quotas).
      await checkRetry(ctx.operations.get(params.id));
      // Only a failed operation can be retried, so a retry that is accepted always starts one anew: not a replay.
      return accepted({ operation: ctx.operations.retryPhase(params.id, params.phase), existing: false });
    },
  );
  routes.define(
    app,
    {
      method: 'POST',
      url: OPERATION_PATHS.cancel,
      operationId: 'cancelOperation',
      tags: ['operations'],
      summary: 'Cancel a running operation at its next safe point',
      params: IdParams,
      responses: { 202: { description: 'Cancellation accepted', schema: AcceptedSchema } },
    },
    async ({ params }) => {
      // existing: this cancellation was asked before (the operation is already stopping); a first one is not.
      const askedBefore = ctx.operations.get(params.id).status === 'cancelling';
      return accepted({ operation: ctx.operations.cancel(params.id), existing: askedBefore });
    },
  );
}
