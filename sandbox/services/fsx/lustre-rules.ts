import type { SandboxState } from '../../core/store.js';
import { bucketExists } from '../s3/public.js';
import { badRequest, invalidExportPath, invalidImportPath, invalidPerUnitStorageThroughput } from './errors.js';
import type { CreateFileSystemInput } from './schemas.js';
import type { DeploymentType } from './state.js';

/**
 * FSx for Lustre's rules for a new file system (FSx for Lustre User Guide and API reference):
 * storage capacity steps and per-unit throughput per deployment type, what scratch file systems
 * cannot have (backups, KMS keys), and which Lustre versions each deployment type runs.
 */
export interface LustrePlan {
  deploymentType: DeploymentType;
  storageType: 'SSD' | 'HDD';
  storageCapacity: number;
  perUnitStorageThroughput?: number;
  fileSystemTypeVersion: string;
  persistent: boolean;
}

const THROUGHPUT: Record<string, number[]> = {
  'PERSISTENT_1:SSD': [50, 100, 200],
  'PERSISTENT_1:HDD': [12, 40],
  'PERSISTENT_2:SSD': [125, 250, 500, 1000],
};

function capacityRule(
  deploymentType: DeploymentType,
  storageType: string,
  throughput: number | undefined,
): { ok: (gib: number) => boolean; text: string } {
  if (storageType === 'HDD') {
    const step = throughput === 12 ? 6000 : 1800;
    return {
      ok: (g) => g > 0 && g % step === 0,
      text: `multiples of ${step} GiB for HDD storage at ${throughput ?? 40} MB/s/TiB`,
    };
  }
  if (deploymentType === 'SCRATCH_1') {
    return {
      ok: (g) => g === 1200 || g === 2400 || (g > 0 && g % 3600 === 0),
      text: '1200 GiB, 2400 GiB, or increments of 3600 GiB',
    };
  }
  return { ok: (g) => g === 1200 || (g > 0 && g % 2400 === 0), text: '1200 GiB or increments of 2400 GiB' };
}

export function planLustre(req: CreateFileSystemInput): LustrePlan {
  const lustre = req.LustreConfiguration ?? {};
  const deploymentType = lustre.DeploymentType ?? 'SCRATCH_1';
  const persistent = deploymentType.startsWith('PERSISTENT');
  if (
    req.StorageType === 'INTELLIGENT_TIERING' ||
    lustre.ThroughputCapacity !== undefined ||
    lustre.DataReadCacheConfiguration !== undefined
  ) {
    throw badRequest(
      'StorageType INTELLIGENT_TIERING (and its ThroughputCapacity / DataReadCacheConfiguration) is not supported by the sandbox.',
    );
  }
  const storageType = req.StorageType ?? 'SSD';
  if (storageType === 'HDD' && deploymentType !== 'PERSISTENT_1') {
    throw badRequest(`StorageType HDD is supported only for the PERSISTENT_1 deployment type, not ${deploymentType}.`);
  }

  const throughput = lustre.PerUnitStorageThroughput;
  if (!persistent && throughput !== undefined) {
    throw badRequest(
      `PerUnitStorageThroughput is only supported for PERSISTENT_1 and PERSISTENT_2 deployment types, not ${deploymentType}.`,
    );
  }
  if (persistent) {
    const allowed = THROUGHPUT[`${deploymentType}:${storageType}`]!;
    if (throughput === undefined)
      throw badRequest(`PerUnitStorageThroughput is required for the ${deploymentType} deployment type.`);
    if (!allowed.includes(throughput)) {
      throw invalidPerUnitStorageThroughput(
        `An invalid value for PerUnitStorageThroughput was provided: ${throughput}. Valid values for ${deploymentType} with ${storageType} storage are ${allowed.join(', ')}.`,
      );
    }
  }

  if (req.StorageCapacity === undefined) throw badRequest('StorageCapacity is required for Lustre file systems.');
  const rule = capacityRule(deploymentType, storageType, throughput);
  if (!rule.ok(req.StorageCapacity)) {
    throw badRequest(
      `Invalid StorageCapacity ${req.StorageCapacity} for the ${deploymentType} deployment type: valid values are ${rule.text}.`,
    );
  }

  if (storageType === 'HDD' && lustre.DriveCacheType === undefined)
    throw badRequest('DriveCacheType is required when StorageType is HDD.');
  if (storageType === 'SSD' && lustre.DriveCacheType !== undefined)
    throw badRequest('DriveCacheType is only supported when StorageType is HDD.');

  if (!persistent) {
    if (
      (lustre.AutomaticBackupRetentionDays ?? 0) > 0 ||
      lustre.DailyAutomaticBackupStartTime !== undefined ||
      lustre.CopyTagsToBackups
    ) {
      throw badRequest(
        `Automatic backups are not supported for ${deploymentType} file systems (AutomaticBackupRetentionDays, DailyAutomaticBackupStartTime, CopyTagsToBackups).`,
      );
    }
    if (req.KmsKeyId !== undefined)
      throw badRequest(
        `KmsKeyId is not supported for ${deploymentType} file systems: scratch file systems are encrypted with keys FSx manages.`,
      );
  }
  if (lustre.EfaEnabled && (deploymentType !== 'PERSISTENT_2' || !lustre.MetadataConfiguration)) {
    throw badRequest('EfaEnabled requires the PERSISTENT_2 deployment type with a MetadataConfiguration.');
  }
  const metadata = lustre.MetadataConfiguration;
  if (metadata) {
    if (deploymentType !== 'PERSISTENT_2')
      throw badRequest('MetadataConfiguration is supported only for the PERSISTENT_2 deployment type.');
    if (metadata.Mode === 'AUTOMATIC' && metadata.Iops !== undefined)
      throw badRequest('MetadataConfiguration.Iops must not be set when Mode is AUTOMATIC.');
    if (metadata.Mode === 'USER_PROVISIONED') {
      const iops = metadata.Iops;
      if (iops === undefined || !([1500, 3000, 6000].includes(iops) || iops % 12000 === 0)) {
        throw badRequest(
          'MetadataConfiguration.Iops must be 1500, 3000, 6000, or a multiple of 12000 up to 192000 when Mode is USER_PROVISIONED.',
        );
      }
    }
  }

  const version =
    req.FileSystemTypeVersion ?? (deploymentType === 'PERSISTENT_2' ? (metadata ? '2.15' : '2.12') : '2.10');
  if (!['2.10', '2.12', '2.15'].includes(version))
    throw badRequest(`FileSystemTypeVersion ${version} is not valid: use 2.10, 2.12 or 2.15.`);
  if (version === '2.10' && deploymentType === 'PERSISTENT_2')
    throw badRequest('FileSystemTypeVersion 2.10 is not supported for the PERSISTENT_2 deployment type.');
  if (version !== '2.15' && metadata) throw badRequest('A MetadataConfiguration requires FileSystemTypeVersion 2.15.');

  return {
    deploymentType,
    storageType,
    storageCapacity: req.StorageCapacity,
    ...(throughput !== undefined ? { perUnitStorageThroughput: throughput } : {}),
    fileSystemTypeVersion: version,
    persistent,
  };
}

