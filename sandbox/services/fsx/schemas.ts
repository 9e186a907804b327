import { z } from 'zod';
import { jsonRpcErrors } from '../../core/error-styles.js';

/**
 * Request shapes with the FSx model's constraints. FSx reports schema violations as `BadRequest`
 * in Coral's wording ("1 validation error detected: Value null at 'storageCapacity' …").
 */
export const FSX_ERRORS = jsonRpcErrors('BadRequest');
export const VALIDATION = FSX_ERRORS.validation;

const TAG_TEXT = /^([\p{L}\p{Z}\p{N}_.:/=+\-@]*)$/u;
export const tagSchema = z.object({
  Key: z.string().min(1).max(128).regex(TAG_TEXT),
  Value: z.string().min(0).max(256).regex(TAG_TEXT),
});
export const tagsSchema = z.array(tagSchema).min(1).max(50);

export const fileSystemIdSchema = z
  .string()
  .min(11)
  .max(21)
  .regex(/^(fs-[0-9a-f]{8,})$/);
export const clientTokenSchema = z
  .string()
  .min(1)
  .max(63)
  .regex(/^[A-za-z0-9_.-]{0,63}$/);
export const resourceArnSchema = z
  .string()
  .min(8)
  .max(512)
  .regex(/^arn:aws[a-z-]*:fsx:[a-z0-9-]+:\d{12}:[a-z-]+\/[^\s]+$/);
export const nextTokenSchema = z
  .string()
  .min(1)
  .max(255)
  .regex(/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/);

const s3Path = z
  .string()
  .min(3)
  .max(4357)
  .regex(/^[^\u0000\u0085\u2028\u2029\r\n]{3,4357}$/);

export const lustreConfigurationSchema = z.object({
  WeeklyMaintenanceStartTime: z
    .string()
    .min(7)
    .max(7)
    .regex(/^[1-7]:([01]\d|2[0-3]):?([0-5]\d)$/)
    .optional(),
  ImportPath: s3Path.optional(),
  ExportPath: s3Path.optional(),
  ImportedFileChunkSize: z.number().int().min(1).max(512000).optional(),
  DeploymentType: z.enum(['SCRATCH_1', 'SCRATCH_2', 'PERSISTENT_1', 'PERSISTENT_2']).optional(),
  AutoImportPolicy: z.enum(['NONE', 'NEW', 'NEW_CHANGED', 'NEW_CHANGED_DELETED']).optional(),
  PerUnitStorageThroughput: z.number().int().min(12).max(1000).optional(),
  DailyAutomaticBackupStartTime: z
    .string()
    .min(5)
    .max(5)
    .regex(/^([01]\d|2[0-3]):?([0-5]\d)$/)
    .optional(),
  AutomaticBackupRetentionDays: z.number().int().min(0).max(90).optional(),
  CopyTagsToBackups: z.boolean().optional(),
  DriveCacheType: z.enum(['NONE', 'READ']).optional(),
  DataCompressionType: z.enum(['NONE', 'LZ4']).optional(),
  EfaEnabled: z.boolean().optional(),
  LogConfiguration: z
    .object({
      Level: z.enum(['DISABLED', 'WARN_ONLY', 'ERROR_ONLY', 'WARN_ERROR']),
      Destination: z
        .string()
        .min(8)
        .max(1024)
        .regex(/^arn:[^:]{1,63}:[^:]{0,63}:[^:]{0,63}:(?:|\d{12}):[^/].{0,1023}$/)
        .optional(),
    })
    .optional(),
  RootSquashConfiguration: z
    .object({
      RootSquash: z
        .string()
        .min(3)
        .max(21)
        .regex(/^([0-9]{1,10}):([0-9]{1,10})$/)
        .optional(),
      NoSquashNids: z
        .array(
          z
            .string()
            .min(11)
            .max(43)
            .regex(/^([0-9\[\]\-]*\.){3}([0-9\[\]\-]*)@tcp$/),
        )
        .max(64)
        .optional(),
    })
    .optional(),
  MetadataConfiguration: z
    .object({
      Iops: z.number().int().min(1500).max(192000).optional(),
      Mode: z.enum(['AUTOMATIC', 'USER_PROVISIONED']),
    })
    .optional(),
  ThroughputCapacity: z.number().int().min(4000).max(2000000).optional(),
  DataReadCacheConfiguration: z.record(z.string(), z.unknown()).optional(),
});

export type LustreConfigurationInput = z.infer<typeof lustreConfigurationSchema>;

export const createFileSystemSchema = z.object({
  FileSystemType: z.enum(['WINDOWS', 'LUSTRE', 'ONTAP', 'OPENZFS']),
  SubnetIds: z
    .array(
      z
        .string()
        .min(15)
        .max(24)
        .regex(/^(subnet-[0-9a-f]{8,})$/),
    )
    .max(50),
  ClientRequestToken: clientTokenSchema.optional(),
  StorageCapacity: z.number().int().min(0).max(2147483647).optional(),
  StorageType: z.enum(['SSD', 'HDD', 'INTELLIGENT_TIERING']).optional(),
  SecurityGroupIds: z
    .array(
      z
        .string()
        .min(11)
        .max(20)
        .regex(/^(sg-[0-9a-f]{8,})$/),
    )
    .max(50)
    .optional(),
  Tags: tagsSchema.optional(),
  KmsKeyId: z
    .string()
    .min(1)
    .max(2048)
    .regex(/^.{1,2048}$/)
    .optional(),
  WindowsConfiguration: z.record(z.string(), z.unknown()).optional(),
  LustreConfiguration: lustreConfigurationSchema.optional(),
  OntapConfiguration: z.record(z.string(), z.unknown()).optional(),
  FileSystemTypeVersion: z
    .string()
    .min(1)
    .max(20)
    .regex(/^[0-9](.[0-9]*)*$/)
    .optional(),
  OpenZFSConfiguration: z.record(z.string(), z.unknown()).optional(),
  NetworkType: z.enum(['IPV4', 'DUAL']).optional(),
});

export type CreateFileSystemInput = z.infer<typeof createFileSystemSchema>;
