import { CLIENT_HEADER, FACE_HEADER, clientName } from '../domain/audit.js';
import type { FieldProblem } from '../domain/errors.js';

/**
 * The MCP server's only way into InstantStart: plain HTTP calls to the REST API, exactly like the
 * browser makes. It holds no privileges of its own (ARCHITECTURE.md → Security): whatever token it
 * is given is the caller's, and every validation happens once, in the server.
 *
 * @example
 * const api = new RestClient({ baseUrl: 'http://127.0.0.1:3099' });
 * const { clusters } = await api.get<{ clusters: unknown[] }>('/api/v1/clusters', { query: { region: 'us-west-2' } });
 */

export type QueryValue = string | number | boolean | undefined | null;

export interface RestClientOptions {
  /** Server root, e.g. `http://127.0.0.1:3099` (no `/api/v1`). */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <token>` when set. */
  token?: string;
  /** Per-request limit unless a call sets its own. */
  timeoutMs?: number;
  /** Injected in tests; defaults to the global fetch. */
  fetch?: typeof fetch;
  /**
   * The face this client speaks for, sent as `X-InstantStart-Face` with the MCP client's name (asked when each
   * request is sent: it is known once the client has initialized) as `X-InstantStart-Client` — the audit timeline's
   * claim of where a request came from (docs/AUDIT.md). Absent: the client is plain REST.
   */
  face?: { face: 'mcp'; client(): string | undefined };
}

export interface RequestOptions {
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** Sent as `Idempotency-Key`: the server answers a repeat with the same operation. */
  idempotencyKey?: string;
  /** Aborts the call (the MCP request's signal: a cancelled tool call stops its HTTP call). */
  signal?: AbortSignal;
  timeoutMs?: number;
}

export interface RestApiErrorOptions {
  /** The request that was refused. */
  method: string;
  path: string;
  /** The answer's HTTP status and the problem's fields (a non-problem answer has only a title, maybe a detail). */
  status: number;
  title: string;
  detail: string | undefined;
  errors?: FieldProblem[];
  code?: string;
  type?: string;
  /** What the server says to do about it (the problem's `remedy`), when it says. */
  remedy?: string;
}

/** An RFC 9457 problem answer (or any non-2xx answer), with the fields a person needs to act. */
export class RestApiError extends Error {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly title: string;
  readonly detail: string | undefined;
  readonly errors: FieldProblem[];
  readonly code: string | undefined;
  readonly type: string | undefined;
  readonly remedy: string | undefined;
  constructor({ method, path, status, title, detail, errors = [], code, type, remedy }: RestApiErrorOptions) {
    super(detail ? `${title}: ${detail}` : title);
    this.method = method;
    this.path = path;
    this.status = status;
    this.title = title;
    this.detail = detail;
    this.errors = errors;
    this.code = code;
    this.type = type;
    this.remedy = remedy;
    this.name = 'RestApiError';
  }
}

export interface RestUnreachableErrorOptions {
  baseUrl: string;
  /** Why there was no answer: the connection's error, or the deadline. */
  reason: string;
  timedOut?: boolean;
}

/** No HTTP answer at all: server down, wrong URL, timeout. */
export class RestUnreachableError extends Error {
  readonly baseUrl: string;
  readonly reason: string;
  readonly timedOut: boolean;
  constructor({ baseUrl, reason, timedOut = false }: RestUnreachableErrorOptions) {
    super(`cannot reach the InstantStart server at ${baseUrl}: ${reason}`);
    this.baseUrl = baseUrl;
    this.reason = reason;
    this.timedOut = timedOut;
    this.name = 'RestUnreachableError';
  }
}

const DEFAULT_TIMEOUT_MS = 60_000;

export class RestClient {
  readonly baseUrl: string;
  readonly #token: string | undefined;
  readonly #timeoutMs: number;
  readonly #fetch: typeof fetch;
  readonly #face: RestClientOptions['face'];
  #idempotencyKey: string | undefined;

  constructor({
    baseUrl,
    token,
    timeoutMs = DEFAULT_TIMEOUT_MS,
    fetch: fetchImpl = globalThis.fetch,
    face,
  }: RestClientOptions) {
    const url = new URL(baseUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`baseUrl must be http(s): ${baseUrl}`);
    this.baseUrl = url.origin + url.pathname.replace(/\/+$/, '');
    this.#token = token || undefined;
    this.#timeoutMs = timeoutMs;
    this.#fetch = fetchImpl;
    this.#face = face;
  }

  /**
   * This client with `key` sent as `Idempotency-Key` on every request that is not a GET (one MCP tool
   * call's mutation, when the agent named it with `idempotencyKey`).
   */
  withIdempotencyKey(key: string): RestClient {
    const keyed = new RestClient({
      baseUrl: this.baseUrl,
      token: this.#token,
      timeoutMs: this.#timeoutMs,
      fetch: this.#fetch,
      face: this.#face,
    });
    keyed.#idempotencyKey = key;
    return keyed;
  }

  get<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
    return this.request<T>('GET', path, options);
  }
  post<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
    return this.request<T>('POST', path, options);
  }
  put<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
    return this.request<T>('PUT', path, options);
  }
  patch<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
    return this.request<T>('PATCH', path, options);
  }
  delete<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
    return this.request<T>('DELETE', path, options);
  }

  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const url = this.baseUrl + path + queryString(options.query);
    const headers: Record<string, string> = { accept: 'application/json, application/problem+json' };
    if (this.#token) headers.authorization = `Bearer ${this.#token}`;
    const idempotencyKey = options.idempotencyKey ?? (method === 'GET' ? undefined : this.#idempotencyKey);
    if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
    if (this.#face) {
      headers[FACE_HEADER] = this.#face.face;
      const client = clientName(this.#face.client());
      if (client) headers[CLIENT_HEADER] = client;
    }
    let body: string | undefined;
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    const timeoutMs = options.timeoutMs ?? this.#timeoutMs;
    const { signal, dispose, timedOut } = deadline(timeoutMs, options.signal);
    let response: Response;
    let text: string;
    try {
      response = await this.#fetch(url, { method, headers, body, signal });
      text = await response.text();
    } catch (err) {
      if (timedOut())
        throw new RestUnreachableError({
          baseUrl: this.baseUrl,
          reason: `no answer to ${method} ${path} within ${Math.round(timeoutMs / 1000)} s`,
          timedOut: true,
        });
      if (options.signal?.aborted) throw new Error(`${method} ${path} was cancelled`);
      throw new RestUnreachableError({ baseUrl: this.baseUrl, reason: describeFetchError(err) });
    } finally {
      dispose();
    }
    if (response.ok) return (text ? JSON.parse(text) : undefined) as T;
    throw toApiError(method, path, response, text);
  }
}

function queryString(query: Record<string, QueryValue> | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.set(key, String(value));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

/** One signal for "the caller gave up" or "too slow"; `timedOut()` tells which fired. */
function deadline(
  timeoutMs: number,
  outer?: AbortSignal,
): { signal: AbortSignal; dispose(): void; timedOut(): boolean } {
  const controller = new AbortController();
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    controller.abort(new Error('timeout'));
  }, timeoutMs);
  const onAbort = () => controller.abort(outer?.reason);
  if (outer?.aborted) onAbort();
  else outer?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => expired,
    dispose: () => {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onAbort);
    },
  };
}

