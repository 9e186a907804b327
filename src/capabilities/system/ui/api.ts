import { rest } from '@kit/api/rest.js';
import type { ServerConfig } from '@kit/api/types.js';
import { SYSTEM_PATHS } from '../paths.js';

/** The system capability's REST calls: the server's config, and checking its cloud credentials again. */

export const getConfig = () => rest(SYSTEM_PATHS.config).get<ServerConfig>();
/** Checks the server's cloud credentials again; when they work, the server opens that account's data (no restart). */
export const checkCredentials = () => rest(SYSTEM_PATHS.credentialsCheck).post<ServerConfig>();
