import type { LogLine, OperationView } from '@kit/api/types.js';
import { createContext, useContext } from 'react';

/** What a log view hears from the live connection for one operation. */
export interface LogListener {
  onLine(line: LogLine): void;
  /** The socket (re)connected: lines may have been missed, fetch what came after the last one. */
  onResync(): void;
}

/** A topic the server watches for the page (src/api/live-topics.ts), e.g. `nodes` of one cluster. */
export interface LiveWatch {
  topic: 'nodes';
  params: { cluster: string; region?: string };
}

export interface LiveStatus {
  /** True while the WebSocket is open; queries poll every 5 s otherwise. */
  connected: boolean;
  subscribeLogs(operationId: string, listener: LogListener): () => void;
  /** Asks the server to push "changed" for this topic while the returned function is not called. */
  watch(w: LiveWatch): () => void;
  /**
   * Calls `listener` with every operation the server pushes (each change of any operation), as it
   * arrives: for views that must react to an operation at once, e.g. a cluster page to its delete.
   */
  subscribeOperations(listener: (op: OperationView) => void): () => void;
}

export const LiveContext = createContext<LiveStatus>({
  connected: false,
  subscribeLogs: () => () => undefined,
  watch: () => () => undefined,
  subscribeOperations: () => () => undefined,
});

export function useLiveStatus(): LiveStatus {
  return useContext(LiveContext);
}
