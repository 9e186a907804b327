import type { CapabilityUi } from '@kit/capability.js';

/**
 * The system capability has no page of its own: the shell reads the server's config through it (the cloud badge, the
 * cloud notice with its "Check again", and the kit's `useConfig` and cloud clock, given `getConfig` by the shell).
 */
export const ui: CapabilityUi = {};
export { checkCredentials, getConfig } from './api.js';
