import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { PreconditionError } from '../../domain/errors.js';
import { clusterTarget } from '../../domain/naming.js';
import {
  ActiveClusterSchema,
  ClusterDetailSchema,
  ClusterSummarySchema,
  CreateClusterRequestSchema,
  DeleteClusterQuerySchema,
  SetActiveClusterRequestSchema,
} from '../../domain/schemas/clusters.js';
import { ClusterRefSchema, RegionSchema } from '../../domain/schemas/common.js';
import { AcceptedSchema } from '../../domain/schemas/operations.js';
import { accepted, idempotencyKey } from '../accepted.js';
import type { ApiContext } from '../context.js';
import type { RouteRegistry } from '../route.js';

const NameParams = z.object({ name: ClusterRefSchema });
const RegionQuery = z.object({ region: RegionSchema.optional() }).strict();

export function registerClusterRoutes(app: FastifyInstance, routes: RouteRegistry, ctx: ApiContext): void {
  const region = (r?: string) => r ?? ctx.config.region;

  routes.define(
    app,
    {
      method: 'GET', url: '/api/v1/clusters', operationId: 'listClusters', tags: ['clusters'],
      summary: 'List HyperPod clusters (and ones being created)',
      query: RegionQuery,
      responses: { 200: { description: 'Clusters', schema: z.object({ region: z.string(), clusters: z.array(ClusterSummarySchema) }) } },
    },
    async ({ query }) => ({ region: region(query.region), clusters: await ctx.clusters.list(region(query.region)) }),
  );

  routes.define(
    app,
    {
      method: 'GET', url: '/api/v1/clusters/{name}', operationId: 'getCluster', tags: ['clusters'],
      summary: 'Get one cluster: HyperPod, EKS, instance groups, storage, current operation',
      params: NameParams, query: RegionQuery,
      responses: { 200: { description: 'Cluster', schema: ClusterDetailSchema } },
    },
    async ({ params, query }) => ctx.clusters.get(region(query.region), params.name),
  );

  routes.define(
    app,
    {
      method: 'POST', url: '/api/v1/clusters', operationId: 'createCluster', tags: ['clusters'], idempotent: true,
      summary: 'Create a HyperPod cluster with its network, EKS cluster, dependencies and storage',
      description: 'Runs the preflight first (zone, instance type offered, quotas, training plan, name free): any problem answers 422 naming the field and the fix, before anything is created. Otherwise answers 202 with a create-cluster operation.',
      body: CreateClusterRequestSchema,
      responses: { 202: { description: 'Operation accepted', schema: AcceptedSchema } },
    },
    async ({ body, request }) => {
      const key = idempotencyKey(request);
      const input = { ...body, region: region(body.region) };
      // A repeat (same key, or a create of a cluster whose create runs) gets the existing operation,
      // without a preflight that would trip over the half-made cluster.
      const repeat = (key && ctx.operations.byIdempotencyKey(key)) || ctx.operations.activeFor(clusterTarget(input.region, input.name));
      if (!repeat) {
        const check = await ctx.preflight.checkCreateCluster(input);
        if (!check.ok) {
          throw new PreconditionError(
            `The cluster cannot be created as asked: ${check.problems.map((p) => p.message).join(' ')}`,
            check.problems.map((p) => ({ path: p.field, message: `${p.message}${p.remedy ? ` ${p.remedy}` : ''}` })),
            check.problems.map((p) => p.remedy).filter(Boolean).join(' ') || undefined,
          );
        }
      }
      return accepted(ctx.operations.start('create-cluster', input, { idempotencyKey: key }));
    },
  );

  routes.define(
    app,
    {
      method: 'DELETE', url: '/api/v1/clusters/{name}', operationId: 'deleteCluster', tags: ['clusters'], idempotent: true,
      summary: 'Delete a cluster and everything InstantStart made for it (confirm=true required)',
      description: 'A saga in reverse order; "already gone" is success, so a second delete is harmless. It ends by listing whatever still exists instead of claiming success.',
      params: NameParams, query: DeleteClusterQuerySchema,
      responses: { 202: { description: 'Operation accepted', schema: AcceptedSchema } },
    },
    async ({ params, query, request }) => {
      const input = { name: params.name, region: region(query.region), keepStorage: query.keepStorage === 'true' };
      return accepted(ctx.operations.start('delete-cluster', input, { idempotencyKey: idempotencyKey(request) }));
    },
  );

  routes.define(
    app,
    {
      method: 'GET', url: '/api/v1/active-cluster', operationId: 'getActiveCluster', tags: ['clusters'],
      summary: 'The cluster later calls act on by default',
      responses: { 200: { description: 'Active cluster', schema: ActiveClusterSchema } },
    },
    async () => {
      const a = ctx.activeCluster.get();
      return { name: a?.name ?? null, region: a?.region ?? null };
    },
  );

  routes.define(
    app,
    {
      method: 'PUT', url: '/api/v1/active-cluster', operationId: 'setActiveCluster', tags: ['clusters'],
      summary: 'Select the active cluster (it must exist)',
      body: SetActiveClusterRequestSchema,
      responses: { 200: { description: 'Active cluster', schema: ActiveClusterSchema } },
    },
    async ({ body }) => {
      const r = region(body.region);
      await ctx.clusters.get(r, body.name); // 404 when there is no such cluster
      ctx.activeCluster.set({ name: body.name, region: r });
      return { name: body.name, region: r };
    },
  );
}
