import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { launchBrowser, screenshot, type TestBrowser } from '../helpers/browser.js';
import type { TestSandbox } from '../helpers/sandbox.js';
import { startSandboxAndServer, stopAll, type TestServer } from '../helpers/server.js';

const CLUSTER = 'ui-health';

/** Every `data-state` the element with this test id takes, with the page's clock (ms), recorded in the page. */
async function recordStates(page: Page, testId: string): Promise<void> {
  // A string, so this Node-side file needs no DOM types: it runs in the page.
  await page.evaluate(`(() => {
    const seen = [];
    window.__states = seen;
    const look = () => {
      const state = document.querySelector('[data-testid="${testId}"]')?.getAttribute('data-state');
      if (state && seen[seen.length - 1]?.state !== state) seen.push({ state, at: Date.now() });
    };
    look();
    new MutationObserver(look).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-state'] });
  })()`);
}
const recorded = (page: Page) => page.evaluate('window.__states') as Promise<Array<{ state: string; at: number }>>;

async function until<T>(probe: () => Promise<T | undefined | false>, what: string, seconds: number): Promise<T> {
  const end = Date.now() + seconds * 1000;
  while (Date.now() < end) {
    const v = await probe();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('cluster health in the web UI: live node changes on the cluster page, the rollup on the clusters list (chromium, real server on the sandbox)', () => {
  let sb: TestSandbox;
  let server: TestServer;
  let browser: TestBrowser;
  let page: Page;
  let ids: string[] = [];
  before(async () => {
    // Create fast, then run at the default 20× speed: a fault is then healed by HyperPod in seconds.
    ({ sb, server } = await startSandboxAndServer(600));
    const created = await server.api('POST', '/api/v1/clusters', {
      name: CLUSTER,
      availabilityZone: 'us-west-2b',
      instanceType: 'ml.c5.xlarge',
      instanceCount: 2,
      storage: { s3: false },
    });
    assert.equal(created.status, 202, JSON.stringify(created.body));
    assert.equal((await server.waitForOperation(created.body.operation.id)).status, 'succeeded');
    const nodes = await until(
      async () => {
        const r = await server.api('GET', `/api/v1/clusters/${CLUSTER}/nodes`);
        return r.body.counts?.healthy === 2 && r.body;
      },
      'two healthy nodes',
      60,
    );
    ids = nodes.nodes.map((n: any) => n.instanceId);
    assert.equal((await sb.admin('/_sandbox/clock', { method: 'POST', body: { speed: 20 } })).status, 200);
    browser = await launchBrowser();
    page = await browser.newPage();
    page.setDefaultTimeout(30_000);
  });
  after(() => stopAll(browser, server, sb));

  it('shows a node fault and its recovery on the cluster page as they happen, before any 10 s refresh', async () => {
    // The Nodes tab: the header (every tab's) and the node table at once.
    await page.goto(`${server.url}/clusters/${CLUSTER}/nodes`);
    await page.locator('[data-testid="cluster-header-health"][data-state="healthy"]').waitFor();
    await page.locator(`[data-testid="node-health-${ids[0]}"][data-state="healthy"]`).waitFor();
    const loadedAt = Date.now();
    await recordStates(page, 'cluster-header-health');
    // Let the server's shared watch take its first read, as a user reading the page would.
    await new Promise((r) => setTimeout(r, 2_500));
    const fault = await sb.admin('/_sandbox/faults', {
      method: 'POST',
      body: {
        type: 'node-fault',
        cluster: CLUSTER,
        instanceId: ids[0],
        health: 'UnschedulablePendingReboot',
        reason: 'Instance status check failed: the instance is unreachable',
      },
    });
    assert.ok(fault.status < 300, JSON.stringify(fault.body));
    const faultAt = Date.now();

    // The header's health comes from the cluster view, refreshed by itself only every 30 s: within
    // seconds of the fault only the live channel can have brought it. HyperPod reboots the node
    // 30–90 sandbox seconds later (1.5–4.5 s here), so it is seen failed only if pushed at once.
    const states = await until(
      async () => {
        const s = await recorded(page);
        const failed = s.findIndex((x) => x.state === 'failed');
        return failed >= 0 && s.slice(failed).some((x) => x.state === 'healthy') && s;
      },
      'the fault and then the recovery in the page header',
      30,
    );
    const failedAt = states.find((s) => s.state === 'failed')!.at;
    const healthyAgainAt = states.filter((s) => s.state === 'healthy').pop()!.at;
    assert.ok(failedAt - faultAt < 6_000, `the fault showed ${failedAt - faultAt} ms after it happened`);
    assert.ok(healthyAgainAt - loadedAt < 28_000, "the recovery showed before the cluster view's own 30 s refresh");
    assert.deepEqual(
      states
        .map((s) => s.state)
        .filter((s, i, all) => all.indexOf(s) === i)
        .slice(0, 2),
      ['healthy', 'failed'],
      `states in order: ${JSON.stringify(states)}`,
    );
    await screenshot(page, 'cluster-health-01-recovered');
  });

  it('rolls a failed node up to the clusters list, the header and the overview', async () => {
    // Manual recovery, so the failure stays on screen.
    await sb.aws(['sagemaker', 'update-cluster', '--cluster-name', CLUSTER, '--node-recovery', 'None']);
    const fault = await sb.admin('/_sandbox/faults', {
      method: 'POST',
      body: {
        type: 'node-fault',
        cluster: CLUSTER,
        instanceId: ids[1],
        health: 'UnschedulablePendingReboot',
        reason: 'Instance status check failed: the instance is unreachable',
      },
    });
    assert.ok(fault.status < 300, JSON.stringify(fault.body));
    await page.locator('[data-testid="cluster-header-health"][data-state="failed"]').waitFor({ timeout: 15_000 });
    await page.goto(`${server.url}/clusters/${CLUSTER}`); // the Overview tab
    const overview = page.locator('[data-testid="cluster-overview-health"][data-state="failed"]');
    await overview.waitFor();
    assert.match(await overview.innerText(), /1 node failed/);
    await screenshot(page, 'cluster-health-02-header-overview');

    await page.goto(`${server.url}/clusters`);
    const cell = page.locator(`[data-testid="cluster-health-${CLUSTER}"][data-state="failed"]`);
    await cell.waitFor();
    assert.match(await cell.innerText(), /1 failed/);
    await screenshot(page, 'cluster-health-03-list');
    assert.deepEqual(browser.errors, []);
  });
});
