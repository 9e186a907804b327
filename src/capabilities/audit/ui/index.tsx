import type { CapabilityUi } from '@kit/capability.js';
import { AuditPage } from './AuditPage.js';

export const ui: CapabilityUi = {
  pages: [
    {
      path: '/audit',
      element: <AuditPage />,
      contentType: 'table',
      breadcrumbs: () => [{ text: 'Audit', href: '/audit' }],
    },
  ],
  navigation: [{ text: 'Audit', href: '/audit', order: 95, section: '/audit' }],
};
