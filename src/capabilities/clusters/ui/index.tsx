import type { CapabilityUi } from '../../../../web/src/capabilities.js';
import { ClusterDetailPage } from './ClusterDetailPage.js';
import { ClustersPage } from './ClustersPage.js';
import { CreateClusterPage } from './CreateClusterPage.js';

const clustersCrumb = { text: 'Clusters', href: '/clusters' };

export const ui: CapabilityUi = {
  pages: [
    { path: '/clusters', element: <ClustersPage />, contentType: 'table', breadcrumbs: () => [clustersCrumb] },
    { path: '/clusters/:name', element: <ClusterDetailPage />, breadcrumbs: ({ pathname, parts }) => [clustersCrumb, { text: parts[1]!, href: pathname }] },
    { path: '/create-cluster', element: <CreateClusterPage />, contentType: 'wizard', breadcrumbs: ({ pathname }) => [clustersCrumb, { text: 'Create cluster', href: pathname }] },
  ],
  navigation: [{ text: 'Clusters', href: '/clusters', order: 10, section: '/clusters' }],
};
