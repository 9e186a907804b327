import type { CapabilityUi } from '@kit/capability.js';

/**
 * The catalog has no page of its own: the create wizard, the instance-group dialogs and the node filters read what
 * AWS offers through the hooks exported here.
 */
export const ui: CapabilityUi = {};
export {
  checkQuotas,
  preflightCluster,
  useAvailabilityZones,
  useInstanceTypes,
  useKubernetesVersions,
  useRegions,
  useTrainingPlans,
} from './api.js';
