import type { ServiceDeps } from '../capability.js';
import type { CatalogPort } from '../catalog/index.js';

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

/** The training capability's own ports, supplied by the composition root. */
export interface TrainingPorts {
  /** Templates and each cluster's default MLflow server. */
  training: TrainingRecordsPort;
  /** The catalogue's instance types (accelerators, EFA), which size a job's pods. */
  catalog: Pick<CatalogPort, 'listHyperPodInstanceTypes'>;
}

export type TrainingServiceDeps = ServiceDeps & TrainingPorts;
