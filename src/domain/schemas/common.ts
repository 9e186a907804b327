import { z } from 'zod';

/**
 * Field schemas shared by requests of every capability. Each carries a description: the same
 * text reaches the OpenAPI document, the MCP tools' input schemas and the UI's form hints.
 */

export const RegionSchema = z
  .string()
  .regex(/^[a-z]{2}(-gov|-iso[a-z]?)?-[a-z]+-\d$/, 'must be an AWS Region code such as us-west-2')
  .describe("AWS Region code, e.g. us-west-2. Defaults to the server's region.");

export const AvailabilityZoneSchema = z
  .string()
  .regex(/^[a-z]{2}(-gov|-iso[a-z]?)?-[a-z]+-\d[a-z]$/, 'must be an Availability Zone name such as us-west-2b')
  .describe(
    'Zone name, e.g. us-west-2b. List valid zones with list_availability_zones / GET /api/v1/availability-zones.',
  );

/** HyperPod instance types are the EC2 type with an `ml.` prefix. */
export const InstanceTypeSchema = z
  .string()
  .regex(/^ml\.[a-z0-9-]+\.[a-z0-9]+$/, 'must be a SageMaker HyperPod instance type such as ml.p5.48xlarge')
  .describe('Instance type, e.g. ml.g5.8xlarge. List the types offered in a zone with list_instance_types.');

export const CapacityTypeSchema = z
  .enum(['on-demand', 'spot', 'training-plan'])
  .describe(
    'On-demand, spot or a training plan (give trainingPlanArn). Spot is interruptible and cheaper; a training plan is reserved capacity.',
  );

export const TrainingPlanArnSchema = z
  .string()
  .regex(
    /^arn:aws[a-z-]*:sagemaker:[a-z0-9-]+:\d{12}:training-plan\/[A-Za-z0-9][A-Za-z0-9-]{0,63}$/,
    'must be a SageMaker training plan ARN',
  )
  .describe('For capacityType training-plan. Its reserved capacity is what the instances use.');

/**
 * Our cluster names become the HyperPod cluster name, the EKS cluster name, IAM role names and an
 * S3 bucket name, so they obey the strictest of those rules: lower case, digits, hyphens.
 */
export const ClusterNameSchema = z
  .string()
  .min(1, 'must not be empty')
  .max(32, 'must be at most 32 characters (it becomes part of IAM role and S3 bucket names)')
  .regex(
    /^[a-z]([a-z0-9-]*[a-z0-9])?$/,
    'must start with a lower-case letter, use only a-z, 0-9 and hyphens, and not end with a hyphen',
  )
  .describe(
    'Cluster name: 1–32 characters, lower-case letters, digits and hyphens. Names the HyperPod cluster; the EKS cluster, roles and bucket derive from it.',
  );

/** Any existing HyperPod cluster's name (HyperPod's own rule), for clusters we did not create too. */
export const ClusterRefSchema = z
  .string()
  .regex(/^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}$/, 'must be a HyperPod cluster name (1–63 letters, digits and hyphens)')
  .describe('Name of an existing HyperPod cluster.');

export const PageLimitSchema = z.coerce.number().int().min(1).max(500).default(50).describe('Page size (1–500).');
export const PageTokenSchema = z
  .string()
  .max(2048)
  .optional()
  .describe("Opaque token from the previous page's nextToken.");
