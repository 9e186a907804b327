import type { IncomingMessage } from 'node:http';
import { Agent, request as httpsRequest } from 'node:https';
import {
  createConfiguration,
  HttpMethod,
  KubeConfig,
  ServerConfiguration,
  type Configuration,
} from '@kubernetes/client-node';
import type { EksTokenSource } from '../aws/eks-token-source.js';

/** Where an EKS cluster's API lives, from DescribeCluster. */
export interface EksEndpoint {
  clusterName: string;
  region: string;
  endpoint: string;
  certificateAuthorityData: string;
}

export interface KubeRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  contentType?: string;
}

export interface KubeResponse {
  status: number;
  body: string;
}

/** A request whose answer is streamed: what it accepts, its end, and how long its headers may take. */
export type KubeStreamRequest = KubeRequest & { signal?: AbortSignal; accept?: string; headersMs?: number };

/** An answer whose body is read as it comes (a service proxy's streamed chat completion). */
export interface KubeStreamResponse {
  status: number;
  headers: IncomingMessage['headers'];
  body: IncomingMessage;
}

/** Network failures that mean "nothing answers at this address": the endpoint may be stale. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

export const isUnreachable = (err: unknown): boolean => UNREACHABLE.has(String((err as { code?: unknown })?.code));

/**
 * The connection closed under the request without an answer. On a keep-alive connection this is
 * routine: the server closes a connection it deems idle just as the client sends on it, and the
 * client learns of it only from the reset.
 */
export const isConnectionReset = (err: unknown): boolean =>
  ['ECONNRESET', 'EPIPE'].includes(String((err as { code?: unknown })?.code));

/**
 * HTTP to one cluster's API through client-node's request machinery, with what every request
 * needs: the current EKS token (and one renewal when the cluster answers 401 anyway), the
 * cluster's CA on one keep-alive agent (so a page of reads does not pay a TLS handshake each), and
 * a deadline. Answers of every status come back to the caller, who names the object in errors.
 */
export class KubeTransport {
  private readonly agent: Agent;
  private readonly config: Configuration;

  constructor(
    readonly target: EksEndpoint,
    private readonly tokens: EksTokenSource,
    private readonly requestMs: number,
    /** Told when nothing answers at the endpoint, so a cache can forget it. */
    private readonly onUnreachable: () => void = () => {},
  ) {
    // A `timeout` makes Node honour the server's `Keep-Alive: timeout=N` hint: an idle connection is
    // closed a second before the server would close it, so a request (a write above all, which is
    // not sent twice) does not go out on a connection the server is closing.
    this.agent = new Agent({
      ca: Buffer.from(target.certificateAuthorityData, 'base64'),
      keepAlive: true,
      maxSockets: 16,
      timeout: requestMs,
    });
    this.config = createConfiguration({ baseServer: new ServerConfiguration(target.endpoint, {}) });
  }

  async send(req: KubeRequest): Promise<KubeResponse> {
    const token = await this.tokens.token();
    const first = await this.once(req, token);
    if (first.status !== 401) return first;
    return this.once(req, await this.tokens.renew(token));
  }

  /**
   * One request whose answer is handed over as soon as its headers arrive, the body left to read as it
   * streams (client-node's generated client reads every body whole). Same token, CA and keep-alive agent as
   * `send`; the deadline covers the wait for the headers, the caller's `signal` the rest. Never sent twice: it may
   * reach a model server, which is not ours to repeat.
   */
  async stream(req: KubeStreamRequest): Promise<KubeStreamResponse> {
    const token = await this.tokens.token();
    const first = await this.streamOnce(req, token);
    if (first.status !== 401) return first;
    first.body.resume();
    return this.streamOnce(req, await this.tokens.renew(token));
  }

