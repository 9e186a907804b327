import { apiToken } from '@kit/api/client.js';
import { keys } from '@kit/api/queries.js';
import type { LogLine, OperationView } from '@kit/api/types.js';
import { LiveContext, type LiveStatus, type LiveWatch, type LogListener } from '@kit/hooks/live-context.js';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';

type ServerMessage =
  | { type: 'operation'; operation: OperationView }
  | { type: 'log'; operationId: string; line: LogLine }
  | { type: 'changed'; topic: LiveWatch['topic']; params: LiveWatch['params'] }
  | { type: 'hello' };

const watchKey = (w: LiveWatch) => JSON.stringify([w.topic, w.params.cluster, w.params.region ?? '']);

/** What a pushed "changed" makes the page refetch: the cluster's node views, and the cluster views (health, group counts). */
function applyChanged(qc: QueryClient, msg: Extract<ServerMessage, { type: 'changed' }>): void {
  if (msg.topic !== 'nodes') return;
  void qc.invalidateQueries({ queryKey: ['nodes', msg.params.cluster] });
  void qc.invalidateQueries({ queryKey: keys.clusters });
}

function socketUrl(): string {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const token = apiToken();
  return `${proto}//${location.host}/api/v1/ws${token ? `?token=${encodeURIComponent(token)}` : ''}`;
}

/** Puts a pushed operation into the detail cache and the list cache (newest first). */
function applyOperation(qc: QueryClient, op: OperationView): void {
  const previous = qc.getQueryData<OperationView>(keys.operation(op.id));
  if (!previous || previous.updatedAt <= op.updatedAt) qc.setQueryData(keys.operation(op.id), op);
  qc.setQueryData<OperationView[]>(keys.operationList, (list) => {
    if (!list) return list;
    const i = list.findIndex((o) => o.id === op.id);
    if (i === -1) return [op, ...list];
    if (list[i]!.updatedAt > op.updatedAt) return list;
    const next = list.slice();
    next[i] = op;
    return next;
  });
}

/**
 * One WebSocket for the whole app (ARCHITECTURE: watch streams multiplexed over one socket).
 * Reconnects with capped exponential backoff and jitter; while it is down, `connected` is false
 * and the queries fall back to polling. After a reconnect everything is refetched once, because
 * messages sent while we were away are lost.
 */
export function LiveUpdatesProvider({ children }: { children: ReactNode }) {
  const qc = useQueryClient();
  const [connected, setConnected] = useState(false);
  const listeners = useRef(new Map<string, Set<LogListener>>());
  // Watches the pages hold, counted (two panels may watch one cluster); sent again after every reconnect.
  const watches = useRef(new Map<string, { watch: LiveWatch; count: number }>());
  const socket = useRef<WebSocket | undefined>(undefined);
  const sendWatch = (type: 'watch' | 'unwatch', w: LiveWatch) => {
    const ws = socket.current;
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type, topic: w.topic, params: w.params }));
  };
  const operationListeners = useRef(new Set<(op: OperationView) => void>());

  useEffect(() => {
    let ws: WebSocket | undefined;
    let stopped = false;
    let attempt = 0;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    let clusterTimer: ReturnType<typeof setTimeout> | undefined;
    // Operations change often (progress notes); cluster views are refetched at most every 2 s.
    const invalidateClusters = () => {
      if (clusterTimer) return;
      clusterTimer = setTimeout(() => {
        clusterTimer = undefined;
        void qc.invalidateQueries({ queryKey: keys.clusters });
      }, 2000);
    };

    const connect = () => {
      if (stopped) return;
      ws = new WebSocket(socketUrl());
      socket.current = ws;
      ws.onopen = () => {
        for (const { watch } of watches.current.values()) sendWatch('watch', watch);
        const reconnect = attempt > 0;
        attempt = 0;
        setConnected(true);
        if (reconnect) {
          void qc.invalidateQueries({ queryKey: keys.operations });
          void qc.invalidateQueries({ queryKey: keys.clusters });
        }
        for (const set of listeners.current.values()) for (const l of set) l.onResync();
      };
      ws.onmessage = (event) => {
        let msg: ServerMessage;
        try {
          msg = JSON.parse(String(event.data)) as ServerMessage;
        } catch {
          return;
        }
        if (msg.type === 'operation') {
          applyOperation(qc, msg.operation);
          for (const l of operationListeners.current) l(msg.operation);
          invalidateClusters();
        } else if (msg.type === 'changed') {
          applyChanged(qc, msg);
        } else if (msg.type === 'log') {
          const set = listeners.current.get(msg.operationId);
          if (set) for (const l of set) l.onLine(msg.line);
        }
      };
      ws.onclose = () => {
        setConnected(false);
        ws = undefined;
        socket.current = undefined;
        if (stopped) return;
        attempt += 1;
        const delay = Math.min(30_000, 1000 * 2 ** Math.min(attempt - 1, 5)) * (0.5 + Math.random() / 2);
        retryTimer = setTimeout(connect, delay);
      };
      ws.onerror = () => ws?.close();
    };
    connect();
    return () => {
      stopped = true;
      clearTimeout(retryTimer);
      clearTimeout(clusterTimer);
      ws?.close();
    };
  }, [qc]);

  // Stable identity: log views subscribe once, whatever the connection state does.
  const subscribeLogs = useCallback<LiveStatus['subscribeLogs']>((operationId, listener) => {
    const map = listeners.current;
    if (!map.has(operationId)) map.set(operationId, new Set());
    map.get(operationId)!.add(listener);
    return () => {
      const set = map.get(operationId);
      set?.delete(listener);
      if (set && set.size === 0) map.delete(operationId);
    };
  }, []);
  const watch = useCallback<LiveStatus['watch']>((w) => {
    const key = watchKey(w);
    const held = watches.current.get(key);
    if (held) held.count += 1;
    else {
      watches.current.set(key, { watch: w, count: 1 });
      sendWatch('watch', w);
    }
    return () => {
      const h = watches.current.get(key);
      if (!h) return;
      h.count -= 1;
      if (h.count > 0) return;
      watches.current.delete(key);
      sendWatch('unwatch', w);
    };
  }, []); // sendWatch reads the socket through a ref: stable.
  const subscribeOperations = useCallback<LiveStatus['subscribeOperations']>((listener) => {
    operationListeners.current.add(listener);
    return () => void operationListeners.current.delete(listener);
  }, []);
  const value = useMemo<LiveStatus>(
    () => ({ connected, subscribeLogs, watch, subscribeOperations }),
    [connected, subscribeLogs, watch, subscribeOperations],
  );
  return <LiveContext.Provider value={value}>{children}</LiveContext.Provider>;
}
