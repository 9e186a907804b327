import { z } from 'zod';
import { TRACKING_SERVER_STATUSES } from './state.js';

/** Request shapes of SageMaker's MLflow tracking-server operations, with the API model's constraints. */

/** JSON timestamps arrive as epoch seconds (SDK, CLI) or ISO text. */
const timestamp = z.union([z.number(), z.string(), z.date()]);

export const trackingServerName = z
  .string()
  .min(1)
  .max(256)
  .regex(/^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,255}$/);
const size = z.enum(['Small', 'Medium', 'Large']);
const artifactStoreUri = z
  .string()
  .max(1024)
  .regex(/^(https|s3):\/\/([^/]+)\/?(.*)$/);
const roleArn = z
  .string()
  .min(20)
  .max(2048)
  .regex(/^arn:aws[a-z-]*:iam::\d{12}:role\/?[a-zA-Z_0-9+=,.@\-_/]+$/);
const mlflowVersion = z
  .string()
  .min(1)
  .max(32)
  .regex(/^\d+(\.\d+)+$/);
const maintenanceWindow = z
  .string()
  .max(9)
  .regex(/^(Mon|Tue|Wed|Thu|Fri|Sat|Sun|MON|TUE|WED|THU|FRI|SAT|SUN):([01]\d|2[0-3]):([0-5]\d)$/);
const accountId = z.string().regex(/^\d{12}$/);
const tags = z.array(z.object({ Key: z.string().min(1).max(128), Value: z.string().max(256) })).max(50);

export const createSchema = z.object({
  TrackingServerName: trackingServerName,
  ArtifactStoreUri: artifactStoreUri,
  TrackingServerSize: size.optional(),
  MlflowVersion: mlflowVersion.optional(),
  RoleArn: roleArn,
  AutomaticModelRegistration: z.boolean().optional(),
  WeeklyMaintenanceWindowStart: maintenanceWindow.optional(),
  Tags: tags.optional(),
  S3BucketOwnerAccountId: accountId.optional(),
  S3BucketOwnerVerification: z.boolean().optional(),
});

export const nameOnlySchema = z.object({ TrackingServerName: trackingServerName });

export const updateSchema = z.object({
  TrackingServerName: trackingServerName,
  ArtifactStoreUri: artifactStoreUri.optional(),
  TrackingServerSize: size.optional(),
  AutomaticModelRegistration: z.boolean().optional(),
  WeeklyMaintenanceWindowStart: maintenanceWindow.optional(),
  S3BucketOwnerAccountId: accountId.optional(),
  S3BucketOwnerVerification: z.boolean().optional(),
});

export const listSchema = z.object({
  CreatedAfter: timestamp.optional(),
  CreatedBefore: timestamp.optional(),
  TrackingServerStatus: z.enum(TRACKING_SERVER_STATUSES).optional(),
  MlflowVersion: mlflowVersion.optional(),
  SortBy: z.enum(['Name', 'CreationTime', 'Status']).optional(),
  SortOrder: z.enum(['Ascending', 'Descending']).optional(),
  NextToken: z.string().max(8192).optional(),
  MaxResults: z.number().int().min(1).max(100).optional(),
});

export const presignSchema = z.object({
  TrackingServerName: trackingServerName,
  ExpiresInSeconds: z.number().int().min(5).max(300).optional(),
  SessionExpirationDurationInSeconds: z.number().int().min(1800).max(43200).optional(),
});
