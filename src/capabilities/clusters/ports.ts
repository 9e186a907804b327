import type { KeptStorageRecord } from '../../domain/schemas/storage.js';
import type { WorkflowDeps } from '../../workflows/context.js';
import type { ServiceDeps } from '../capability.js';

/** The selection of the active cluster, a setting in the server's store. */
export interface ActiveClusterPort {
  get(): { name: string; region: string } | undefined;
  set(value: { name: string; region: string } | undefined): void;
}

/** What a cluster's delete plan reads of the storages removed from it keeping their data (it keeps them too). */
export interface KeptStoragesOfClusterPort {
  list(region: string, cluster: string): KeptStorageRecord[];
}

/** Clusters' default MLflow servers (the training capability links them): a delete that deletes a server unlinks it. */
export interface ClusterMlflowLinksPort {
  /** Unlinks the server from every cluster that had it as default; those clusters. */
  unlinkServer(trackingServerArn: string): Array<{ region: string; cluster: string }>;
  setClusterMlflow(region: string, cluster: string, trackingServerArn: string | undefined): void;
}

/** The clusters capability's own ports (what it reads and clears in the server's store), supplied by the composition root. */
export interface ClusterPorts {
  activeCluster: ActiveClusterPort;
  keptStorages: KeptStoragesOfClusterPort;
  mlflowLinks: ClusterMlflowLinksPort;
}

export type ClusterWorkflowDeps = WorkflowDeps & ClusterPorts;
export type ClusterServiceDeps = ServiceDeps & ClusterPorts;
