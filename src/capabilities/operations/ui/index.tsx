import type { CapabilityUi } from '@kit/capability.js';
import { OperationPage } from './OperationPage.js';
import { OperationsPage } from './OperationsPage.js';

const operationsCrumb = { text: 'Operations', href: '/operations' };

export const ui: CapabilityUi = {
  pages: [
    { path: '/operations', element: <OperationsPage />, contentType: 'table', breadcrumbs: () => [operationsCrumb] },
    {
      path: '/operations/:id',
      element: <OperationPage />,
      breadcrumbs: ({ pathname, parts }) => [operationsCrumb, { text: parts[1]!, href: pathname }],
    },
  ],
  navigation: [{ text: 'Operations', href: '/operations', order: 90, section: '/operations' }],
};

/** For other capabilities' UIs: one operation, followed until it ends. */
export { useOperation } from './api.js';
