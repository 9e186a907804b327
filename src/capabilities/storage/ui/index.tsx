import type { CapabilityUi } from '@kit/capability.js';
import { StoragePanel } from './StoragePanel.js';

export const ui: CapabilityUi = {
  clusterPanels: [{ id: 'storage', tab: 'storage', order: 10, Panel: StoragePanel }],
};

/** For other capabilities' UIs: the cluster's storages (where a download lands, what a job mounts). */
export { useStorageList } from './api.js';
