import type { CapabilityUi } from '@kit/capability.js';
import { TrainingPanel } from './TrainingPanel.js';

export const ui: CapabilityUi = {
  clusterPanels: [{ id: 'training-jobs', tab: 'jobs', order: 10, Panel: TrainingPanel }],
};
