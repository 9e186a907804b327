import type { AppLayoutProps } from '@cloudscape-design/components/app-layout';
import type { BreadcrumbGroupProps } from '@cloudscape-design/components/breadcrumb-group';
import { type ComponentType, createContext, type ReactElement, useContext } from 'react';
import type { OperationView } from './api/types.js';

/**
 * The UI contract between the app shell (web/src) and the capabilities: each capability's
 * src/capabilities/<name>/ui/index.tsx exports a `CapabilityUi` as `ui`, and the shell builds its routes,
 * navigation, breadcrumbs and the cluster page's tabs from them (web/src/capabilities.ts).
 */

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

/** A panel another capability shows on an operation's page, under its error (`CapabilityUi.operationPanels`). */
export type OperationPanel = NonNullable<CapabilityUi['operationPanels']>[number];

/**
 * Every capability's operation panels, provided by the shell (web/src/main.tsx) to the operations capability's page:
 * the page renders them without importing the shell's capability table.
 */
export const OperationPanelsContext = createContext<readonly OperationPanel[]>([]);
export const useOperationPanels = (): readonly OperationPanel[] => useContext(OperationPanelsContext);
