import { apiPath, type PathParams } from '@domain/api-path.js';
import { api, type RequestOptions } from './client.js';

/**
 * The one way a capability UI calls its REST routes: name the route by its path template (the capability's
 * `paths.ts`, the same constant its server routes register) and the template's parameters — a missing or misspelt
 * one does not compile — then the method, with the answer's type from the capability's domain schema, declared once
 * in the capability's `ui/api.ts`.
 *
 * @example
 * // src/capabilities/storage/ui/api.ts
 * export const listStorage = (cluster: string, region: string) =>
 *   rest(STORAGE_PATHS.list, { name: cluster }).get<StorageList>({ region });
 * export const addStorage = (cluster: string, body: AddStorageBody, idempotencyKey: string) =>
 *   rest(STORAGE_PATHS.list, { name: cluster }).post<Accepted>({ body, idempotencyKey });
 */
export function rest<T extends string>(template: T, ...params: RouteParams<T>): Route {
  // RouteParams<T> checked the parameters against the template; apiPath fills them (its own typing wants a literal T).
  const path = (apiPath as (template: string, values?: Record<string, string>) => string)(template, params[0]);
  const send =
    (method: NonNullable<RequestOptions['method']>) =>
    <A>(options: Send = {}): Promise<A> =>
      api<A>(`${path}${qs(options.query ?? {})}`, {
        method,
        body: options.body,
        headers: options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : undefined,
        signal: options.signal,
      });
  return {
    url: (query = {}) => `${path}${qs(query)}`,
    get: (query, options) => send('GET')({ query, signal: options?.signal }),
    post: send('POST'),
    put: send('PUT'),
    patch: send('PATCH'),
    delete: send('DELETE'),
  };
}

/** A template's parameters: none for `/api/v1/clusters`, `{ name }` for `/api/v1/clusters/{name}`. */
export type RouteParams<T extends string> = PathParams<T> extends never ? [] : [Record<PathParams<T>, string>];

/** Query-string values; `undefined`, `null` and `''` are left out. */
export type Query = Record<string, string | number | boolean | undefined | null>;

/** What a call sends besides the path: its query, its JSON body, the Idempotency-Key of a create. */
export interface Send {
  query?: Query;
  body?: unknown;
  idempotencyKey?: string;
  signal?: AbortSignal;
}

/** One route, its path filled: the URL (for a link or a download) and one function per method. */
export interface Route {
  url(query?: Query): string;
  get<A>(query?: Query, options?: { signal?: AbortSignal }): Promise<A>;
  post<A>(send?: Send): Promise<A>;
  put<A>(send?: Send): Promise<A>;
  patch<A>(send?: Send): Promise<A>;
  delete<A>(send?: Send): Promise<A>;
}

/** A query string from defined values only. */
export function qs(params: Query): string {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') sp.set(k, String(v));
  const s = sp.toString();
  return s ? `?${s}` : '';
}
