import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OperationView } from '../../src/domain/schemas/operations.js';

/**
 * A tiny stand-in for the InstantStart REST API (node:http on 127.0.0.1, port 0): it records every
 * request and answers from a route table, so a test can prove what the MCP tools send and how they
 * word what comes back. The real server is exercised by the end-to-end tests.
 */

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingMessage['headers'];
  body: unknown;
}

export interface FakeAnswer {
  status?: number;
  contentType?: string;
  body: unknown;
}

export type Route = (req: RecordedRequest) => FakeAnswer | Promise<FakeAnswer>;

export interface FakeRest {
  url: string;
  requests: RecordedRequest[];
  /** Routes are keyed `METHOD /path` (path without the query). */
  routes: Map<string, Route>;
  close(): Promise<void>;
}

export async function startFakeRest(routes: Record<string, Route> = {}): Promise<FakeRest> {
  const table = new Map(Object.entries(routes));
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => void answer(req, res));

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://fake');
    const recorded: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
      body: text ? JSON.parse(text) : undefined,
    };
    // The stdio server's start-up reachability probe is not part of what the tools send.
    if (recorded.path !== '/healthz') requests.push(recorded);
    const route =
      table.get(`${recorded.method} ${recorded.path}`) ??
      (recorded.path === '/healthz' ? () => ({ body: { status: 'ok' } }) : undefined);
    const out: FakeAnswer = route
      ? await route(recorded)
      : {
          status: 404,
          contentType: 'application/problem+json',
          body: {
            type: 'about:blank',
            title: 'Not Found',
            status: 404,
            detail: `no route ${recorded.method} ${recorded.path}`,
          },
        };
    res.writeHead(out.status ?? 200, { 'content-type': out.contentType ?? 'application/json' });
    res.end(typeof out.body === 'string' ? out.body : JSON.stringify(out.body));
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    routes: table,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A loopback port with nothing listening (bound, then released), for "server down" cases. */
export async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** An operation as the server shows it (OperationViewSchema), with overridable fields. */
export function operation(overrides: Partial<OperationView> = {}): OperationView {
  const now = '2026-01-01T00:00:00.000Z';
  const id = overrides.id ?? 'op-123';
  return {
    id,
    kind: 'create-cluster',
    target: 'cluster/us-west-2/demo',
    status: 'running',
    cloud: 'sandbox',
    accountId: '000000000000',
    region: 'us-west-2',
    input: { name: 'demo' },
    currentPhase: 'network',
    runningPhases: ['network'],
    phases: [
      {
        name: 'network',
        title: 'Network and EKS control plane',
        status: 'awaiting',
        attempts: 1,
        expectedSeconds: 600,
        progress: 'EKS cluster CREATING',
        retryable: false,
      },
      {
        name: 'hyperpod',
        title: 'HyperPod cluster',
        status: 'pending',
        attempts: 0,
        expectedSeconds: 900,
        retryable: false,
      },
    ],
    createdAt: now,
    updatedAt: now,
    statusUrl: `/api/v1/operations/${id}`,
    statusTool: 'wait_for_operation',
    ...overrides,
  };
}

/** The 202 body of a mutation. */
export function accepted(op: OperationView = operation(), existing = false): FakeAnswer {
  return { status: 202, body: { operation: op, statusUrl: op.statusUrl, statusTool: 'wait_for_operation', existing } };
}

/** An RFC 9457 validation problem naming one field. */
export function problem(status: number, path: string, message: string): FakeAnswer {
  return {
    status,
    contentType: 'application/problem+json',
    body: {
      type: 'https://instantstart.dev/problems/validation',
      title: 'Invalid request',
      status,
      detail: `${path}: ${message}`,
      errors: [{ path, message }],
    },
  };
}
