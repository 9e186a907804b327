import type { KubeKind, KubeResource } from '../../domain/kube/kind.js';
import type { KubePage, KubeWatchEvent, KubeWatchOptions } from '../ports.js';

/**
 * A watch as an informer runs it, yielding typed events: list first (ADDED for each object) unless
 * the caller resumes from a resourceVersion; stream from the last version seen; reconnect when the
 * server ends the stream (it does every few minutes); and when the server says that version is gone
 * (an ERROR event with 410 Expired: the history was compacted), list again and report the
 * difference — MODIFIED/ADDED for what is there, DELETED for what vanished meanwhile.
 *
 * Like an informer it keeps the last object of each key it has seen (that is how it can report what
 * vanished): watch a selected set (namespace, selectors), not every pod of a large cluster. A watch
 * resumed from a caller's resourceVersion knows nothing from before it, so a relist reports the
 * objects it finds as ADDED and cannot name what vanished before the watch began.
 */

/** What the watch needs of the client: a full list, and one raw watch stream. */
export interface WatchSource {
  listAll<T extends KubeResource>(kind: KubeKind<T>, options: KubeWatchOptions): Promise<KubePage<T>>;
  /** Opens one watch request; `onEvent` gets each line, `onDone` once when the stream ends or fails. */
  openStream(
    kind: KubeKind,
    options: KubeWatchOptions & { resourceVersion: string },
    onEvent: (type: string, object: unknown) => void,
    onDone: (err?: unknown) => void,
  ): Promise<() => void>;
  /** A typed error for an ERROR event's Status (other than 410). */
  statusError(kind: KubeKind, status: { code?: number; reason?: string; message?: string }): Error;
}

/** How long the server may keep one watch request open before we reconnect. */
const WATCH_SECONDS = 300;
/** Consecutive failed connections before the watch gives up. */
const MAX_FAILURES = 5;

type Raw = { type: 'event'; event: string; object: unknown } | { type: 'done'; err?: unknown };

const keyOf = (o: KubeResource) => `${o.metadata.namespace ?? ''}/${o.metadata.name}`;

export async function* watchKind<T extends KubeResource>(
  source: WatchSource,
  kind: KubeKind<T>,
  options: KubeWatchOptions = {},
): AsyncGenerator<KubeWatchEvent<T>> {
  const signal = options.signal;
  const known = new Map<string, T>();
  let rv = options.resourceVersion;
  let failures = 0;

  async function* relist(): AsyncGenerator<KubeWatchEvent<T>> {
    const page = await source.listAll(kind, options);
    const seen = new Set<string>();
    for (const o of page.items) {
      const k = keyOf(o);
      seen.add(k);
      const before = known.get(k);
      known.set(k, o);
      if (!before) yield { type: 'ADDED', object: o };
      else if (before.metadata.resourceVersion !== o.metadata.resourceVersion) yield { type: 'MODIFIED', object: o };
    }
    for (const [k, o] of known) {
      if (seen.has(k)) continue;
      known.delete(k);
      yield { type: 'DELETED', object: o };
    }
    rv = page.resourceVersion;
  }

  if (rv === undefined) yield* relist();
  while (!signal?.aborted) {
    const queue: Raw[] = [];
    let wake: () => void = () => {};
    const push = (r: Raw) => {
      queue.push(r);
      wake();
    };
    let stop: () => void = () => {};
    try {
      stop = await source.openStream(
        kind,
        { ...options, resourceVersion: rv! },
        (event, object) => push({ type: 'event', event, object }),
        (err) => push({ type: 'done', err }),
      );
    } catch (err) {
      if (++failures >= MAX_FAILURES) throw err;
      await pause(failures, signal);
      continue;
    }
    const onAbort = () => push({ type: 'done' });
    signal?.addEventListener('abort', onAbort, { once: true });
    let expired = false;
    try {
      for (;;) {
        if (queue.length === 0) await new Promise<void>((r) => (wake = r));
        const item = queue.shift()!;
        if (item.type === 'done') {
          if (item.err !== undefined && item.err !== null && !signal?.aborted) {
            if (++failures >= MAX_FAILURES) throw item.err;
            await pause(failures, signal);
          }
          break;
        }
        failures = 0;
        if (item.event === 'ERROR') {
          const status = item.object as { code?: number; reason?: string; message?: string };
          if (status?.code === 410) {
            expired = true;
            break;
          }
          throw source.statusError(kind, status ?? {});
        }
        if (item.event === 'BOOKMARK') {
          rv = (item.object as { metadata?: { resourceVersion?: string } })?.metadata?.resourceVersion ?? rv;
          yield { type: 'BOOKMARK', resourceVersion: rv! };
          continue;
        }
        if (item.event !== 'ADDED' && item.event !== 'MODIFIED' && item.event !== 'DELETED') continue;
        const object = kind.parse(item.object);
        rv = object.metadata.resourceVersion ?? rv;
        if (item.event === 'DELETED') known.delete(keyOf(object));
        else known.set(keyOf(object), object);
        yield { type: item.event, object };
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
      stop();
    }
    if (expired) yield* relist();
  }
}

/** 1, 2, 4, 8 s between failed connections; cut short by the signal. */
function pause(failures: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, Math.min(8_000, 1_000 * 2 ** (failures - 1)));
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

export { WATCH_SECONDS };
