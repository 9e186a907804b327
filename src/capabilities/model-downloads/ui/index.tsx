import type { CapabilityUi } from '@kit/capability.js';
import { ModelDownloadsPanel } from './ModelDownloadsPanel.js';

export const ui: CapabilityUi = {
  clusterPanels: [{ id: 'model-downloads', tab: 'models', order: 10, Panel: ModelDownloadsPanel }],
};

/** For other capabilities' UIs: the cluster's downloaded models (a job's model path). */
export { useModelDownloads } from './api.js';
