import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handleKubeApi } from '../../sandbox/kube/api/router.js';
import { makeMemoryKubeCluster, type KubeCluster } from '../../sandbox/kube/cluster.js';

/**
 * A plain-HTTP Kubernetes API over an in-memory cluster (no TLS, no auth: everything allowed), on
 * a sandbox clock the test moves, for the API tests.
 */
export interface TestApi {
  url: string;
  cluster: KubeCluster;
  /** Moves the cluster clock forward. */
  advance(seconds: number): void;
  call(
    method: string,
    path: string,
    options?: { body?: unknown; type?: string; headers?: Record<string, string> },
  ): Promise<{ status: number; headers: Headers; body: any; text: string }>;
  /** Opens a watch (or any streaming GET) and collects its lines. */
  stream(path: string, headers?: Record<string, string>): WatchStream;
  close(): Promise<void>;
}

export interface WatchStream {
  lines: string[];
  events(): Array<{ type: string; object: any }>;
  /** Resolves once `count` lines arrived (rejects after a second without them). */
  waitFor(count: number): Promise<void>;
  ended: Promise<void>;
  stop(): void;
}

export async function startApi(): Promise<TestApi> {
  let now = Date.parse('2026-01-01T00:00:00Z');
  const cluster = makeMemoryKubeCluster({ now: () => now });
  const ctx = {
    cluster,
    user: { username: 'test', groups: ['system:masters'], arn: 'arn:aws:iam::000000000000:user/test' },
    authorize: () => {},
  };
  const server = createServer((req, res) => void handleKubeApi(req, res, req.url ?? '/', ctx));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const open = new Set<IncomingMessage>();

  const api: TestApi = {
    url,
    cluster,
    advance: (seconds) => void (now += seconds * 1000),
    async call(method, path, options = {}) {
      const headers: Record<string, string> = { 'user-agent': 'api-test/1.0', ...(options.headers ?? {}) };
      let body: string | undefined;
      if (options.body !== undefined) {
        body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
        headers['content-type'] = options.type ?? 'application/json';
      }
      const res = await fetch(`${url}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // plain text (logs)
      }
      return { status: res.status, headers: res.headers, body: parsed, text };
    },
    stream(path, headers = {}) {
      const lines: string[] = [];
      let buffer = '';
      let wake = () => {};
      let endedResolve = () => {};
      const ended = new Promise<void>((r) => (endedResolve = r));
      const req = httpRequest(`${url}${path}`, { headers: { 'user-agent': 'api-test/1.0', ...headers } }, (res) => {
        open.add(res);
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          const parts = buffer.split('\n');
          buffer = parts.pop()!;
          lines.push(...parts.filter(Boolean));
          wake();
        });
        res.on('close', () => {
          open.delete(res);
          endedResolve();
        });
      });
      req.on('error', () => endedResolve());
      req.end();
      return {
        lines,
        events: () => lines.map((l) => JSON.parse(l) as { type: string; object: any }),
        ended,
        async waitFor(count) {
          const deadline = Date.now() + 1000;
          while (lines.length < count) {
            if (Date.now() > deadline)
              throw new Error(`expected ${count} lines, got ${lines.length}:\n${lines.join('\n')}`);
            await new Promise<void>((r) => {
              wake = r;
              setTimeout(r, 20);
            });
          }
        },
        stop: () => req.destroy(),
      };
    },
    async close() {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  await api.call('POST', '/api/v1/namespaces', { body: { metadata: { name: 'default' } } });
  return api;
}

/** Pushes more changes than the watch history keeps, so older resourceVersions are gone (410). */
export function compactHistory(api: TestApi, namespace = 'default'): void {
  const cmType = api.cluster.findType('', 'v1', 'configmaps')!;
  const filler = api.cluster.objects.create(cmType, {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'history-filler', namespace },
  });
  for (let i = 0; i < 5001; i++)
    api.cluster.objects.update(cmType, {
      ...filler,
      data: { i: String(i) },
      metadata: { ...filler.metadata, resourceVersion: undefined },
    });
}

/** A minimal valid pod. */
export const pod = (name: string, labels: Record<string, string> = {}, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, labels },
  spec: { containers: [{ name: 'main', image: 'busybox:1.36' }] },
  ...extra,
});

export const configMap = (name: string, data: Record<string, string> = {}, metadata: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, ...metadata },
  data,
});

export const deployment = (name: string, replicas = 1) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name },
  spec: {
    replicas,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } },
  },
});

/** A namespaced CRD `widgets.example.com` with status and scale subresources and printer columns. */
export const widgetCrd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', shortNames: ['wd'] },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        subresources: {
          status: {},
          scale: {
            specReplicasPath: '.spec.replicas',
            statusReplicasPath: '.status.replicas',
            labelSelectorPath: '.status.selector',
          },
        },
        additionalPrinterColumns: [
          { name: 'Size', type: 'integer', jsonPath: '.spec.size' },
          { name: 'Colors', type: 'string', jsonPath: '.spec.colors' },
          { name: 'Owner', type: 'string', jsonPath: '.spec.owner', priority: 1 },
          { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
        ],
      },
    ],
  },
};
