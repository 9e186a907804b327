import type { CapabilityUi } from '../../../../web/src/capabilities.js';
import { ModelDownloadsPanel } from './ModelDownloadsPanel.js';

export const ui: CapabilityUi = {
  clusterPanels: [{ id: 'model-downloads', tab: 'models', order: 10, Panel: ModelDownloadsPanel }],
};
