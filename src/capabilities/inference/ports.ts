import type { ServiceDeps } from '../capability.js';
import type { CatalogPort } from '../catalog/index.js';

/** The inference capability's own ports, supplied by the composition root. */
export interface InferencePorts {
  /** The catalogue's instance types (GPUs per type), which bound a replica's GPUs. */
  catalog: Pick<CatalogPort, 'listHyperPodInstanceTypes'>;
}

export type InferenceServiceDeps = ServiceDeps & InferencePorts;
