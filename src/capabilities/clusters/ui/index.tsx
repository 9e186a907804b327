import type { CapabilityUi } from '../../../../web/src/capabilities.js';
import { CLUSTER_TABS } from '../../../../web/src/capabilities.js';
import { clusterPath } from '../../../../web/src/lib/format.js';
import { ClusterDetailPage } from './ClusterDetailPage.js';
import { ClustersPage } from './ClustersPage.js';
import { CreateClusterPage } from './CreateClusterPage.js';

const clustersCrumb = { text: 'Clusters', href: '/clusters' };
const clusterCrumb = (name: string) => ({ text: name, href: clusterPath(name) });
const tabCrumb = (name: string, tab: string) => ({
  text: CLUSTER_TABS.find((t) => t.id === tab)?.label ?? tab,
  href: clusterPath(name, undefined, tab),
});

export const ui: CapabilityUi = {
  pages: [
    { path: '/clusters', element: <ClustersPage />, contentType: 'table', breadcrumbs: () => [clustersCrumb] },
    // One page for a cluster, its tabs and an item of a tab (a node): the page reads which from the URL.
    {
      path: '/clusters/:name',
      element: <ClusterDetailPage />,
      breadcrumbs: ({ parts }) => [clustersCrumb, clusterCrumb(parts[1]!)],
    },
    {
      path: '/clusters/:name/:tab',
      element: <ClusterDetailPage />,
      breadcrumbs: ({ parts }) => [clustersCrumb, clusterCrumb(parts[1]!), tabCrumb(parts[1]!, parts[2]!)],
    },
    {
      path: '/clusters/:name/:tab/:item',
      element: <ClusterDetailPage />,
      breadcrumbs: ({ pathname, parts }) => [
        clustersCrumb,
        clusterCrumb(parts[1]!),
        tabCrumb(parts[1]!, parts[2]!),
        { text: parts[3]!, href: pathname },
      ],
    },
    // An item named by two parts, e.g. a training job: /clusters/:name/jobs/<namespace>/<job>.
    {
      path: '/clusters/:name/:tab/:item/:part',
      element: <ClusterDetailPage />,
      breadcrumbs: ({ pathname, parts }) => [
        clustersCrumb,
        clusterCrumb(parts[1]!),
        tabCrumb(parts[1]!, parts[2]!),
        { text: `${parts[3]!}/${parts[4]!}`, href: pathname },
      ],
    },
    {
      path: '/create-cluster',
      element: <CreateClusterPage />,
      contentType: 'wizard',
      breadcrumbs: ({ pathname }) => [clustersCrumb, { text: 'Create cluster', href: pathname }],
    },
  ],
  navigation: [{ text: 'Clusters', href: '/clusters', order: 10, section: '/clusters' }],
};
