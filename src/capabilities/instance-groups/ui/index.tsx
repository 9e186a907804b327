import type { CapabilityUi } from '../../../../web/src/capabilities.js';
import { CapacityRetryPanel } from './CapacityRetryPanel.js';
import { InstanceGroupsPanel } from './InstanceGroupsPanel.js';

export const ui: CapabilityUi = {
  clusterPanels: [{ id: 'instance-groups', tab: 'instance-groups', order: 20, Panel: InstanceGroupsPanel }],
  operationPanels: [{ id: 'capacity-retry', Panel: CapacityRetryPanel }],
};