/**
 * The S3 data repository of SCRATCH and PERSISTENT_1 file systems (`ImportPath` / `ExportPath`).
 * PERSISTENT_2 links S3 through data repository associations instead, which the sandbox lacks.
 */
export function planDataRepository(
  state: SandboxState,
  req: CreateFileSystemInput,
  deploymentType: DeploymentType,
  now: number,
): { importPath: string; exportPath: string; importedFileChunkSize: number; autoImportPolicy: string } | undefined {
  const lustre = req.LustreConfiguration ?? {};
  const { ImportPath, ExportPath, ImportedFileChunkSize, AutoImportPolicy } = lustre;
  if (ImportPath === undefined) {
    if (ExportPath !== undefined || ImportedFileChunkSize !== undefined || AutoImportPolicy !== undefined) {
      throw badRequest('ExportPath, ImportedFileChunkSize and AutoImportPolicy require an ImportPath.');
    }
    return undefined;
  }
  if (deploymentType === 'PERSISTENT_2') {
    throw badRequest(
      'ImportPath and ExportPath are not supported for the PERSISTENT_2 deployment type; link S3 with data repository associations.',
    );
  }
  const m = /^s3:\/\/([^/]+)(\/.*)?$/.exec(ImportPath);
  if (!m)
    throw invalidImportPath(
      `The import path '${ImportPath}' is not valid: it must be s3://bucket or s3://bucket/prefix.`,
    );
  const bucket = m[1]!;
  if (!bucketExists(state, bucket))
    throw invalidImportPath(`The S3 bucket '${bucket}' in ImportPath does not exist or is not accessible.`);
  let exportPath = ExportPath;
  if (exportPath === undefined) {
    const stamp = new Date(now)
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d{3}/, '');
    exportPath = `s3://${bucket}/FSxLustre${stamp}`;
  } else if (!(exportPath === `s3://${bucket}` || exportPath.startsWith(`s3://${bucket}/`))) {
    throw invalidExportPath(
      `The export path '${exportPath}' must be in the same S3 bucket as the import path (${bucket}).`,
    );
  }
  return {
    importPath: ImportPath,
    exportPath,
    importedFileChunkSize: ImportedFileChunkSize ?? 1024,
    autoImportPolicy: AutoImportPolicy ?? 'NONE',
  };
}
