import type { CapabilityUi } from '@kit/capability.js';
import { ReadinessPage } from './ReadinessPage.js';

/** The Readiness page: `instantstart doctor`'s lines in the browser. */
export const ui: CapabilityUi = {
  pages: [
    {
      path: '/readiness',
      element: <ReadinessPage />,
      breadcrumbs: () => [{ text: 'Readiness', href: '/readiness' }],
    },
  ],
  navigation: [{ text: 'Readiness', href: '/readiness', order: 95, section: '/readiness' }],
};
