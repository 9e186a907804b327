import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  CreateClusterCommand,
  DescribeClusterCommand,
  ListClusterNodesCommand,
  SageMakerClient,
} from '@aws-sdk/client-sagemaker';
import type { Page, Request } from 'playwright-core';
import { launchBrowser, screenshot, type TestBrowser } from '../helpers/browser.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { startTestServer, stopAll, type TestServer } from '../helpers/server.js';
import { buildPrereqs, ensureQuota, group } from '../sandbox/sagemaker-fixtures.js';

/**
 * The node table at scale: a HyperPod cluster of 5,000 nodes (made with the SDK on the sandbox, as a
 * user with an existing cluster would have it) must cost the browser one page. Not a timing test:
 * the bounds are generous, and the set-up logs how long each step of the sandbox took.
 */

const CLUSTER = 'big';
const TYPE = 'ml.c5.xlarge';
const GROUPS = { alpha: 3000, beta: 2000 } as const;
const TOTAL = GROUPS.alpha + GROUPS.beta;
const PAGE = 50;
/** The sandbox clock runs at this speed; the set-up jumps it forward as well. */
const SPEED = 60;
/** How long the sandbox may take to bring 5,000 nodes up (real time). */
const CREATE_BUDGET_MS = 180_000;
/** A filter or page must answer within this (real time): generous, this is not a benchmark. */
const RESPONSE_MS = 30_000;

const log = (msg: string) => process.stdout.write(`# [nodes-5000] ${msg}\n`);

async function timed<T>(what: string, fn: () => Promise<T>): Promise<T> {
  const start = performance.now();
  try {
    return await fn();
  } finally {
    log(`${what}: ${Math.round(performance.now() - start)} ms`);
  }
}

async function choose(page: Page, testId: string, option: string | RegExp): Promise<void> {
  await page.locator(`[data-testid="${testId}"] button`).first().click();
  await page.getByRole('option', { name: option }).first().click();
}

