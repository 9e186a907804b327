import { z } from 'zod';
import {
  AvailabilityZoneSchema,
  CapacityTypeSchema,
  InstanceTypeSchema,
  RegionSchema,
  TrainingPlanArnSchema,
} from './common.js';

/** What AWS tells us about where capacity exists and whether the account may use it. */

export const RegionViewSchema = z.object({ name: z.string(), optInStatus: z.string().optional() });
export const AvailabilityZoneViewSchema = z.object({
  name: z.string(),
  zoneId: z.string(),
  state: z.string(),
});
export const RegionQuerySchema = z.object({ region: RegionSchema.optional() }).strict();

export const InstanceFamilySchema = z
  .string()
  .regex(
    /^[a-z]+[0-9][a-z0-9-]*$/,
    'must be an instance family such as p5, g5, g6e or trn1 (the part of ml.p5.48xlarge between "ml." and the size)',
  )
  .max(20)
  .describe('Only this family, e.g. p5, g5, trn1. Exact: p4d does not include p4de.');

export const InstanceTypesQuerySchema = z
  .object({
    region: RegionSchema.optional(),
    availabilityZone: AvailabilityZoneSchema.optional(),
    accelerators: z
      .enum(['true', 'false'])
      .optional()
      .describe('"true": only types with GPUs or Trainium/Inferentia chips; "false": only types without.'),
    family: InstanceFamilySchema.optional(),
  })
  .strict();
export type InstanceTypesQuery = z.output<typeof InstanceTypesQuerySchema>;
export const InstanceTypeViewSchema = z.object({
  instanceType: z.string().describe('HyperPod type, e.g. ml.p5.48xlarge.'),
  availabilityZones: z.array(z.string()).describe('Zones of the region where EC2 offers the type.'),
  vcpus: z.number().optional(),
  memoryGiB: z.number().optional(),
  acceleratorName: z.string().optional().describe('GPU or Trainium model, e.g. H100.'),
  acceleratorCount: z.number().int().optional(),
  efaSupported: z.boolean(),
  maximumEfaInterfaces: z.number().int().optional(),
  spotSupported: z.boolean(),
  clusterUsageQuota: z
    .number()
    .optional()
    .describe('Account quota "<type> for cluster usage" (how many this account may run across HyperPod clusters).'),
});
export type InstanceTypeView = z.infer<typeof InstanceTypeViewSchema>;

export const QuotaCheckRequestSchema = z
  .object({
    region: RegionSchema.optional(),
    instanceType: InstanceTypeSchema,
    instanceCount: z.number().int().min(1).max(1000),
    capacityType: CapacityTypeSchema.default('on-demand'),
    trainingPlanArn: TrainingPlanArnSchema.optional(),
    availabilityZone: AvailabilityZoneSchema.optional(),
  })
  .strict();
export type QuotaCheckRequest = z.output<typeof QuotaCheckRequestSchema>;

export const QuotaFindingSchema = z.object({
  quotaName: z.string(),
  quotaCode: z.string().optional(),
  serviceCode: z.string(),
  value: z.number().describe("The account's current limit."),
  inUse: z.number().describe('How many are already used by existing HyperPod clusters.'),
  requested: z.number(),
  ok: z.boolean(),
  remedy: z.string().optional().describe('How to raise it, when short.'),
});
export const PreflightProblemSchema = z.object({
  field: z.string(),
  code: z.string(),
  message: z.string(),
  remedy: z.string().optional(),
});
export type PreflightProblem = z.infer<typeof PreflightProblemSchema>;
export const QuotaCheckResultSchema = z.object({
  ok: z.boolean(),
  quotas: z.array(QuotaFindingSchema),
  problems: z
    .array(PreflightProblemSchema)
    .describe('Every reason the request would fail, each naming the field and the fix.'),
  kubernetesVersion: z
    .string()
    .optional()
    .describe(
      'For a create-cluster check: the Kubernetes version the EKS cluster would be created at (the one asked for, or the default both EKS and HyperPod support).',
    ),
});
export type QuotaCheckResult = z.infer<typeof QuotaCheckResultSchema>;

export const TrainingPlanViewSchema = z.object({
  arn: z.string(),
  name: z.string(),
  status: z.string(),
  instanceType: z.string().optional(),
  totalInstanceCount: z.number().int().optional(),
  availableInstanceCount: z.number().int().optional(),
  inUseInstanceCount: z.number().int().optional(),
  availabilityZone: z.string().optional(),
  startTime: z.string().optional(),
  endTime: z.string().optional(),
  targetResources: z.array(z.string()),
});
export type TrainingPlanView = z.infer<typeof TrainingPlanViewSchema>;

export const KubernetesVersionViewSchema = z.object({
  version: z.string().describe('Kubernetes minor version, e.g. 1.34.'),
  eks: z
    .object({
      offered: z.boolean().describe('EKS offers it for new clusters in the Region.'),
      isDefault: z.boolean().describe("EKS's own default for new clusters."),
      status: z
        .string()
        .optional()
        .describe("EKS's support status: STANDARD_SUPPORT, or EXTENDED_SUPPORT (costs more per cluster-hour)."),
      endOfStandardSupport: z.string().optional().describe("When EKS's standard support of it ends (date)."),
    })
    .describe('What EKS says of it (DescribeClusterVersions).'),
  hyperpod: z.boolean().describe("SageMaker HyperPod supports it (from AWS's documentation: no API reports it)."),
  usable: z.boolean().describe('Both support it: create_cluster accepts it as kubernetesVersion.'),
  isChosenDefault: z.boolean().describe('The version create_cluster uses when kubernetesVersion is left out.'),
});
export type KubernetesVersionView = z.infer<typeof KubernetesVersionViewSchema>;

export const KubernetesVersionsSchema = z.object({
  region: z.string(),
  defaultVersion: z
    .string()
    .nullable()
    .describe(
      "What create_cluster uses without kubernetesVersion: EKS's default when HyperPod supports it, else the newest version both support; null when none fits both.",
    ),
  versions: z
    .array(KubernetesVersionViewSchema)
    .describe('Every version EKS offers or HyperPod supports, newest first.'),
  hyperpodSupport: z
    .object({ versions: z.array(z.string()), sources: z.array(z.string()), readOn: z.string() })
    .describe(
      "HyperPod's supported versions as InstantStart knows them, with the AWS documentation they were read from and when.",
    ),
});
export type KubernetesVersions = z.infer<typeof KubernetesVersionsSchema>;
