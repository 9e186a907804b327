import type { CapabilityUi } from '../../../../web/src/capabilities.js';
import { TrainingPanel } from './TrainingPanel.js';

export const ui: CapabilityUi = {
  clusterPanels: [{ id: 'training-jobs', tab: 'jobs', order: 10, Panel: TrainingPanel }],
};
