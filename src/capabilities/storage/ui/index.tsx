import type { CapabilityUi } from '../../../../web/src/capabilities.js';
import { StoragePanel } from './StoragePanel.js';

export const ui: CapabilityUi = {
  clusterPanels: [{ id: 'storage', tab: 'storage', order: 10, Panel: StoragePanel }],
};