/** Node's fetch hides the useful part (ECONNREFUSED, ENOTFOUND) in `cause`. */
function describeFetchError(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
  if (cause?.code) return `${cause.code}${cause.message ? ` (${cause.message})` : ''}`;
  if (cause?.message) return cause.message;
  return err instanceof Error ? err.message : String(err);
}

function toApiError(method: string, path: string, response: Response, text: string): RestApiError {
  let problem: Record<string, unknown> | undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) problem = parsed as Record<string, unknown>;
  } catch {
    // Not JSON (a proxy's HTML page, say): keep a short excerpt as the detail.
  }
  const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
  const title = str(problem?.title) ?? (response.statusText || `HTTP ${response.status}`);
  const detail = problem
    ? (str(problem.detail) ?? str(problem.message) ?? str(problem.error))
    : text.trim().slice(0, 500) || undefined;
  return new RestApiError({
    method,
    path,
    status: response.status,
    title,
    detail,
    errors: fieldProblems(problem?.errors),
    code: str(problem?.code),
    type: str(problem?.type),
    remedy: str(problem?.remedy),
  });
}

/** `errors[]` as the API documents it ({path, message}); a path given as an array is joined with dots. */
function fieldProblems(raw: unknown): FieldProblem[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((e): FieldProblem[] => {
    if (!e || typeof e !== 'object') return [];
    const { path, message } = e as { path?: unknown; message?: unknown };
    const p = Array.isArray(path) ? path.join('.') : typeof path === 'string' ? path : '';
    return typeof message === 'string' ? [{ path: p, message }] : [];
  });
}
