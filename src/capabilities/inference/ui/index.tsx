import type { CapabilityUi } from '@kit/capability.js';
import { InferencePanel } from './InferencePanel.js';

/** The Endpoints tab of the cluster page: endpoints (both kinds), their detail with a chat, the pools' assignment. */
export const ui: CapabilityUi = {
  clusterPanels: [{ id: 'inference-endpoints', tab: 'endpoints', order: 10, Panel: InferencePanel }],
};
