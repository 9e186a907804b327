import { keyed } from '../../core/keyed.js';
import { randomBytes } from 'node:crypto';
import { isAwsError } from '../../core/errors.js';
import { lookupClientToken, rememberClientToken } from '../../core/idempotency.js';
import { arn, resourceId, unitHash } from '../../core/ids.js';
import type { RequestContext } from '../../core/service.js';
import { validateInput } from '../../core/validation.js';
import { createNetworkInterface } from '../ec2/public.js';
import { badRequest, incompatibleParameter, invalidNetworkSettings } from './errors.js';
import { planDataRepository, planLustre } from './lustre-rules.js';
import { checkNetwork } from './network.js';
import { renderFileSystem } from './render.js';
import { createFileSystemSchema, VALIDATION } from './schemas.js';
import { findFileSystem, fsxRegion, type FsxTag, type StoredFileSystem } from './state.js';
import { checkTagKeys } from './tags.js';

/**
 * CreateFileSystem for FSx for Lustre. Everything is checked before anything is made; the one
 * cross-service effect, the file system's network interface in its subnet, comes last.
 * CREATING lasts 6–10 sandbox minutes (per file system, stable across restarts).
 */
const MINUTE = 60_000;
export const creatingMs = (id: string) => Math.round((6 + 4 * unitHash(`${id}:create`)) * MINUTE);

const pad = (n: number) => String(n).padStart(2, '0');

/** FSx picks a weekly maintenance window (`d:HH:MM`) when none is given. */
function defaultMaintenanceWindow(id: string): string {
  const h = unitHash(`${id}:maintenance`);
  return `${1 + Math.floor(h * 7)}:${pad(Math.floor((h * 7 * 24) % 24))}:${pad(Math.floor((h * 7 * 24 * 60) % 60))}`;
}

function defaultBackupTime(id: string): string {
  const h = unitHash(`${id}:backup`);
  return `${pad(Math.floor(h * 24))}:${pad(Math.floor((h * 24 * 60) % 60))}`;
}

/** Mount names are 8 lower-case alphanumerics, unique in the region (SCRATCH_1 always mounts as `fsx`). */
function newMountName(taken: Set<string>): string {
  for (;;) {
    const name = [...randomBytes(8)].map((b) => 'abcdefghijklmnopqrstuvwxyz0123456789'[b % 36]).join('');
    if (!taken.has(name)) return name;
  }
}

