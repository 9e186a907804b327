import { z } from 'zod';

/**
 * A plan before apply (docs/PLAN.md): the mutations an operation would make, in the order its phases make
 * them, and what the resources it makes cost per hour, each price with where it came from.
 */

export const PlannedMutationSchema = z.object({
  phase: z.string().describe('The operation phase that makes it.'),
  phaseTitle: z.string(),
  service: z
    .string()
    .describe('Who is called: an AWS service (ec2, iam, eks, sagemaker, s3, fsx), kubernetes, or instantstart.'),
  operation: z.string().describe('The AWS operation, or the Kubernetes or InstantStart action.'),
  resource: z.string().describe('What kind of thing it makes or changes.'),
  name: z.string().optional(),
  details: z.record(z.string(), z.string()).optional().describe('CIDRs, zones, roles, versions, counts.'),
});
export type PlannedMutation = z.infer<typeof PlannedMutationSchema>;

export const PriceSourceSchema = z.object({
  serviceCode: z.string(),
  sku: z.string(),
  effectiveDate: z.string(),
  description: z.string().optional(),
});

export const CostLineSchema = z.object({
  item: z.enum(['hyperpod-instance', 'eks-cluster', 'nat-gateway', 'fsx-lustre-storage']),
  description: z.string(),
  quantity: z.number().describe('Instances, clusters, gateways, or GiB of storage.'),
  unitPrice: z.number().optional().describe('USD per unit of priceUnit, as the Price List gives it.'),
  priceUnit: z.string().optional().describe('Hrs (per hour) or GB-Mo (per GiB-month).'),
  hourlyUsd: z.number().optional().describe('This line per hour; absent when no price was found.'),
  source: PriceSourceSchema.optional(),
  missing: z.string().optional().describe('Why the line has no price.'),
});
export type CostLine = z.infer<typeof CostLineSchema>;

export const HourlyCostSchema = z.object({
  currency: z.literal('USD'),
  lines: z.array(CostLineSchema),
  totalHourlyUsd: z.number().describe('The sum of the priced lines.'),
  complete: z.boolean().describe('False when a line has no price: the total leaves it out.'),
  note: z.string(),
});
export type HourlyCost = z.infer<typeof HourlyCostSchema>;

export const ClusterPlanSchema = z.object({
  cluster: z.string(),
  region: z.string(),
  mutations: z.array(PlannedMutationSchema),
  cost: HourlyCostSchema,
  notes: z.array(z.string()).describe('What the plan cannot tell in advance.'),
});
export type ClusterPlan = z.infer<typeof ClusterPlanSchema>;

export const ClusterCostSchema = z.object({
  cluster: z.string(),
  region: z.string(),
  cost: HourlyCostSchema,
});
export type ClusterCost = z.infer<typeof ClusterCostSchema>;

export const InstanceGroupPlanSchema = z.object({
  cluster: z.string(),
  region: z.string(),
  instanceGroup: z.string(),
  mutations: z.array(PlannedMutationSchema),
  cost: HourlyCostSchema.describe('What the group adds per hour.'),
});
export type InstanceGroupPlan = z.infer<typeof InstanceGroupPlanSchema>;
