import { defineCapability } from '../capability.js';
import type { StoragePorts } from './ports.js';
import { registerStorageRoutes } from './routes.js';
import { StorageService } from './service.js';
import { registerAddStorageTool } from './tools/add-storage.js';
import { registerBrowseStorageTool } from './tools/browse-storage.js';
import { registerForgetKeptStorageTool } from './tools/forget-kept-storage.js';
import { registerListStorageTool } from './tools/list-storage.js';
import { registerRemoveStorageTool } from './tools/remove-storage.js';
import { addStorageWorkflow } from './workflows/add-storage.js';
import { removeStorageWorkflow } from './workflows/remove-storage.js';

/**
 * A cluster's storages: S3 buckets (Mountpoint for Amazon S3 CSI driver) and FSx for Lustre file
 * systems as statically provisioned volumes and claims — listed live from Kubernetes, added,
 * removed (data kept unless asked: then listed as kept until forgotten) and browsed. Other capabilities find a storage
 * by name through
 * `service(storage).resolve(region, cluster, name, namespace)`.
 */
export const storage = defineCapability<StorageService, StoragePorts>({
  name: 'storage',
  ports: { keptStorages: 'the storages removed keeping their data, until forgotten' },
  workflows: (deps) => [addStorageWorkflow(deps), removeStorageWorkflow(deps)],
  service: (deps) => new StorageService(deps),
  routes: registerStorageRoutes,
  tools: [
    registerListStorageTool,
    registerAddStorageTool,
    registerRemoveStorageTool,
    registerBrowseStorageTool,
    registerForgetKeptStorageTool,
  ],
});

export type { KeptStoragesPort, StoragePorts } from './ports.js';
