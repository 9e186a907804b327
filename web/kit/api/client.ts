import { FACE_HEADER } from '@domain/audit.js';
import { readableFieldMessage } from '@domain/field-labels.js';

/**
 * The one fetch wrapper of the UI, under the kit's typed REST client (`rest`, rest.ts), which is what a capability's UI
 * calls. Non-2xx answers become a `ProblemError` carrying the RFC 9457 problem+json body the server sends (`detail`,
 * `errors[].path/message`, `code`).
 */

export interface ProblemFieldError {
  path: string;
  message: string;
}

export interface Problem {
  type?: string;
  title?: string;
  status: number;
  detail?: string;
  code?: string;
  errors?: ProblemFieldError[];
}

export class ProblemError extends Error {
  readonly problem: Problem;
  constructor(problem: Problem) {
    super(problem.detail ?? problem.title ?? `HTTP ${problem.status}`);
    this.name = 'ProblemError';
    this.problem = problem;
  }
  get status(): number {
    return this.problem.status;
  }
  /** Field errors as sentences a person reads ("Instance count must be at least 1"), not "path: message". */
  get fieldMessages(): string[] {
    return (this.problem.errors ?? []).map((e) => readableFieldMessage(e.path, e.message));
  }
}

const TOKEN_KEY = 'instantstart.token';

/**
 * A server bound beyond loopback requires `--token`. Open the UI once as `http://host:3099/#token=…`:
 * the token moves to sessionStorage (this tab only) and leaves the address bar.
 */
export function captureTokenFromHash(): void {
  const m = /(?:^#|&)token=([^&]+)/.exec(location.hash);
  if (!m) return;
  try {
    sessionStorage.setItem(TOKEN_KEY, decodeURIComponent(m[1]!));
  } catch {
    // storage disabled: the token cannot be kept
  }
  history.replaceState(null, '', location.pathname + location.search);
}

/** The API token captured by `captureTokenFromHash`, if any. */
export function apiToken(): string | null {
  try {
    return sessionStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

async function readProblem(res: Response): Promise<Problem> {
  const text = await res.text().catch(() => '');
  try {
    const body = JSON.parse(text) as Partial<Problem>;
    if (body && typeof body === 'object') return { ...body, status: body.status ?? res.status };
  } catch {
    // not JSON: a proxy's HTML error page, for instance
  }
  return {
    status: res.status,
    title: res.statusText || 'Request failed',
    detail: text.slice(0, 300) || `HTTP ${res.status} ${res.statusText}`,
  };
}

/**
 * Calls the REST API and parses JSON. Bodies are always sent as application/json (the server
 * refuses other content types on mutations, its CSRF defence). Capability UIs call `rest(…)` (rest.ts), which fills
 * the path template and the query string and calls this.
 */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  // The face this request claims for the audit timeline (docs/AUDIT.md); the browser's User-Agent names the client.
  const headers: Record<string, string> = { accept: 'application/json', [FACE_HEADER]: 'ui', ...options.headers };
  const token = apiToken();
  if (token) headers.authorization = `Bearer ${token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(path, {
      method: options.method ?? 'GET',
      headers,
      body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
      signal: options.signal,
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ProblemError({
      status: 0,
      title: 'Server unreachable',
      detail: `Could not reach the InstantStart server (${(err as Error).message}).`,
    });
  }
  if (!res.ok) {
    const problem = await readProblem(res);
    if (res.status === 401)
      problem.detail = `${problem.detail ?? 'This server requires an API token.'} In the browser, open the UI once as /#token=<token>.`;
    throw new ProblemError(problem);
  }
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}
