import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { launchBrowser, type TestBrowser } from './browser.js';
import type { TestSandbox } from './sandbox.js';
import { startSandboxAndServer, stopAll, type TestServer } from './server.js';

/**
 * The app's routes as concrete URLs, for browser tests that must cover every page without listing them: the
 * app publishes its route table (`window.instantstartRoutes`, web/src/main.tsx, built from every capability's
 * ui/index.tsx), and each `:param` is filled from the state `seedAppState` made; a parameter these helpers
 * cannot fill fails the test by name. Used by test/web/route-leave.test.ts and test/web/words.test.ts.
 */
export interface RouteTable {
  pages: string[];
  clusterTabs: string[];
  navigation: string[];
}

export interface SeededApp {
  cluster: string;
  /** The cluster's create operation. */
  operation: string;
  /** A node's instance id, an S3 storage as `namespace.name`, a training job as `namespace/name`. */
  node: string;
  storage: string;
  job: string;
  /** The one instance group and the S3 storage's name. */
  group: string;
  storageName: string;
}

/** A cluster of one ml.c5.xlarge node with S3 storage and one training job on it: something behind every route. */
export async function seedAppState(server: TestServer, cluster: string, job: string): Promise<SeededApp> {
  const created = await server.api('POST', '/api/v1/clusters', {
    name: cluster,
    availabilityZone: 'us-west-2b',
    instanceType: 'ml.c5.xlarge',
    instanceCount: 1,
    storage: { s3: true },
  });
  assert.equal(created.status, 202, JSON.stringify(created.body));
  const operation = created.body.operation.id as string;
  assert.equal((await server.waitForOperation(operation)).status, 'succeeded');
  const nodes = (await server.api('GET', `/api/v1/clusters/${cluster}/nodes`)).body.nodes;
  const s3 = (await server.api('GET', `/api/v1/clusters/${cluster}/storage`)).body.storages.find(
    (s: any) => s.kind === 's3',
  );
  const submitted = await server.api('POST', `/api/v1/clusters/${cluster}/jobs`, {
    name: job,
    recipe: 'pytorch-script',
    params: { script: '/data/code/train.py' },
    instanceGroup: nodes[0].instanceGroupName,
    nodes: 1,
    storage: s3.name,
  });
  assert.ok(submitted.status < 300, JSON.stringify(submitted.body));
  return {
    cluster,
    operation,
    node: nodes[0].instanceId,
    storage: `${s3.namespace ?? 'default'}.${s3.name}`,
    job: `default/${job}`,
    group: nodes[0].instanceGroupName,
    storageName: s3.name,
  };
}

/** The route table the app running in `page` publishes. */
export async function routeTableOf(page: Page): Promise<RouteTable> {
  const routes = (await page.evaluate('window.instantstartRoutes')) as RouteTable | undefined;
  assert.ok(routes && routes.pages.length > 0, 'the app publishes its route table');
  return routes;
}

/** Concrete URLs for the app's route patterns, each `:param` filled from the seeded state. */
export function routeUrls(routes: RouteTable, seeded: SeededApp): Map<string, string[]> {
  const tabs = routes.clusterTabs.filter((t) => t !== 'overview');
  // A tab's items: what its URL names after the tab (one part, or two for a job's namespace and name).
  const items: Record<string, string[]> = { nodes: [seeded.node], storage: [seeded.storage], jobs: [seeded.job] };
  const fill: Record<string, (url: string) => string[]> = {
    name: () => [seeded.cluster],
    tab: () => tabs,
    id: () => [seeded.operation],
  };
  const byPattern = new Map<string, string[]>();
  for (const pattern of routes.pages) {
    const params = pattern
      .split('/')
      .filter((p) => p.startsWith(':'))
      .map((p) => p.slice(1));
    // `:item` (and `:part`, its second half) belong to a tab: filled from that tab's seeded items.
    const plain = params.filter((p) => p !== 'item' && p !== 'part');
    for (const p of plain)
      assert.ok(
        fill[p],
        `route ${pattern}: this test does not know how to fill :${p} — seed something and fill it here`,
      );
    let urls = [''];
    for (const segment of pattern.split('/').filter(Boolean)) {
      if (segment === ':item' || segment === ':part') continue;
      urls = urls.flatMap((u) =>
        segment.startsWith(':')
          ? fill[segment.slice(1)]!(u).map((v) => `${u}/${encodeURIComponent(v)}`)
          : [`${u}/${segment}`],
      );
    }
    if (params.includes('item')) {
      const parts = params.includes('part') ? 2 : 1;
      urls = urls.flatMap((u) => {
        const tab = decodeURIComponent(u.split('/').at(-1)!);
        return (items[tab] ?? [])
          .filter((i) => i.split('/').length === parts)
          .map((i) => `${u}/${i.split('/').map(encodeURIComponent).join('/')}`);
      });
    }
    assert.ok(urls.length > 0, `route ${pattern}: nothing seeded to open it with`);
    byPattern.set(pattern, urls);
  }
  return byPattern;
}

/** In-flight requests of the page (WebSockets are not requests): a page has settled when none are left for a moment. */
export function trackRequests(page: Page) {
  let inFlight = 0;
  page.on('request', () => inFlight++);
  page.on('requestfinished', () => inFlight--);
  page.on('requestfailed', () => inFlight--);
  return async function settle(maxMs = 4_000) {
    const deadline = Date.now() + maxMs;
    let quietSince = Date.now();
    while (Date.now() < deadline) {
      if (inFlight > 0) quietSince = Date.now();
      else if (Date.now() - quietSince >= 250) return;
      await new Promise((r) => setTimeout(r, 50));
    }
  };
}

/** A sandbox, a server with the seeded state, and one browser page on it (1440×900), as every route test starts. */
export interface SeededBrowserApp {
  sb: TestSandbox;
  server: TestServer;
  browser: TestBrowser;
  page: Page;
  settle: (maxMs?: number) => Promise<void>;
  seeded: SeededApp;
  close(): Promise<void>;
}

export async function openSeededApp(cluster: string, job: string): Promise<SeededBrowserApp> {
  const { sb, server } = await startSandboxAndServer(600);
  const seeded = await seedAppState(server, cluster, job);
  const browser = await launchBrowser({ viewport: { width: 1440, height: 900 } });
  const page = await browser.newPage();
  page.setDefaultTimeout(15_000);
  const settle = trackRequests(page);
  return { sb, server, browser, page, settle, seeded, close: () => stopAll(browser, server, sb) };
}
