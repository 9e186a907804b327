import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ApiContext } from '../context.js';
import type { RouteRegistry } from '../route.js';

export function registerSystemRoutes(app: FastifyInstance, routes: RouteRegistry, ctx: ApiContext): void {
  // Liveness answers probes that address the server by any name (a pod IP, a load balancer): it says nothing else.
  app.get('/healthz', { config: { guard: 'liveness' } }, async () => ({ status: 'ok' }));
  routes.define(
    app,
    {
      method: 'GET', url: '/api/v1/config', operationId: 'getConfig', tags: ['system'],
      summary: 'Which cloud this server talks to (sandbox or AWS), its default Region and account',
      responses: {
        200: {
          description: 'Server configuration',
          schema: z.object({ cloud: z.enum(['sandbox', 'aws']), region: z.string(), accountId: z.string().nullable(), version: z.string() }),
        },
      },
    },
    async () => ({
      cloud: ctx.config.cloud,
      region: ctx.config.region,
      accountId: await ctx.accountId().catch(() => null),
      version: ctx.config.version,
    }),
  );
}
