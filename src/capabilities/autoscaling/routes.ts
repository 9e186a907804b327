import { z } from 'zod';
import { AutoscalingViewSchema, SetAutoscalingRequestSchema } from '../../domain/schemas/autoscaling.js';
import { ClusterRefSchema, RegionSchema } from '../../domain/schemas/common.js';
import { AcceptedSchema } from '../../domain/schemas/operations.js';
import { accepted, idempotencyKey } from '../../api/accepted.js';
import type { RouteContext } from '../capability.js';
import type { AutoscalingService } from './service.js';
import { AUTOSCALING_PATHS } from './paths.js';

const ClusterParams = z.object({ name: ClusterRefSchema });
const RegionQuery = z.object({ region: RegionSchema.optional() }).strict();

export function registerAutoscalingRoutes({ app, routes, service, region }: RouteContext<AutoscalingService>): void {
  routes.define(
    app,
    {
      method: 'GET',
      url: AUTOSCALING_PATHS.one,
      operationId: 'getAutoscaling',
      tags: ['autoscaling'],
      summary:
        'Managed node autoscaling (HyperPod-managed Karpenter): mode, status, ClusterRole, the groups it scales and their readiness',
      params: ClusterParams,
      query: RegionQuery,
      responses: { 200: { description: 'Autoscaling of the cluster', schema: AutoscalingViewSchema } },
    },
    async ({ params, query }) => service().get(region(query.region), params.name),
  );

  routes.define(
    app,
    {
      method: 'PUT',
      url: AUTOSCALING_PATHS.one,
      operationId: 'setAutoscaling',
      tags: ['autoscaling'],
      summary: 'Turn managed node autoscaling on for chosen instance groups (or change them), or off',
      description:
        'Enabling creates the ClusterRole HyperPod assumes (sagemaker:BatchAddClusterNodes and BatchDeleteClusterNodes on this cluster only), turns AutoScaling on with Karpenter, ' +
        'then applies one HyperpodNodeClass listing the groups and one NodePool using it (consolidating empty nodes after 5 minutes). Unknown groups, groups on training plans and groups with deep health checks ' +
        'are refused (422 naming instanceGroups) before AWS is called. Disabling turns AutoScaling off and leaves node counts where they are. Managed autoscaling scales HyperPod instance groups only, not EKS managed node groups or other EC2 capacity.',
      params: ClusterParams,
      body: SetAutoscalingRequestSchema,
      responses: { 202: { description: 'Operation accepted', schema: AcceptedSchema } },
    },
    async ({ params, body, request }) =>
      accepted(await service().set(region(body.region), params.name, body, idempotencyKey(request))),
  );
}
