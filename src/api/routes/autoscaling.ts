import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { autoscalingRefusals } from '../../domain/autoscaling.js';
import { PreconditionError } from '../../domain/errors.js';
import { clusterTarget } from '../../domain/naming.js';
import { AutoscalingViewSchema, SetAutoscalingRequestSchema } from '../../domain/schemas/autoscaling.js';
import { ClusterRefSchema, RegionSchema } from '../../domain/schemas/common.js';
import { AcceptedSchema } from '../../domain/schemas/operations.js';
import { accepted, idempotencyKey } from '../accepted.js';
import type { ApiContext } from '../context.js';
import type { RouteRegistry } from '../route.js';

const ClusterParams = z.object({ name: ClusterRefSchema });
const RegionQuery = z.object({ region: RegionSchema.optional() }).strict();
const target = (region: string, cluster: string) => `${clusterTarget(region, cluster)}/autoscaling`;

export function registerAutoscalingRoutes(app: FastifyInstance, routes: RouteRegistry, ctx: ApiContext): void {
  const region = (r?: string) => r ?? ctx.config.region;

  routes.define(
    app,
    {
      method: 'GET', url: '/api/v1/clusters/{name}/autoscaling', operationId: 'getAutoscaling', tags: ['autoscaling'],
      summary: 'Managed node autoscaling (HyperPod-managed Karpenter): mode, status, ClusterRole, the groups it scales and their readiness',
      params: ClusterParams, query: RegionQuery,
      responses: { 200: { description: 'Autoscaling of the cluster', schema: AutoscalingViewSchema } },
    },
    async ({ params, query }) => {
      const r = region(query.region);
      const view = await ctx.autoscaling(r, params.name);
      const op = ctx.operations.activeFor(target(r, params.name));
      return { ...view, ...(op ? { activeOperation: { id: op.id, kind: op.kind, status: op.status } } : {}) };
    },
  );

  routes.define(
    app,
    {
      method: 'PUT', url: '/api/v1/clusters/{name}/autoscaling', operationId: 'setAutoscaling', tags: ['autoscaling'], idempotent: true,
      summary: 'Turn managed node autoscaling on for chosen instance groups (or change them), or off',
      description:
        'Enabling creates the ClusterRole HyperPod assumes (sagemaker:BatchAddClusterNodes and BatchDeleteClusterNodes on this cluster only), turns AutoScaling on with Karpenter, ' +
        'then applies one HyperpodNodeClass listing the groups and one NodePool using it (consolidating empty nodes after 5 minutes). Unknown groups, groups on training plans and groups with deep health checks ' +
        'are refused (422 naming instanceGroups) before AWS is called. Disabling turns AutoScaling off and leaves node counts where they are. Managed autoscaling scales HyperPod instance groups only, not EKS managed node groups or other EC2 capacity.',
      params: ClusterParams, body: SetAutoscalingRequestSchema,
      responses: { 202: { description: 'Operation accepted', schema: AcceptedSchema } },
    },
    async ({ params, body, request }) => {
      const r = region(body.region);
      if (body.enabled) {
        const [view, groups] = await Promise.all([ctx.autoscaling(r, params.name), ctx.clusters.instanceGroups(r, params.name)]);
        const candidates = groups.map((g) => ({ name: g.name, trainingPlan: g.capacityType === 'training-plan', deepHealthChecks: g.deepHealthChecks }));
        const problems = autoscalingRefusals(params.name, view.continuous, candidates, body.instanceGroups!);
        if (problems.length) throw new PreconditionError(`Autoscaling cannot be enabled as asked: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}.`, problems);
      }
      const input = { cluster: params.name, region: r, enabled: body.enabled, ...(body.instanceGroups ? { instanceGroups: body.instanceGroups } : {}) };
      return accepted(ctx.operations.start('set-autoscaling', input, { idempotencyKey: idempotencyKey(request) }));
    },
  );
}
