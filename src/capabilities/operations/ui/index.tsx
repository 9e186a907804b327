import type { CapabilityUi } from '../../../../web/src/capabilities.js';
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
