import AppLayout from '@cloudscape-design/components/app-layout';
import BreadcrumbGroup, { type BreadcrumbGroupProps } from '@cloudscape-design/components/breadcrumb-group';
import Flashbar from '@cloudscape-design/components/flashbar';
import { useNotifications } from '@kit/hooks/notifications.js';
import { useFollow } from '@kit/hooks/use-follow.js';
import { useState } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { useCloudNotice } from './components/CloudNotice.js';
import { Navigation } from './components/Navigation.js';
import { NotFoundPage } from './pages/NotFoundPage.js';
import { PAGES } from './routes.js';

/** The page a path shows, matched like the router does (`:param` is one segment). */
function pageFor(pathname: string) {
  const parts = pathname.split('/').filter(Boolean);
  return PAGES.find((p) => {
    const want = p.path.split('/').filter(Boolean);
    return want.length === parts.length && want.every((w, i) => w.startsWith(':') || w === parts[i]);
  });
}

function breadcrumbsFor(pathname: string): BreadcrumbGroupProps.Item[] {
  const parts = pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const home = { text: 'InstantStart', href: '/clusters' };
  return [home, ...(pageFor(pathname)?.breadcrumbs({ pathname, parts }) ?? [])];
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
      contentType={pageFor(location.pathname)?.contentType ?? 'default'}
      breadcrumbs={
        <BreadcrumbGroup items={breadcrumbsFor(location.pathname)} onFollow={follow} ariaLabel="Breadcrumbs" />
      }
      notifications={
        <Flashbar
          items={[...items, ...cloudNotice]}
          stackItems={items.length + cloudNotice.length > 3}
          data-testid="notifications"
        />
      }
      content={
        <Routes>
          <Route path="/" element={<Navigate to="/clusters" replace />} />
          {PAGES.map((p) => (
            <Route key={p.path} path={p.path} element={p.element} />
          ))}
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      }
    />
  );
}