/** The AWS managed key (`aws/fsx`) of the sandbox account in a region: a stable id per region. */
function managedKmsKey(region: string, accountId: string): string {
  const hex = [0, 1, 2, 3]
    .map((i) =>
      Math.floor(unitHash(`aws/fsx:${region}:${i}`) * 0x1_0000_0000)
        .toString(16)
        .padStart(8, '0'),
    )
    .join('');
  return `arn:aws:kms:${region}:${accountId}:key/${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

export function createFileSystem(input: unknown, ctx: RequestContext) {
  const req = validateInput(createFileSystemSchema, input, VALIDATION);
  const { ClientRequestToken: token, ...params } = req;
  const earlier = lookupClientToken(ctx, token, params, () =>
    incompatibleParameter(
      'ClientRequestToken',
      'A file system with this ClientRequestToken already exists with different parameters.',
    ),
  );
  const existing = earlier ? findFileSystem(ctx.state, ctx.region, earlier) : undefined;
  if (existing) return { FileSystem: renderFileSystem(existing) };

  if (req.FileSystemType !== 'LUSTRE') {
    throw badRequest(
      `FileSystemType ${req.FileSystemType} is not supported by the sandbox: only LUSTRE file systems can be created.`,
    );
  }
  for (const other of ['WindowsConfiguration', 'OntapConfiguration', 'OpenZFSConfiguration'] as const) {
    if (req[other] !== undefined) throw badRequest(`${other} cannot be used with FileSystemType LUSTRE.`);
  }
  if (req.NetworkType === 'DUAL') throw badRequest('NetworkType DUAL is not supported by the sandbox: use IPV4.');
  const plan = planLustre(req);
  const dataRepository = planDataRepository(ctx.state, req, plan.deploymentType, ctx.now());
  const tags: FsxTag[] = req.Tags ?? [];
  checkTagKeys(tags);
  const securityGroupIds = req.SecurityGroupIds ?? [];
  const network = checkNetwork(ctx.state, ctx.region, req.SubnetIds, securityGroupIds);

  const id = resourceId('fs');
  let eni: { networkInterfaceId: string };
  try {
    eni = createNetworkInterface(ctx.state, ctx.region, {
      subnetId: network.subnetId,
      groupIds: securityGroupIds,
      description: `Elastic network interface for Amazon FSx for Lustre file system ${id}`,
      interfaceType: 'interface',
      requesterId: 'amazon-fsx',
    });
  } catch (err) {
    if (isAwsError(err) && err.code === 'InsufficientFreeAddressesInSubnet') {
      throw invalidNetworkSettings(
        `The subnet '${network.subnetId}' has no free IP addresses for the file system's network interface`,
        { InvalidSubnetId: network.subnetId },
      );
    }
    throw err;
  }

  const now = ctx.now();
  const region = fsxRegion(ctx.state, ctx.region);
  const lustre = req.LustreConfiguration ?? {};
  const mountNames = new Set(keyed.values(region.fileSystems).map((f) => f.lustre.mountName));
  const retention = plan.persistent ? (lustre.AutomaticBackupRetentionDays ?? 0) : undefined;
  const logLevel = lustre.LogConfiguration?.Level ?? 'DISABLED';
  const fs: StoredFileSystem = {
    fileSystemId: id,
    arn: arn('fsx', ctx.region, ctx.accountId, `file-system/${id}`),
    ownerId: ctx.accountId,
    creationTime: now,
    lifecycle: 'CREATING',
    readyAt: now + creatingMs(id),
    storageCapacity: plan.storageCapacity,
    storageType: plan.storageType,
    vpcId: network.vpcId,
    subnetIds: [network.subnetId],
    securityGroupIds,
    networkInterfaceIds: [eni.networkInterfaceId],
    dnsName: `${id}.fsx.${ctx.region}.amazonaws.com`,
    ...(plan.persistent ? { kmsKeyId: req.KmsKeyId ?? managedKmsKey(ctx.region, ctx.accountId) } : {}),
    fileSystemTypeVersion: plan.fileSystemTypeVersion,
    tags: tags.map((t) => ({ Key: t.Key, Value: t.Value })),
    lustre: {
      deploymentType: plan.deploymentType,
      mountName: plan.deploymentType === 'SCRATCH_1' ? 'fsx' : newMountName(mountNames),
      weeklyMaintenanceStartTime: lustre.WeeklyMaintenanceStartTime ?? defaultMaintenanceWindow(id),
      ...(plan.perUnitStorageThroughput !== undefined
        ? { perUnitStorageThroughput: plan.perUnitStorageThroughput }
        : {}),
      ...(retention !== undefined ? { automaticBackupRetentionDays: retention } : {}),
      ...(lustre.DailyAutomaticBackupStartTime !== undefined || (retention ?? 0) > 0
        ? { dailyAutomaticBackupStartTime: lustre.DailyAutomaticBackupStartTime ?? defaultBackupTime(id) }
        : {}),
      copyTagsToBackups: lustre.CopyTagsToBackups ?? false,
      ...(lustre.DriveCacheType !== undefined ? { driveCacheType: lustre.DriveCacheType } : {}),
      dataCompressionType: lustre.DataCompressionType ?? 'NONE',
      ...(lustre.EfaEnabled !== undefined ? { efaEnabled: lustre.EfaEnabled } : {}),
      log: {
        level: logLevel,
        ...(logLevel !== 'DISABLED'
          ? {
              destination:
                lustre.LogConfiguration?.Destination ??
                arn('logs', ctx.region, ctx.accountId, 'log-group:/aws/fsx/lustre'),
            }
          : {}),
      },
      ...(lustre.RootSquashConfiguration
        ? {
            rootSquash: {
              ...(lustre.RootSquashConfiguration.RootSquash !== undefined
                ? { rootSquash: lustre.RootSquashConfiguration.RootSquash }
                : {}),
              ...(lustre.RootSquashConfiguration.NoSquashNids !== undefined
                ? { noSquashNids: [...lustre.RootSquashConfiguration.NoSquashNids] }
                : {}),
            },
          }
        : {}),
      ...(lustre.MetadataConfiguration
        ? {
            metadata: {
              mode: lustre.MetadataConfiguration.Mode,
              ...(lustre.MetadataConfiguration.Iops !== undefined ? { iops: lustre.MetadataConfiguration.Iops } : {}),
            },
          }
        : {}),
      ...(dataRepository ? { dataRepository } : {}),
    },
  };
  keyed.set(region.fileSystems, id, fs);
  rememberClientToken(ctx, token, params, id);
  return { FileSystem: renderFileSystem(fs) };
}
