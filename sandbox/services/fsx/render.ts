import type { StoredFileSystem } from './state.js';

/** A file system as DescribeFileSystems and CreateFileSystem answer it (timestamps as Dates). */
export function renderFileSystem(fs: StoredFileSystem) {
  const l = fs.lustre;
  return {
    OwnerId: fs.ownerId,
    CreationTime: new Date(fs.creationTime),
    FileSystemId: fs.fileSystemId,
    FileSystemType: 'LUSTRE',
    Lifecycle: fs.lifecycle,
    StorageCapacity: fs.storageCapacity,
    StorageType: fs.storageType,
    VpcId: fs.vpcId,
    SubnetIds: [...fs.subnetIds],
    NetworkInterfaceIds: [...fs.networkInterfaceIds],
    DNSName: fs.dnsName,
    ...(fs.kmsKeyId !== undefined ? { KmsKeyId: fs.kmsKeyId } : {}),
    ResourceARN: fs.arn,
    Tags: fs.tags.map((t) => ({ ...t })),
    LustreConfiguration: {
      WeeklyMaintenanceStartTime: l.weeklyMaintenanceStartTime,
      ...(l.dataRepository
        ? {
            DataRepositoryConfiguration: {
              Lifecycle:
                fs.lifecycle === 'CREATING' ? 'CREATING' : fs.lifecycle === 'DELETING' ? 'DELETING' : 'AVAILABLE',
              ImportPath: l.dataRepository.importPath,
              ExportPath: l.dataRepository.exportPath,
              ImportedFileChunkSize: l.dataRepository.importedFileChunkSize,
              AutoImportPolicy: l.dataRepository.autoImportPolicy,
            },
          }
        : {}),
      DeploymentType: l.deploymentType,
      ...(l.perUnitStorageThroughput !== undefined ? { PerUnitStorageThroughput: l.perUnitStorageThroughput } : {}),
      MountName: l.mountName,
      ...(l.dailyAutomaticBackupStartTime !== undefined
        ? { DailyAutomaticBackupStartTime: l.dailyAutomaticBackupStartTime }
        : {}),
      ...(l.automaticBackupRetentionDays !== undefined
        ? { AutomaticBackupRetentionDays: l.automaticBackupRetentionDays }
        : {}),
      CopyTagsToBackups: l.copyTagsToBackups,
      ...(l.driveCacheType !== undefined ? { DriveCacheType: l.driveCacheType } : {}),
      DataCompressionType: l.dataCompressionType,
      LogConfiguration: {
        Level: l.log.level,
        ...(l.log.destination !== undefined ? { Destination: l.log.destination } : {}),
      },
      ...(l.rootSquash
        ? {
            RootSquashConfiguration: {
              ...(l.rootSquash.rootSquash !== undefined ? { RootSquash: l.rootSquash.rootSquash } : {}),
              ...(l.rootSquash.noSquashNids !== undefined ? { NoSquashNids: [...l.rootSquash.noSquashNids] } : {}),
            },
          }
        : {}),
      ...(l.metadata
        ? {
            MetadataConfiguration: {
              Mode: l.metadata.mode,
              ...(l.metadata.iops !== undefined ? { Iops: l.metadata.iops } : {}),
            },
          }
        : {}),
      ...(l.efaEnabled !== undefined ? { EfaEnabled: l.efaEnabled } : {}),
    },
    FileSystemTypeVersion: fs.fileSystemTypeVersion,
    NetworkType: 'IPV4',
  };
}
