import type { CapabilityUi } from '@kit/capability.js';
import { FeaturesPanel } from './FeaturesPanel.js';

export const ui: CapabilityUi = {
  clusterPanels: [{ id: 'features', tab: 'features', order: 10, Panel: FeaturesPanel }],
};
