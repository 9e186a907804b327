import type { CapabilityUi } from '../../../../web/src/capabilities.js';
import { FeaturesPanel } from './FeaturesPanel.js';

export const ui: CapabilityUi = {
  clusterPanels: [{ id: 'features', tab: 'features', order: 10, Panel: FeaturesPanel }],
};
