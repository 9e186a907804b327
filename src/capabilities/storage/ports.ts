import type { KeptStorageRecord } from '../../domain/schemas/storage.js';
import type { WorkflowDeps } from '../../workflows/context.js';
import type { ServiceDeps } from '../capability.js';

/** Storages removed keeping their data, in the server's store until forgotten (remove-storage records them). */
export interface KeptStoragesPort {
  list(region: string, cluster: string): KeptStorageRecord[];
  get(region: string, cluster: string, namespace: string, name: string): KeptStorageRecord | undefined;
  put(record: Omit<KeptStorageRecord, 'keptAt'>): void;
  forget(region: string, cluster: string, namespace: string, name: string): boolean;
}

/** The storage capability's own ports, supplied by the composition root. */
export interface StoragePorts {
  keptStorages: KeptStoragesPort;
}

export type StorageWorkflowDeps = WorkflowDeps & StoragePorts;
export type StorageServiceDeps = ServiceDeps & StoragePorts;