  private streamOnce(req: KubeStreamRequest, token: string): Promise<KubeStreamResponse> {
    // The endpoint may carry a path (the sandbox serves each cluster under one): the request's path goes after it.
    const url = new URL(`${this.target.endpoint.replace(/\/+$/, '')}${req.path}`);
    for (const [key, value] of Object.entries(req.query ?? {}))
      if (value !== undefined) url.searchParams.set(key, String(value));
    const body = req.body === undefined ? undefined : JSON.stringify(req.body);
    return new Promise<KubeStreamResponse>((resolve, reject) => {
      const headersDeadline = setTimeout(
        () => outgoing.destroy(Object.assign(new Error('no answer in time'), { name: 'AbortError' })),
        req.headersMs ?? this.requestMs,
      );
      const outgoing = httpsRequest(
        url,
        {
          method: req.method,
          agent: this.agent,
          headers: {
            Accept: req.accept ?? 'application/json',
            Authorization: `Bearer ${token}`,
            ...(body !== undefined
              ? { 'Content-Type': req.contentType ?? 'application/json', 'Content-Length': Buffer.byteLength(body) }
              : {}),
          },
          ...(req.signal ? { signal: req.signal } : {}),
        },
        (res) => {
          clearTimeout(headersDeadline);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: res });
        },
      );
      outgoing.on('error', (err) => {
        clearTimeout(headersDeadline);
        if (isUnreachable(err)) this.onUnreachable();
        reject(err);
      });
      outgoing.end(body);
    });
  }

  /** Runs `open` with a KubeConfig carrying the current token, once more with a renewed one if it fails with 401. */
  async withKubeConfig<T>(open: (kc: KubeConfig) => Promise<T>): Promise<T> {
    const token = await this.tokens.token();
    try {
      return await open(this.kubeConfig(token));
    } catch (err) {
      if (statusOf(err) !== 401) throw err;
      return open(this.kubeConfig(await this.tokens.renew(token)));
    }
  }

  /** Tells the cache nothing serves Kubernetes at this endpoint any more (it answered, but not as a Kubernetes API). */
  endpointGone(): void {
    this.onUnreachable();
  }

  /** The deadline a request gets, for error messages. */
  get deadlineMs(): number {
    return this.requestMs;
  }

  /** A client-node KubeConfig for this cluster and token (its streaming helpers take one). */
  private kubeConfig(token: string): KubeConfig {
    const kc = new KubeConfig();
    const name = this.target.clusterName;
    kc.loadFromOptions({
      clusters: [
        { name, server: this.target.endpoint, caData: this.target.certificateAuthorityData, skipTLSVerify: false },
      ],
      users: [{ name: 'instantstart', token }],
      contexts: [{ name: 'instantstart', cluster: name, user: 'instantstart' }],
      currentContext: 'instantstart',
    });
    return kc;
  }

  /**
   * One request, sent again once when its connection was reset before any answer and the request is
   * a read: reads change nothing, so sending one again is safe (Go's HTTP client, under kubectl, does
   * the same for idempotent requests on a reused connection). A write is not sent again here — the
   * server may have acted on it — its caller's retry, which observes first, decides.
   */
  private async once(req: KubeRequest, token: string): Promise<KubeResponse> {
    try {
      return await this.sendOnce(req, token);
    } catch (err) {
      if (req.method !== 'GET' || !isConnectionReset(err)) throw err;
      return this.sendOnce(req, token);
    }
  }

  private async sendOnce(req: KubeRequest, token: string): Promise<KubeResponse> {
    const ctx = this.config.baseServer.makeRequestContext(req.path, HttpMethod[req.method]);
    for (const [key, value] of Object.entries(req.query ?? {}))
      if (value !== undefined) ctx.setQueryParam(key, String(value));
    ctx.setHeaderParam('Accept', 'application/json');
    ctx.setHeaderParam('Authorization', `Bearer ${token}`);
    if (req.body !== undefined) {
      ctx.setHeaderParam('Content-Type', req.contentType ?? 'application/json');
      ctx.setBody(JSON.stringify(req.body));
    }
    ctx.setAgent(this.agent);
    // The generated client has no timeout of its own; a silent API server would hold the caller forever.
    ctx.setSignal(AbortSignal.timeout(this.requestMs));
    try {
      const res = await this.config.httpApi.send(ctx).toPromise();
      return { status: res.httpStatusCode, body: await res.body.text() };
    } catch (err) {
      if (isUnreachable(err)) this.onUnreachable();
      throw err;
    }
  }
}

/** The HTTP status of a client-node failure (ApiException's `code`, Watch's `statusCode`); undefined when nothing answered. */
export function statusOf(err: unknown): number | undefined {
  const e = err as { code?: unknown; statusCode?: unknown };
  if (typeof e?.code === 'number') return e.code;
  return typeof e?.statusCode === 'number' ? e.statusCode : undefined;
}
