import type { AppLayoutProps } from '@cloudscape-design/components/app-layout';
import type { BreadcrumbGroupProps } from '@cloudscape-design/components/breadcrumb-group';
import type { ComponentType, ReactElement } from 'react';

/** A page of a capability: its route, its layout and its breadcrumbs after "InstantStart". */
export interface CapabilityPage {
  path: string;
  element: ReactElement;
  contentType?: AppLayoutProps.ContentType;
  breadcrumbs(params: { pathname: string; parts: string[] }): BreadcrumbGroupProps.Item[];
}

/** A section of the cluster page, e.g. the node table. */
export interface ClusterPanel {
  id: string;
  /** Position on the cluster page, top to bottom. */
  order: number;
  Panel: ComponentType<{ cluster: string; region: string }>;
}

/** What a capability adds to the UI (src/capabilities/<name>/ui/index.tsx exports it as `ui`). */
export interface CapabilityUi {
  pages?: CapabilityPage[];
  /** Side navigation links; `section` is the path prefix that marks the link active. */
  navigation?: Array<{ text: string; href: string; order: number; section: string }>;
  clusterPanels?: ClusterPanel[];
}

// Every capability's UI, found by folder: adding a capability needs no line here.
const modules = import.meta.glob<{ ui: CapabilityUi }>('../../src/capabilities/*/ui/index.tsx', { eager: true });
export const CAPABILITY_UIS: readonly CapabilityUi[] = Object.values(modules).map((m) => m.ui);

export const PAGES = CAPABILITY_UIS.flatMap((u) => u.pages ?? []);
export const NAVIGATION = CAPABILITY_UIS.flatMap((u) => u.navigation ?? []).sort((a, b) => a.order - b.order);
export const CLUSTER_PANELS = CAPABILITY_UIS.flatMap((u) => u.clusterPanels ?? []).sort((a, b) => a.order - b.order);
