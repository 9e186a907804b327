import type { CapabilityUi } from '@kit/capability.js';
import { ClusterCostPanel } from './ClusterCostPanel.js';
import { ClustersPage } from './ClustersPage.js';
import { CreateClusterPage } from './CreateClusterPage.js';

const clustersCrumb = { text: 'Clusters', href: '/clusters' };
/** The clusters list and the create wizard. The cluster page (/clusters/:name…) is the shell's frame for every capability's panels. */
export const ui: CapabilityUi = {
  pages: [
    { path: '/clusters', element: <ClustersPage />, contentType: 'table', breadcrumbs: () => [clustersCrumb] },
    {
      path: '/create-cluster',
      element: <CreateClusterPage />,
      contentType: 'wizard',
      breadcrumbs: ({ pathname }) => [clustersCrumb, { text: 'Create cluster', href: pathname }],
    },
  ],
  navigation: [{ text: 'Clusters', href: '/clusters', order: 10, section: '/clusters' }],
  clusterPanels: [{ id: 'cluster-cost', tab: 'overview', order: 90, Panel: ClusterCostPanel }],
};

/** For the shell's cluster page (web/src/pages/ClusterDetailPage.tsx): the cluster, its overview, set-active and delete. */
export { clusterKeys, setActiveCluster, useCluster } from './api.js';
export { ClusterOverview } from './ClusterOverview.js';
export { DeleteClusterModal } from './DeleteClusterModal.js';
export { type ClusterDeletion, useClusterDeletion } from './use-cluster-deletion.js';
