import type { CapabilityUi } from '@kit/capability.js';
import { AutoscalingPanel } from './AutoscalingPanel.js';

export const ui: CapabilityUi = {
  clusterPanels: [{ id: 'autoscaling', tab: 'autoscaling', order: 30, Panel: AutoscalingPanel }],
};
