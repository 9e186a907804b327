import type { AppLayoutProps } from '@cloudscape-design/components/app-layout';
import type { BreadcrumbGroupProps } from '@cloudscape-design/components/breadcrumb-group';
import type { ComponentType, ReactElement } from 'react';
import type { OperationView } from './api/types.js';

/** A page of a capability: its route, its layout and its breadcrumbs after "InstantStart". */
export interface CapabilityPage {
  path: string;
  element: ReactElement;
  contentType?: AppLayoutProps.ContentType;
  breadcrumbs(params: { pathname: string; parts: string[] }): BreadcrumbGroupProps.Item[];
}

/**
 * The cluster page's tabs, in order, each at `/clusters/:name/<id>` (the overview at `/clusters/:name`).
 * A tab shows when some capability puts a panel on it (the overview always shows), so a tab named
 * here for a capability to come (features, storage, jobs, endpoints) costs nothing until then.
 * A capability that needs a tab nobody named yet adds it here.
 */
export const CLUSTER_TABS = [
  { id: 'overview', label: 'Overview' },
  { id: 'instance-groups', label: 'Instance groups' },
  { id: 'nodes', label: 'Nodes' },
  { id: 'autoscaling', label: 'Autoscaling' },
  { id: 'features', label: 'Features' },
  { id: 'storage', label: 'Storage' },
  { id: 'models', label: 'Model downloads' },
  { id: 'jobs', label: 'Jobs' },
  { id: 'endpoints', label: 'Endpoints' },
  { id: 'events', label: 'Events' },
] as const;
export type ClusterTabId = (typeof CLUSTER_TABS)[number]['id'];

/** A section of the cluster page, e.g. the node table. */
export interface ClusterPanel {
  id: string;
  /** The tab it shows on (its URL: /clusters/:name/<tab>). */
  tab: ClusterTabId;
  /** Position within its tab, top to bottom. */
  order: number;
  Panel: ComponentType<ClusterPanelProps>;
}

export interface ClusterPanelProps {
  cluster: string;
  region: string;
  /** The rest of the URL after the tab, when it names one thing of the tab: /clusters/:name/nodes/<instance id>. */
  item?: string;
}

/** What a capability adds to the UI (src/capabilities/<name>/ui/index.tsx exports it as `ui`). */
export interface CapabilityUi {
  pages?: CapabilityPage[];
  /** Side navigation links; `section` is the path prefix that marks the link active. */
  navigation?: Array<{ text: string; href: string; order: number; section: string }>;
  clusterPanels?: ClusterPanel[];
  /** Shown on an operation's page under its error (each decides from the operation whether it has anything to offer). */
  operationPanels?: Array<{ id: string; Panel: ComponentType<{ operation: OperationView }> }>;
}

// Every capability's UI, found by folder: adding a capability needs no line here.
const modules = import.meta.glob<{ ui: CapabilityUi }>('../../src/capabilities/*/ui/index.tsx', { eager: true });
export const CAPABILITY_UIS: readonly CapabilityUi[] = Object.values(modules).map((m) => m.ui);

export const PAGES = CAPABILITY_UIS.flatMap((u) => u.pages ?? []);
export const NAVIGATION = CAPABILITY_UIS.flatMap((u) => u.navigation ?? []).sort((a, b) => a.order - b.order);
export const OPERATION_PANELS = CAPABILITY_UIS.flatMap((u) => u.operationPanels ?? []);
export const CLUSTER_PANELS = CAPABILITY_UIS.flatMap((u) => u.clusterPanels ?? []).sort((a, b) => a.order - b.order);
/** The tabs the cluster page shows: the overview, and every tab some panel is on. */
export const CLUSTER_PAGE_TABS = CLUSTER_TABS.filter(
  (t) => t.id === 'overview' || CLUSTER_PANELS.some((p) => p.tab === t.id),
);
