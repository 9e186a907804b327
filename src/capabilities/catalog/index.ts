import { defineCapability } from '../capability.js';
import type { CatalogPorts } from './ports.js';
import { registerCatalogRoutes } from './routes.js';
import { PreflightService } from './service.js';
import { registerCheckClusterRequestTool } from './tools/check-cluster-request.js';
import { registerCheckQuotasTool } from './tools/check-quotas.js';
import { registerListAvailabilityZonesTool } from './tools/list-availability-zones.js';
import { registerListInstanceTypesTool } from './tools/list-instance-types.js';
import { registerListKubernetesVersionsTool } from './tools/list-kubernetes-versions.js';
import { registerListTrainingPlansTool } from './tools/list-training-plans.js';

/** What AWS offers and allows (Regions, zones, instance types, training plans, Kubernetes versions, quotas) and the checks before a create. */
export const catalog = defineCapability<PreflightService, CatalogPorts>({
  name: 'catalog',
  ports: { catalog: 'what AWS offers and allows, read through the catalogue calls (cached)' },
  service: (deps) => new PreflightService(deps.catalog, deps.defaultRegion),
  routes: registerCatalogRoutes,
  tools: [
    registerListAvailabilityZonesTool,
    registerListInstanceTypesTool,
    registerListTrainingPlansTool,
    registerListKubernetesVersionsTool,
    registerCheckQuotasTool,
    registerCheckClusterRequestTool,
  ],
});

export type { CatalogPort, CatalogPorts } from './ports.js';
/** Its service, as `deps.service(catalog)` answers it: the checks before a create or a scale. */
export type { PreflightService };
