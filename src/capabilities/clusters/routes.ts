import { z } from 'zod';
import {
  ActiveClusterSchema,
  ClusterDetailSchema,
  ClusterSummarySchema,
  CreateClusterRequestSchema,
  DeleteClusterQuerySchema,
  DeletePlanQuerySchema,
  DeletePlanSchema,
  SetActiveClusterRequestSchema,
} from '../../domain/schemas/clusters.js';
import { ClusterRefSchema, RegionSchema } from '../../domain/schemas/common.js';
import { AcceptedSchema } from '../../domain/schemas/operations.js';
import { ClusterCostSchema, ClusterPlanSchema } from '../../domain/schemas/plans.js';
import { accepted, idempotencyKey } from '../../api/accepted.js';
import type { RouteContext } from '../capability.js';
import type { ClusterService } from './service.js';
import { CLUSTER_PATHS } from './paths.js';

const NameParams = z.object({ name: ClusterRefSchema });
const RegionQuery = z.object({ region: RegionSchema.optional() }).strict();

export function registerClusterRoutes({ app, routes, service, region }: RouteContext<ClusterService>): void {
  routes.define(
    app,
    {
      method: 'GET',
      url: CLUSTER_PATHS.list,
      operationId: 'listClusters',
      tags: ['clusters'],
      summary: 'List HyperPod clusters (and ones being created)',
      query: RegionQuery,
      responses: {
        200: {
          description: 'Clusters',
          schema: z.object({ region: z.string(), clusters: z.array(ClusterSummarySchema) }),
        },
      },
    },
    async ({ query }) => ({ region: region(query.region), clusters: await service().list(region(query.region)) }),
  );

  routes.define(
    app,
    {
      method: 'GET',
      url: CLUSTER_PATHS.one,
      operationId: 'getCluster',
      tags: ['clusters'],
      summary: 'Get one cluster: HyperPod, EKS, instance groups, storage, current operation',
      params: NameParams,
      query: RegionQuery,
      responses: { 200: { description: 'Cluster', schema: ClusterDetailSchema } },
    },
    async ({ params, query }) => service().get(region(query.region), params.name),
  );

  routes.define(
    app,
    {
      method: 'POST',
      url: CLUSTER_PATHS.list,
      operationId: 'createCluster',
      tags: ['clusters'],
      summary: 'Create a HyperPod cluster with its network, EKS cluster, dependencies and storage',
      description:
        'Runs the preflight first (zone, instance type offered, quotas, training plan, name free, Kubernetes version offered by EKS and supported by HyperPod): any problem answers 422 naming the field and the fix, before anything is created. Otherwise answers 202 with a create-cluster operation.',
      body: CreateClusterRequestSchema,
      responses: { 202: { description: 'Operation accepted', schema: AcceptedSchema } },
    },
    async ({ body, request }) =>
      accepted(await service().create({ ...body, region: region(body.region) }, idempotencyKey(request))),
  );

  routes.define(
    app,
    {
      method: 'POST',
      url: CLUSTER_PATHS.plan,
      operationId: 'planCluster',
      tags: ['clusters'],
      summary:
        'Plan a create: what it would make, in order, and what the cluster would cost per hour (changes nothing)',
      description:
        'Takes the create-cluster request. Answers the mutations the create would make, phase by phase (names, CIDRs, roles, the instance group, the add-ons), ' +
        'and the hourly cost from the AWS Price List API: HyperPod instances × count, the EKS cluster, the NAT gateway, FSx for Lustre if asked — each line with its price source and date. ' +
        'The same checks as the create answer 422 naming the field. Only reads.',
      readOnly: true,
      body: CreateClusterRequestSchema,
      responses: { 200: { description: 'The plan', schema: ClusterPlanSchema } },
    },
    async ({ body }) => service().plan({ ...body, region: region(body.region) }),
  );

  routes.define(
    app,
    {
      method: 'GET',
      url: CLUSTER_PATHS.cost,
      operationId: 'getClusterCost',
      tags: ['clusters'],
      summary:
        "What the cluster costs per hour now: its instance groups' types × current counts, the EKS cluster, the NAT gateway",
      params: NameParams,
      query: RegionQuery,
      responses: { 200: { description: 'The hourly cost', schema: ClusterCostSchema } },
    },
    async ({ params, query }) => service().cost(region(query.region), params.name),
  );

  routes.define(
    app,
    {
      method: 'GET',
      url: CLUSTER_PATHS.deletePlan,
      operationId: 'getClusterDeletePlan',
      tags: ['clusters'],
      summary: 'What deleting the cluster removes and what it keeps, by name (read it before confirming a delete)',
      description:
        'Deletes: the HyperPod and EKS clusters and every resource tagged instantstart.io/cluster=<name> in S3, SageMaker (MLflow tracking servers), IAM, EC2 and FSx. ' +
        "Keeps, each with why: storages removed keeping their data, the cluster's buckets and file systems with keepStorage=true, and buckets or file systems it mounts that InstantStart never made. " +
        '404 when nothing of the cluster is left to delete.',
      params: NameParams,
      query: DeletePlanQuerySchema,
      responses: { 200: { description: 'The plan', schema: DeletePlanSchema } },
    },
    async ({ params, query }) => service().deletePlan(region(query.region), params.name, query.keepStorage === 'true'),
  );

  routes.define(
    app,
    {
      method: 'DELETE',
      url: CLUSTER_PATHS.one,
      operationId: 'deleteCluster',
      tags: ['clusters'],
      summary: 'Delete a cluster and everything InstantStart made for it (confirm=true required)',
      description:
        'A saga in reverse order; "already gone" is success. Answers the operation with its plan: what it removes and what it keeps (GET …/delete-plan shows the same before). ' +
        'It ends by listing whatever of the cluster still exists in any service, but what it keeps, instead of claiming success. ' +
        '404 when nothing of the cluster exists (no HyperPod or EKS cluster, nothing tagged with it to delete, no operation on it); a cluster whose create failed half-way is deletable.',
      params: NameParams,
      query: DeleteClusterQuerySchema,
      responses: {
        202: {
          description: 'Operation accepted, with its plan',
          schema: AcceptedSchema.extend({ plan: DeletePlanSchema }),
        },
      },
    },
    async ({ params, query, request }) => {
      const started = await service().delete(
        { name: params.name, region: region(query.region), keepStorage: query.keepStorage === 'true' },
        idempotencyKey(request),
      );
      return { ...accepted(started), plan: started.plan };
    },
  );

  routes.define(
    app,
    {
      method: 'GET',
      url: CLUSTER_PATHS.active,
      operationId: 'getActiveCluster',
      tags: ['clusters'],
      summary:
        'The cluster the user works with (a selection no call defaults to: every cluster-scoped request names its cluster)',
      responses: { 200: { description: 'Active cluster', schema: ActiveClusterSchema } },
    },
    async () => service().activeCluster(),
  );

  routes.define(
    app,
    {
      method: 'PUT',
      url: CLUSTER_PATHS.active,
      operationId: 'setActiveCluster',
      tags: ['clusters'],
      summary: 'Select the active cluster (it must exist)',
      body: SetActiveClusterRequestSchema,
      responses: { 200: { description: 'Active cluster', schema: ActiveClusterSchema } },
    },
    async ({ body }) => service().setActive(region(body.region), body.name),
  );
}
