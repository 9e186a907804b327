import { z } from 'zod';
import type { ValidationStyle } from '../../../core/validation.js';

/** SageMaker's request shapes for training plans, with the constraints of the API model. */
export const SAGEMAKER_VALIDATION: ValidationStyle = { style: 'coral', code: 'ValidationException' };

/** JSON timestamps arrive as epoch seconds (SDK, CLI) or ISO text. */
const timestamp = z.union([z.number(), z.string(), z.date()]);

export const RESERVED_CAPACITY_INSTANCE_TYPES = [
  'ml.p4d.24xlarge',
  'ml.p5.48xlarge',
  'ml.p5e.48xlarge',
  'ml.p5en.48xlarge',
  'ml.trn1.32xlarge',
  'ml.trn2.48xlarge',
  'ml.p6-b200.48xlarge',
  'ml.p4de.24xlarge',
  'ml.p6e-gb200.36xlarge',
  'ml.p5.4xlarge',
  'ml.p6-b300.48xlarge',
] as const;

export const TARGET_RESOURCES = ['training-job', 'hyperpod-cluster', 'endpoint', 'studio-apps'] as const;
export const PLAN_STATUSES = ['Pending', 'Active', 'Scheduled', 'Expired', 'Failed'] as const;

const planName = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,63}$/);

export const searchSchema = z.object({
  InstanceType: z.enum(RESERVED_CAPACITY_INSTANCE_TYPES).optional(),
  InstanceCount: z.number().int().min(1).max(256).optional(),
  UltraServerType: z.string().min(1).max(64).optional(),
  UltraServerCount: z.number().int().min(1).max(64).optional(),
  StartTimeAfter: timestamp.optional(),
  EndTimeBefore: timestamp.optional(),
  DurationHours: z.number().int().min(0).max(87600).optional(),
  TargetResources: z.array(z.enum(TARGET_RESOURCES)).min(1).max(1),
  TrainingPlanArn: z.string().max(2048).optional(),
});

export const createSchema = z.object({
  TrainingPlanName: planName,
  TrainingPlanOfferingId: z
    .string()
    .min(1)
    .max(256)
    .regex(/^[a-z0-9-]+$/),
  SpareInstanceCountPerUltraServer: z.number().int().min(0).optional(),
  Tags: z
    .array(z.object({ Key: z.string().min(1).max(128), Value: z.string().max(256) }))
    .max(50)
    .optional(),
});

export const describeSchema = z.object({
  TrainingPlanName: planName,
});

export const listSchema = z.object({
  NextToken: z.string().max(8192).optional(),
  MaxResults: z.number().int().min(1).max(100).optional(),
  StartTimeAfter: timestamp.optional(),
  StartTimeBefore: timestamp.optional(),
  SortBy: z.enum(['TrainingPlanName', 'StartTime', 'Status']).optional(),
  SortOrder: z.enum(['Ascending', 'Descending']).optional(),
  Filters: z
    .array(z.object({ Name: z.enum(['Status']), Value: z.enum(PLAN_STATUSES) }))
    .max(5)
    .optional(),
});
