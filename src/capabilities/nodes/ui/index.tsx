import type { CapabilityUi } from '@kit/capability.js';
import { EventsPanel } from './events/EventsPanel.js';
import { NodesPanel } from './NodesPanel.js';

export const ui: CapabilityUi = {
  clusterPanels: [
    { id: 'nodes', tab: 'nodes', order: 40, Panel: NodesPanel },
    { id: 'events', tab: 'events', order: 50, Panel: EventsPanel },
  ],
};
