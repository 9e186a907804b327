import { type CapabilityUi, CLUSTER_TABS } from '@kit/capability.js';

/**
 * The app shell's capability table. Every capability's UI is found by folder (adding one needs no line here) and
 * reached only through its `ui/index.tsx`; the shell builds the routes, the side navigation, the cluster page's tabs
 * and the operation page's panels from them. The contract (`CapabilityUi`, `CLUSTER_TABS`) is in the kit
 * (web/kit/capability.ts), so a capability UI never imports the shell.
 */
const modules = import.meta.glob<{ ui: CapabilityUi }>('../../src/capabilities/*/ui/index.tsx', { eager: true });
export const CAPABILITY_UIS: readonly CapabilityUi[] = Object.values(modules).map((m) => m.ui);

export const CAPABILITY_PAGES = CAPABILITY_UIS.flatMap((u) => u.pages ?? []);
export const NAVIGATION = CAPABILITY_UIS.flatMap((u) => u.navigation ?? []).sort((a, b) => a.order - b.order);
export const OPERATION_PANELS = CAPABILITY_UIS.flatMap((u) => u.operationPanels ?? []);
export const CLUSTER_PANELS = CAPABILITY_UIS.flatMap((u) => u.clusterPanels ?? []).sort((a, b) => a.order - b.order);
/** The tabs the cluster page shows: the overview, and every tab some panel is on. */
export const CLUSTER_PAGE_TABS = CLUSTER_TABS.filter(
  (t) => t.id === 'overview' || CLUSTER_PANELS.some((p) => p.tab === t.id),
);
