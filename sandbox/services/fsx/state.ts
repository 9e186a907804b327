import { keyed, type Keyed } from '../../core/keyed.js';
import type { SandboxState } from '../../core/store.js';

/**
 * FSx state, per region. Only Lustre file systems exist in the sandbox. Times are epoch ms; the
 * lifecycle moves on the sandbox clock (`readyAt`, `goneAt`), driven by `tick.ts`.
 */
export type Lifecycle = 'CREATING' | 'AVAILABLE' | 'DELETING' | 'FAILED';
export type DeploymentType = 'SCRATCH_1' | 'SCRATCH_2' | 'PERSISTENT_1' | 'PERSISTENT_2';

export interface FsxTag {
  Key: string;
  Value: string;
}

export interface StoredDataRepository {
  importPath: string;
  exportPath: string;
  importedFileChunkSize: number;
  autoImportPolicy: string;
}

export interface StoredLustreConfig {
  deploymentType: DeploymentType;
  mountName: string;
  weeklyMaintenanceStartTime: string;
  perUnitStorageThroughput?: number;
  dailyAutomaticBackupStartTime?: string;
  automaticBackupRetentionDays?: number;
  copyTagsToBackups: boolean;
  driveCacheType?: string;
  dataCompressionType: string;
  efaEnabled?: boolean;
  log: { level: string; destination?: string };
  rootSquash?: { rootSquash?: string; noSquashNids?: string[] };
  metadata?: { mode: string; iops?: number };
  dataRepository?: StoredDataRepository;
}

export interface StoredFileSystem {
  fileSystemId: string;
  arn: string;
  ownerId: string;
  creationTime: number;
  lifecycle: Lifecycle;
  /** When CREATING ends. */
  readyAt?: number;
  /** When a DELETING file system disappears. */
  goneAt?: number;
  storageCapacity: number;
  storageType: 'SSD' | 'HDD';
  vpcId: string;
  subnetIds: string[];
  securityGroupIds: string[];
  networkInterfaceIds: string[];
  dnsName: string;
  kmsKeyId?: string;
  fileSystemTypeVersion: string;
  tags: FsxTag[];
  lustre: StoredLustreConfig;
}

export interface FsxRegion {
  fileSystems: Keyed<StoredFileSystem>;
}

type FsxState = Keyed<FsxRegion>;

export function fsxRegion(state: SandboxState, region: string): FsxRegion {
  const all = ((state.fsx as FsxState | undefined) ??= {});
  return keyed.ensure(all, region, () => ({ fileSystems: {} }));
}

/** Reads without creating sections, so read-only calls leave the state document as it was. */
export function peekFsxRegion(state: SandboxState, region: string): FsxRegion | undefined {
  return keyed.get(state.fsx as FsxState | undefined, region);
}

export function allFsxRegions(state: SandboxState): [string, FsxRegion][] {
  return keyed.entries(state.fsx as FsxState | undefined);
}

export function findFileSystem(state: SandboxState, region: string, id: string): StoredFileSystem | undefined {
  return keyed.get(peekFsxRegion(state, region)?.fileSystems, id);
}
