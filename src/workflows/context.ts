import type { CloudPort } from '../cloud/ports.js';
import type { KeptStorageRecord } from '../domain/schemas/storage.js';

export type { KeptStorageRecord } from '../domain/schemas/storage.js';

/** The selection of the active cluster lives in the server's store; workflows reach it through this port. */
export interface ActiveClusterPort {
  get(): { name: string; region: string } | undefined;
  set(value: { name: string; region: string } | undefined): void;
}

/** A saved training template as the store keeps it (the request is parsed by the training capability). */
export interface TrainingTemplateRecord {
  name: string;
  description?: string;
  request: unknown;
  createdAt: string;
  updatedAt: string;
}

/**
 * What the training capability keeps in the server's store (src/store/training-store.ts): templates
 * per Region and cluster, and the cluster's default MLflow tracking server.
 */
export interface TrainingRecordsPort {
  templates(region: string, cluster: string): TrainingTemplateRecord[];
  template(region: string, cluster: string, name: string): TrainingTemplateRecord | undefined;
  putTemplate(t: { region: string; cluster: string; name: string; description?: string; request: unknown }): {
    replaced: boolean;
  };
  deleteTemplate(region: string, cluster: string, name: string): boolean;
  clusterMlflow(region: string, cluster: string): string | undefined;
  setClusterMlflow(region: string, cluster: string, trackingServerArn: string | undefined): void;
  /** Unlinks the server from every cluster that had it as default; those clusters. */
  unlinkServer(trackingServerArn: string): Array<{ region: string; cluster: string }>;
}

export interface KeptStoragesPort {
  list(region: string, cluster: string): KeptStorageRecord[];
  get(region: string, cluster: string, namespace: string, name: string): KeptStorageRecord | undefined;
  put(record: Omit<KeptStorageRecord, 'keptAt'>): void;
  forget(region: string, cluster: string, namespace: string, name: string): boolean;
}

/** What every workflow is built with. */
export interface WorkflowDeps {
  cloud: CloudPort;
  activeCluster: ActiveClusterPort;
  /** Storages removed keeping their data (remove-storage records them). */
  keptStorages: KeptStoragesPort;
  /** Clusters' default MLflow server links: a delete that deletes a server (or the cluster) unlinks it. */
  mlflowLinks: Pick<TrainingRecordsPort, 'unlinkServer' | 'setClusterMlflow'>;
}
