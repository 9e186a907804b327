import { type CapabilityPage, CLUSTER_TABS } from '@kit/capability.js';
import { clusterPath } from '@kit/lib/format.js';
import { CAPABILITY_PAGES } from './capabilities.js';
import { ClusterDetailPage } from './pages/ClusterDetailPage.js';

const clustersCrumb = { text: 'Clusters', href: '/clusters' };
const clusterCrumb = (name: string) => ({ text: name, href: clusterPath(name) });
const tabCrumb = (name: string, tab: string) => ({
  text: CLUSTER_TABS.find((t) => t.id === tab)?.label ?? tab,
  href: clusterPath(name, undefined, tab),
});

/**
 * The cluster page: one page for a cluster, its tabs and an item of a tab (a node), which it reads from the URL. It is
 * the shell's frame around every capability's `clusterPanels`, so its routes are the shell's.
 */
const CLUSTER_PAGE: CapabilityPage[] = [
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
];

/** Every page the app serves: the capabilities' pages and the cluster page. */
export const PAGES: readonly CapabilityPage[] = [...CAPABILITY_PAGES, ...CLUSTER_PAGE];