describe(`the node table with ${TOTAL} nodes (chromium, real server on the sandbox)`, () => {
  let sb: TestSandbox;
  let server: TestServer;
  let browser: TestBrowser;
  let page: Page;
  const sm = () => new SageMakerClient({});
  /** Every nodes request the browser made: it must only ever ask for one page. */
  const nodeRequests: URL[] = [];
  /** Node reads the server did not answer with 200 (a list that outlived its continue token answered 422 "Expired"). */
  const failedReads: string[] = [];
  /** The browser's nodes requests as made (nodeRequests are their URLs), and the place in it of each one answered. */
  const madeRequests: Request[] = [];
  const answered: number[] = [];
  let faulted: string[] = [];

  before(async () => {
    sb = await startTestSandbox({ speed: SPEED });
    const p = await timed('prerequisites (VPC, NAT, roles, EKS ACTIVE)', () => buildPrereqs(sb, CLUSTER));
    await timed('quotas raised through Service Quotas', async () => {
      await ensureQuota(sb, `${TYPE} for cluster usage`, TOTAL);
      await ensureQuota(sb, 'Maximum number of instances allowed per SageMaker HyperPod cluster', TOTAL);
      await ensureQuota(sb, 'Total number of instances allowed across SageMaker HyperPod clusters', TOTAL);
    });
    await timed(`CreateCluster with ${TOTAL} instances`, () =>
      sm().send(
        new CreateClusterCommand({
          ClusterName: CLUSTER,
          InstanceGroups: Object.entries(GROUPS).map(([name, count]) => group(p, name, TYPE, count)),
          VpcConfig: { SecurityGroupIds: [p.securityGroupId], Subnets: p.privateSubnets },
          Orchestrator: { Eks: { ClusterArn: p.eksClusterArn } },
          NodeRecovery: 'None',
        }),
      ),
    );
    // Jump the clock (boot takes 4–7 sandbox minutes) and measure each jump: the controllers run in it.
    const started = performance.now();
    for (let step = 1; ; step++) {
      const t0 = performance.now();
      await sb.advance(120);
      const advanced = performance.now() - t0;
      const t1 = performance.now();
      const d = await sm().send(new DescribeClusterCommand({ ClusterName: CLUSTER }));
      const described = performance.now() - t1;
      const counts = (d.InstanceGroups ?? [])
        .map((g) => `${g.InstanceGroupName} ${g.CurrentCount}/${g.TargetCount}`)
        .join(', ');
      log(
        `step ${step}: advance 120 s took ${Math.round(advanced)} ms, DescribeCluster ${Math.round(described)} ms → ${d.ClusterStatus} (${counts})`,
      );
      if (d.ClusterStatus === 'InService') break;
      assert.notEqual(d.ClusterStatus, 'Failed', d.FailureMessage);
      if (performance.now() - started > CREATE_BUDGET_MS)
        assert.fail(
          `the sandbox did not bring ${TOTAL} nodes up within ${CREATE_BUDGET_MS / 1000} s; see the step timings above`,
        );
    }
    log(`cluster InService after ${Math.round(performance.now() - started)} ms of stepping`);

    // Two faulted nodes, so the health filter has something to find.
    const firstPage = await timed('ListClusterNodes (one page of 100)', () =>
      sm().send(new ListClusterNodesCommand({ ClusterName: CLUSTER, MaxResults: 100 })),
    );
    faulted = firstPage.ClusterNodeSummaries!.slice(0, 2).map((n) => n.InstanceId!);
    for (const instanceId of faulted) {
      const r = await sb.admin('/_sandbox/faults', {
        method: 'POST',
        body: {
          type: 'node-fault',
          cluster: CLUSTER,
          instanceId,
          health: 'UnschedulablePendingReplacement',
          reason: 'EC2 system status check failed: hardware failure',
        },
      });
      assert.ok(r.status < 300, JSON.stringify(r.body));
    }

    await timed('one tick after the faults', () => sb.advance(1));
    server = await startTestServer(sb, { speed: SPEED });
    const one = await server.api('GET', `/api/v1/clusters/${CLUSTER}/nodes/${faulted[0]}`);
    log(`faulted node as the server sees it: ${JSON.stringify(one.body.node?.health ?? one.body)}`);
    // etcd compacts while the 5,000 Nodes page (10 requests of 500): the list must start again, not answer 410.
    const compaction = await sb.admin('/_sandbox/faults', {
      method: 'POST',
      body: { type: 'kube-compaction', cluster: `${CLUSTER}-eks`, count: 1 },
    });
    assert.equal(compaction.status, 201, JSON.stringify(compaction.body));
    const listed = await timed('first GET /nodes through the server (cold snapshot)', () =>
      server.api('GET', `/api/v1/clusters/${CLUSTER}/nodes?limit=${PAGE}`),
    );
    assert.equal(listed.status, 200, JSON.stringify(listed.body).slice(0, 500));
    assert.deepEqual((await sb.admin('/_sandbox/faults')).body.faults, [], 'the Node list outlived its continue token');
    assert.equal(listed.body.total, TOTAL);
    const unjoined = (listed.body.nodes as Array<{ instanceId: string; nodeName?: string }>).filter((n) => !n.nodeName);
    assert.deepEqual(
      unjoined,
      [],
      'every node of the page is joined with its Kubernetes Node: the restarted list was complete',
    );
    log(`server counts: ${JSON.stringify(listed.body.counts)}`);

    browser = await launchBrowser();
    page = await browser.newPage();
    page.setDefaultTimeout(RESPONSE_MS);
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (url.pathname !== `/api/v1/clusters/${CLUSTER}/nodes`) return;
      nodeRequests.push(url);
      madeRequests.push(r);
    });
    page.on('response', (r) => {
      if (new URL(r.url()).pathname !== `/api/v1/clusters/${CLUSTER}/nodes`) return;
      answered.push(madeRequests.indexOf(r.request()));
      if (r.status() >= 400) failedReads.push(`${r.status()} ${r.url()}`);
    });
  });
  after(() => stopAll(browser, server, sb));

  const rows = () => page.locator('[data-testid="nodes-table"] [data-testid^="node-row-"]');
  const pageIds = async () =>
    (
      await rows().evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!.slice('node-row-'.length)))
    ).sort();
  /** Polls the rows shown until `done` holds (the table keeps the old page while the next loads). */
  const untilIds = async (done: (ids: string[]) => boolean, what: string) => {
    const end = Date.now() + RESPONSE_MS;
    while (Date.now() < end) {
      if (done(await pageIds())) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.fail(`timed out waiting for ${what}`);
  };

  it(`renders the first page (${PAGE} rows) and says ${TOTAL} nodes`, async () => {
    const start = performance.now();
    await page.goto(`${server.url}/clusters/${CLUSTER}/nodes`);
    await page.locator(`[data-testid="nodes-total"][data-total="${TOTAL}"]`).waitFor();
    log(`first page shown ${Math.round(performance.now() - start)} ms after navigation`);
    assert.equal(await rows().count(), PAGE);
    assert.match(await page.locator('[data-testid="nodes-total"]').innerText(), new RegExp(`${TOTAL} nodes`));
    await screenshot(page, 'nodes-5000-01-first-page');
  });

  it('filters by health on the server and shows the health counts', async () => {
    const start = performance.now();
    await choose(page, 'nodes-filter-health', /Failed/);
    await page.locator(`[data-testid="nodes-total"][data-total="${faulted.length}"]`).waitFor();
    log(`health filter answered in ${Math.round(performance.now() - start)} ms`);
    assert.deepEqual(await pageIds(), [...faulted].sort());
    for (const id of faulted)
      assert.equal(await page.locator(`[data-testid="node-health-${id}"]`).getAttribute('data-state'), 'failed');
    await choose(page, 'nodes-filter-health', /Any health/);
    await page.locator(`[data-testid="nodes-total"][data-total="${TOTAL}"]`).waitFor();
  });

  it('filters by group on the server', async () => {
    const start = performance.now();
    await choose(page, 'nodes-filter-group', 'beta');
    await page.locator(`[data-testid="nodes-total"][data-total="${GROUPS.beta}"]`).waitFor();
    log(`group filter answered in ${Math.round(performance.now() - start)} ms`);
    assert.equal(await rows().count(), PAGE);
    // The third cell is the group, its instance type on a second line.
    const groups = (await page.locator('[data-testid="nodes-table"] tbody tr td:nth-child(3)').allInnerTexts()).map(
      (t) => t.split('\n')[0],
    );
    assert.deepEqual([...new Set(groups)], ['beta']);
    await choose(page, 'nodes-filter-group', /All instance groups/);
    await page.locator(`[data-testid="nodes-total"][data-total="${TOTAL}"]`).waitFor();
  });

  it("pages forward and back with the server's tokens", async () => {
    const first = await pageIds();
    const start = performance.now();
    await page.locator('[data-testid="nodes-next-page"]').click();
    await untilIds((ids) => ids.length > 0 && !ids.some((id) => first.includes(id)), 'the second page');
    log(`next page shown in ${Math.round(performance.now() - start)} ms`);
    const second = await pageIds();
    assert.equal(second.length, PAGE);
    assert.equal(second.filter((id) => first.includes(id)).length, 0, 'page 2 shows other nodes');
    assert.match(await page.locator('[data-testid="nodes-total"]').locator('..').innerText(), /page 2 of 100/);
    await page.locator('[data-testid="nodes-previous-page"]').click();
    await untilIds(
      (ids) => ids.length === first.length && first.every((id) => ids.includes(id)),
      'the first page again',
    );
  });

  it('stays responsive while it refreshes, renders one page and never asks for more', async () => {
    // A refresh round (every 10 s) answered and drawn, measured inside the page: the browser's main thread must never
    // be blocked for long (a long task is one that keeps it from answering input). Measured in the
    // page, not from here: this test process also runs the sandbox, whose ticks would be counted.
    assert.equal(
      await page.evaluate(`PerformanceObserver.supportedEntryTypes.includes('longtask')`),
      true,
      'the browser reports long tasks',
    );
    await page.evaluate(`window.longestTaskMs = 0;
      new PerformanceObserver((list) => { for (const e of list.getEntries()) window.longestTaskMs = Math.max(window.longestTaskMs, e.duration); })
        .observe({ type: 'longtask', buffered: false });`);
    const requestsBefore = nodeRequests.length;
    // Until a request the page made by itself has been answered, and a second more to draw it (21 s at most: two
    // rounds).
    const waitStart = Date.now();
    while (Date.now() - waitStart < 21_000 && !answered.some((at) => at >= requestsBefore))
      await new Promise((r) => setTimeout(r, 100));
    log(`a refresh of its own answered ${Date.now() - waitStart} ms into the wait`);
    await new Promise((r) => setTimeout(r, 1_000));
    const longest = (await page.evaluate('window.longestTaskMs')) as number;
    log(`longest main-thread task in the page during refreshes: ${Math.round(longest)} ms`);
    assert.ok(longest < 1000, `the page's main thread was blocked for ${Math.round(longest)} ms`);
    // Every 10 s, but a refresh does not start while the previous one is still answering (the sandbox
    // can take seconds to list 5,000 nodes while its controllers tick), so at least one lands in 21 s.
    assert.ok(
      nodeRequests.length - requestsBefore >= 1,
      `the table refreshed itself (${nodeRequests.length - requestsBefore} node requests in ${Math.round((Date.now() - waitStart) / 1000)} s)`,
    );
    assert.equal(
      await page.locator('[data-testid="nodes-table"] tbody tr').count(),
      PAGE,
      'only the current page is in the DOM',
    );
    for (const url of nodeRequests)
      assert.equal(url.searchParams.get('limit'), String(PAGE), `one page per request: ${url}`);
    assert.deepEqual(failedReads, [], 'every node read of the session answered');
    const heap = await page.evaluate(
      () => (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize,
    );
    if (heap) log(`browser JS heap ${Math.round(heap / 1e6)} MB`);
    assert.deepEqual(browser.errors, []);
  });
});
