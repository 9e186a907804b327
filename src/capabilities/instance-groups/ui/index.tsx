import type { CapabilityUi } from '@kit/capability.js';
import { CapacityRetryPanel } from './CapacityRetryPanel.js';
import { InstanceGroupsPanel } from './InstanceGroupsPanel.js';

export const ui: CapabilityUi = {
  clusterPanels: [{ id: 'instance-groups', tab: 'instance-groups', order: 20, Panel: InstanceGroupsPanel }],
  operationPanels: [{ id: 'capacity-retry', Panel: CapacityRetryPanel }],
};

/** For other capabilities' UIs: the cluster's groups (node filters, autoscaling, job placement), the scale check. */
export { checkScaleInstanceGroup, useInstanceGroups } from './api.js';
