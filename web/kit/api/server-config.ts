import { useQuery } from '@tanstack/react-query';
import { createContext, useContext } from 'react';
import { keys } from './queries.js';
import type { ServerConfig } from './types.js';

/**
 * How the kit reads the server's config (the cloud, its Region and account, the cloud's clock): a route of the system
 * capability. The shell provides that capability's `getConfig` here (web/src/main.tsx), so the kit's clock and the
 * pages read the config without the kit importing a capability.
 */
export const ServerConfigSource = createContext<() => Promise<ServerConfig>>(() =>
  Promise.reject(new Error('The app shell provides ServerConfigSource (web/src/main.tsx).')),
);

/** The function that reads the server's config, for a query of one's own (the cloud clock re-reads it). */
export const useReadConfig = (): (() => Promise<ServerConfig>) => useContext(ServerConfigSource);

/** The server's config, read once per page load. */
export function useConfig() {
  const read = useReadConfig();
  return useQuery({ queryKey: keys.config, queryFn: read, staleTime: Infinity });
}
