import '@cloudscape-design/global-styles/index.css';
import { captureTokenFromHash, ProblemError } from '@kit/api/client.js';
import { ServerConfigSource } from '@kit/api/server-config.js';
import { OperationPanelsContext } from '@kit/capability.js';
import { NotificationsProvider } from '@kit/hooks/notifications.js';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { getConfig } from '../../src/capabilities/system/ui/index.js';
import { App } from './App.js';
import { CLUSTER_PAGE_TABS, NAVIGATION, OPERATION_PANELS } from './capabilities.js';
import { LiveUpdatesProvider } from './hooks/LiveUpdatesProvider.js';
import { PAGES } from './routes.js';

captureTokenFromHash();

/**
 * The route table the app serves (paths only), readable from the browser: test/web/route-leave.test.ts opens every
 * route from it, so a page added tomorrow is opened and left by that test without a line there.
 */
Object.assign(window, {
  instantstartRoutes: {
    pages: PAGES.map((p) => p.path),
    clusterTabs: CLUSTER_PAGE_TABS.map((t) => t.id),
    navigation: NAVIGATION.map((n) => n.href),
  },
});

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 2000,
      // A 4xx will not get better by asking again; network blips and 5xx may.
      retry: (count, error) =>
        !(error instanceof ProblemError && error.status >= 400 && error.status < 500) && count < 2,
      refetchOnWindowFocus: true,
    },
  },
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        {/* What the kit reads from the capabilities, given here so the kit never imports one. */}
        <ServerConfigSource.Provider value={getConfig}>
          <OperationPanelsContext.Provider value={OPERATION_PANELS}>
            <NotificationsProvider>
              <LiveUpdatesProvider>
                <App />
              </LiveUpdatesProvider>
            </NotificationsProvider>
          </OperationPanelsContext.Provider>
        </ServerConfigSource.Provider>
      </BrowserRouter>
    </QueryClientProvider>
  </StrictMode>,
);
