import { unitHash } from '../../../core/ids.js';
import type { TickContext } from '../../../core/service.js';
import { allServers, removeServer, type StoredTrackingServer, type TrackingServerStatus } from './state.js';

/**
 * A tracking server's life on the sandbox clock. AWS says a server takes up to 25 minutes to
 * create; the other transitions are shorter. Each duration comes from a stable hash of the server
 * and the step, so the same server settles at the same time after a sandbox restart.
 */
const between = (key: string, lowMinutes: number, highMinutes: number) =>
  Math.round((lowMinutes + unitHash(key) * (highMinutes - lowMinutes)) * 60_000);

const DURATIONS: Partial<Record<TrackingServerStatus, (key: string) => number>> = {
  Creating: (k) => between(`${k}:create`, 15, 25),
  Updating: (k) => between(`${k}:update`, 5, 10),
  Starting: (k) => between(`${k}:start`, 8, 15),
  Stopping: (k) => between(`${k}:stop`, 3, 6),
  Deleting: (k) => between(`${k}:delete`, 5, 10),
};

/** Where each transitional status lands. Deleting lands nowhere: the server is gone. */
const SETTLES_TO: Partial<Record<TrackingServerStatus, TrackingServerStatus>> = {
  Creating: 'Created',
  Updating: 'Updated',
  Starting: 'Started',
  Stopping: 'Stopped',
};

/** Puts a server into a transitional status that settles by itself. */
export function beginTransition(
  server: StoredTrackingServer,
  status: 'Creating' | 'Updating' | 'Starting' | 'Stopping' | 'Deleting',
  now: number,
): void {
  server.status = status;
  server.settlesAt = now + DURATIONS[status]!(`${server.arn}|${now}`);
}

export function mlflowTick(ctx: TickContext): boolean {
  let changed = false;
  for (const server of allServers(ctx.state)) {
    if (server.settlesAt === undefined || ctx.now < server.settlesAt) continue;
    changed = true;
    if (server.status === 'Deleting') {
      removeServer(ctx.state, server.region, server.name);
      continue;
    }
    const next = SETTLES_TO[server.status];
    if (next) {
      server.status = next;
      server.lastModifiedAt = server.settlesAt;
    }
    delete server.settlesAt;
  }
  return changed;
}
