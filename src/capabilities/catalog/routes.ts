import { z } from 'zod';
import { CreateClusterRequestSchema } from '../../domain/schemas/clusters.js';
import {
  AvailabilityZoneViewSchema,
  InstanceTypesQuerySchema,
  InstanceTypeViewSchema,
  KubernetesVersionsSchema,
  QuotaCheckRequestSchema,
  QuotaCheckResultSchema,
  RegionQuerySchema,
  RegionViewSchema,
  TrainingPlanViewSchema,
} from '../../domain/schemas/preflight.js';
import type { RouteContext } from '../capability.js';
import type { PreflightService } from './service.js';
import { CATALOG_PATHS } from './paths.js';

/** Check before create: where capacity exists and whether the account may use it. All read-only. */
export function registerCatalogRoutes({ app, routes, service, region }: RouteContext<PreflightService>): void {
  routes.define(
    app,
    {
      method: 'GET',
      url: CATALOG_PATHS.regions,
      operationId: 'listRegions',
      tags: ['preflight'],
      summary: 'Regions enabled for this account (EC2 DescribeRegions)',
      responses: { 200: { description: 'Regions', schema: z.object({ regions: z.array(RegionViewSchema) }) } },
    },
    async () => ({ regions: await service().regions() }),
  );
  routes.define(
    app,
    {
      method: 'GET',
      url: CATALOG_PATHS.availabilityZones,
      operationId: 'listAvailabilityZones',
      tags: ['preflight'],
      summary: 'Availability Zones of a Region (EC2 DescribeAvailabilityZones)',
      query: RegionQuerySchema,
      responses: {
        200: {
          description: 'Zones',
          schema: z.object({ region: z.string(), availabilityZones: z.array(AvailabilityZoneViewSchema) }),
        },
      },
    },
    async ({ query }) => ({
      region: region(query.region),
      availabilityZones: await service().availabilityZones(region(query.region)),
    }),
  );
  routes.define(
    app,
    {
      method: 'GET',
      url: CATALOG_PATHS.instanceTypes,
      operationId: 'listInstanceTypes',
      tags: ['preflight'],
      summary:
        'HyperPod instance types offered in a Region or zone (optionally accelerators only, or one family), with accelerators, EFA and the account quota',
      query: InstanceTypesQuerySchema,
      responses: {
        200: {
          description: 'Instance types',
          schema: z.object({
            region: z.string(),
            availabilityZone: z.string().optional(),
            instanceTypes: z.array(InstanceTypeViewSchema),
          }),
        },
      },
    },
    async ({ query }) => ({
      region: region(query.region),
      ...(query.availabilityZone ? { availabilityZone: query.availabilityZone } : {}),
      instanceTypes: await service().instanceTypes(region(query.region), query.availabilityZone, {
        ...(query.accelerators ? { accelerators: query.accelerators === 'true' } : {}),
        ...(query.family ? { family: query.family } : {}),
      }),
    }),
  );
  routes.define(
    app,
    {
      method: 'GET',
      url: CATALOG_PATHS.trainingPlans,
      operationId: 'listTrainingPlans',
      tags: ['preflight'],
      summary: 'SageMaker training plans (reserved capacity) of the account',
      query: RegionQuerySchema,
      responses: {
        200: { description: 'Training plans', schema: z.object({ trainingPlans: z.array(TrainingPlanViewSchema) }) },
      },
    },
    async ({ query }) => ({ trainingPlans: await service().trainingPlans(region(query.region)) }),
  );
  routes.define(
    app,
    {
      method: 'GET',
      url: CATALOG_PATHS.kubernetesVersions,
      operationId: 'listKubernetesVersions',
      tags: ['preflight'],
      summary:
        'Kubernetes versions a new cluster may run: what EKS offers in the Region (DescribeClusterVersions), what SageMaker HyperPod supports, and the default',
      query: RegionQuerySchema,
      responses: { 200: { description: 'Kubernetes versions, newest first', schema: KubernetesVersionsSchema } },
    },
    async ({ query }) => service().kubernetesVersions(region(query.region)),
  );
  routes.define(
    app,
    {
      method: 'POST',
      url: CATALOG_PATHS.quotaCheck,
      operationId: 'checkQuotas',
      readOnly: true,
      tags: ['preflight'],
      summary: 'Check HyperPod cluster-usage quotas (and a training plan) for an instance type and count',
      body: QuotaCheckRequestSchema,
      responses: {
        200: {
          description: 'Findings; problems name the field, the quota and how to raise it',
          schema: QuotaCheckResultSchema,
        },
      },
    },
    async ({ body }) => service().checkQuotas({ ...body, region: region(body.region) }),
  );
  routes.define(
    app,
    {
      method: 'POST',
      url: CATALOG_PATHS.clusterCheck,
      operationId: 'checkCreateCluster',
      readOnly: true,
      tags: ['preflight'],
      summary: 'Check a whole create-cluster request without creating anything',
      body: CreateClusterRequestSchema,
      responses: { 200: { description: 'Findings', schema: QuotaCheckResultSchema } },
    },
    async ({ body }) => service().checkCreateCluster({ ...body, region: region(body.region) }),
  );
}
