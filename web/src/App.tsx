import AppLayout, { type AppLayoutProps } from '@cloudscape-design/components/app-layout';
import BreadcrumbGroup, { type BreadcrumbGroupProps } from '@cloudscape-design/components/breadcrumb-group';
import Flashbar from '@cloudscape-design/components/flashbar';
import { useState } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { useCloudNotice } from './components/CloudNotice.js';
import { Navigation } from './components/Navigation.js';
import { useNotifications } from './hooks/notifications.js';
import { useFollow } from './hooks/use-follow.js';
import { ClusterDetailPage } from './pages/ClusterDetailPage.js';
import { ClustersPage } from './pages/ClustersPage.js';
import { CreateClusterPage } from './pages/CreateClusterPage.js';
import { NotFoundPage } from './pages/NotFoundPage.js';
import { OperationPage } from './pages/OperationPage.js';
import { OperationsPage } from './pages/OperationsPage.js';

function breadcrumbsFor(pathname: string): BreadcrumbGroupProps.Item[] {
  const parts = pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const home = { text: 'InstantStart', href: '/clusters' };
  if (parts[0] === 'operations') {
    return [home, { text: 'Operations', href: '/operations' }, ...(parts[1] ? [{ text: parts[1], href: pathname }] : [])];
  }
  const items = [home, { text: 'Clusters', href: '/clusters' }];
  if (parts[0] === 'create-cluster') items.push({ text: 'Create cluster', href: pathname });
  else if (parts[0] === 'clusters' && parts[1]) items.push({ text: parts[1], href: pathname });
  return items;
}

function contentTypeFor(pathname: string): AppLayoutProps.ContentType {
  if (pathname.startsWith('/create-cluster')) return 'wizard';
  if (pathname === '/clusters' || pathname === '/operations') return 'table';
  return 'default';
}

export function App() {
  const location = useLocation();
  const follow = useFollow();
  const { items } = useNotifications();
  const cloudNotice = useCloudNotice();
  const [navigationOpen, setNavigationOpen] = useState(true);
  return (
    <AppLayout
      navigation={<Navigation />}
      navigationOpen={navigationOpen}
      onNavigationChange={(e) => setNavigationOpen(e.detail.open)}
      toolsHide
      contentType={contentTypeFor(location.pathname)}
      breadcrumbs={<BreadcrumbGroup items={breadcrumbsFor(location.pathname)} onFollow={follow} ariaLabel="Breadcrumbs" />}
      notifications={<Flashbar items={[...items, ...cloudNotice]} stackItems={items.length + cloudNotice.length > 3} data-testid="notifications" />}
      content={
        <Routes>
          <Route path="/" element={<Navigate to="/clusters" replace />} />
          <Route path="/clusters" element={<ClustersPage />} />
          <Route path="/clusters/:name" element={<ClusterDetailPage />} />
          <Route path="/create-cluster" element={<CreateClusterPage />} />
          <Route path="/operations" element={<OperationsPage />} />
          <Route path="/operations/:id" element={<OperationPage />} />
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      }
    />
  );
}
