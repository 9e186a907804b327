import { ServerConfigViewSchema, type ServerConfigView } from '../../domain/schemas/config.js';
import type { ServerConfig } from '../../api/context.js';
import type { RouteContext } from '../capability.js';
import { SYSTEM_PATHS } from './paths.js';

export function registerSystemRoutes({ app, routes, api: ctx }: RouteContext<never>): void {
  // Liveness answers probes that address the server by any name (a pod IP, a load balancer): it says nothing else.
  app.get('/healthz', { config: { guard: 'liveness' } }, async () => ({ status: 'ok' }));
  const config = async (state = ctx.cloudAccess()): Promise<ServerConfigView> => {
    const clock = await cloudClock(ctx.config);
    return {
      cloud: ctx.config.cloud,
      region: ctx.config.region,
      accountId: state.accountId,
      version: ctx.config.version,
      clockSpeed: clock.speed,
      cloudTime: new Date(clock.now).toISOString(),
      cloudAccess: state.access,
    };
  };
  routes.define(
    app,
    {
      method: 'GET',
      url: SYSTEM_PATHS.config,
      operationId: 'getConfig',
      tags: ['system'],
      summary:
        'Which cloud this server talks to (sandbox or AWS), its default Region and account, and whether its credentials work',
      description:
        'When `cloudAccess.ready` is false (e.g. `--cloud aws` without usable credentials), `cloudAccess.problem` says why and what to do; every endpoint that needs the cloud answers 503 until then.',
      responses: { 200: { description: 'Server configuration', schema: ServerConfigViewSchema } },
    },
    async () => await config(),
  );
  routes.define(
    app,
    {
      method: 'POST',
      url: SYSTEM_PATHS.credentialsCheck,
      operationId: 'checkCredentials',
      readOnly: true,
      tags: ['system'],
      summary:
        "Check the cloud credentials again (after `aws sso login` or fixing a profile); when they work, the account's data opens without a restart",
      responses: { 200: { description: 'Server configuration after the check', schema: ServerConfigViewSchema } },
    },
    async () => await config(await ctx.checkCloudAccess()),
  );
}

/**
 * The cloud's time now: asked of the cloud's clock when the server was given one (the sandbox's), else this server's
 * (AWS keeps real time). A clock that does not answer is not worth failing the config for: the server's time and the
 * configured speed stand in, and the UI re-reads soon.
 */
async function cloudClock(config: ServerConfig): Promise<{ now: number; speed: number }> {
  const fallback = { now: Date.now(), speed: config.clockSpeed ?? 1 };
  if (!config.cloudClock) return fallback;
  return await config.cloudClock().catch(() => fallback);
}
