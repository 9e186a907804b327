import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { launchBrowser, screenshot, type TestBrowser } from '../helpers/browser.js';
import type { TestSandbox } from '../helpers/sandbox.js';
import { startSandboxAndServer, stopAll, type TestServer } from '../helpers/server.js';

/**
 * The cluster page's structure (issue 15, items 8 and 10): one tab per part of the cluster, each with
 * its own URL, node detail with its own URL, tables that fit a 1440×900 screen with the side menu
 * open, and a page that notices its cluster's delete without a reload.
 */
const CLUSTER = 'ui-page';
const VIEWPORT = { width: 1440, height: 900 };

describe('the cluster page: tabs with URLs, tables that fit, and a delete seen at once (chromium, real server on the sandbox)', () => {
  let sb: TestSandbox;
  let server: TestServer;
  let browser: TestBrowser;
  let page: Page;
  let nodeId = '';
  let group = '';
  before(async () => {
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
    const nodes = await server.api('GET', `/api/v1/clusters/${CLUSTER}/nodes`);
    assert.equal(nodes.status, 200, JSON.stringify(nodes.body));
    nodeId = nodes.body.nodes[0].instanceId;
    group = nodes.body.nodes[0].instanceGroupName;
    browser = await launchBrowser({ viewport: VIEWPORT });
    page = await browser.newPage();
    page.setDefaultTimeout(30_000);
  });
  after(() => stopAll(browser, server, sb));

  const activeTab = () => page.locator('[data-testid="cluster-tabs"] [role="tab"][aria-selected="true"]').innerText();

  it('opens each tab by its URL, and switching tabs changes the URL', async () => {
    const tabs: Array<[string, string, string]> = [
      ['', 'Overview', 'cluster-overview'],
      ['/instance-groups', 'Instance groups', 'instance-groups-table'],
      ['/nodes', 'Nodes', 'nodes-table'],
      ['/autoscaling', 'Autoscaling', 'autoscaling-panel'],
      ['/events', 'Events', 'events-filter-group'],
    ];
    for (const [suffix, label, testId] of tabs) {
      await page.goto(`${server.url}/clusters/${CLUSTER}${suffix}`);
      await page.locator(`[data-testid="${testId}"]`).first().waitFor();
      assert.equal((await activeTab()).trim(), label, `${suffix || '/'} opens the ${label} tab`);
      const crumbs = await page.locator('nav[aria-label="Breadcrumbs"]').innerText();
      assert.ok(crumbs.includes(CLUSTER), `the breadcrumbs name the cluster: ${crumbs}`);
      if (suffix === '') await screenshot(page, 'cluster-page-00-overview');
    }
    await page.locator('[data-testid="cluster-tabs"] [role="tab"]', { hasText: 'Instance groups' }).click();
    await page.waitForURL(new RegExp(`/clusters/${CLUSTER}/instance-groups$`));
    await page.locator(`[data-testid="group-row-${group}"]`).waitFor();
    await page.goto(`${server.url}/clusters/${CLUSTER}/no-such-tab`);
    await page.locator('[data-testid="cluster-tab-unknown"]').waitFor();
  });

  it("opens a node's detail by its URL; closing it goes back to the node list's URL", async () => {
    await page.goto(`${server.url}/clusters/${CLUSTER}/nodes/${nodeId}`);
    const detail = page.locator('[data-testid="node-detail"]');
    await detail.locator('[data-testid="node-detail-health"]').waitFor();
    assert.match(await detail.innerText(), new RegExp(nodeId));
    assert.equal((await activeTab()).trim(), 'Nodes');
    await screenshot(page, 'cluster-page-01-node-detail-url');
    await detail.locator('[data-testid="node-detail-close"]').click();
    await page.waitForURL(new RegExp(`/clusters/${CLUSTER}/nodes$`));
    await page.locator(`[data-testid="node-row-${nodeId}"] button`).click();
    await page.waitForURL(new RegExp(`/clusters/${CLUSTER}/nodes/${nodeId}$`));
    await detail.locator('[data-testid="node-detail-health"]').waitFor();
    await page.goBack();
    await page.waitForURL(new RegExp(`/clusters/${CLUSTER}/nodes$`));
    await detail.waitFor({ state: 'hidden' });
  });

  it(`at ${VIEWPORT.width}×${VIEWPORT.height} with the side menu open, the group actions and the nodes table's last column are on screen`, async () => {
    const withinViewport = async (selector: string, what: string) => {
      const box = await page.locator(selector).first().boundingBox();
      assert.ok(box, `${what} is rendered`);
      assert.ok(
        box.x >= 0 && box.x + box.width <= VIEWPORT.width,
        `${what} spans x ${Math.round(box.x)}–${Math.round(box.x + box.width)}, beyond the ${VIEWPORT.width} px screen`,
      );
    };
    await page.goto(`${server.url}/clusters/${CLUSTER}/instance-groups`);
    assert.equal(
      await page.getByRole('link', { name: 'Operations' }).first().isVisible(),
      true,
      'the side menu is open',
    );
    await page.locator(`[data-testid="group-scale-${group}"]`).waitFor();
    await withinViewport(`[data-testid="group-scale-${group}"]`, 'Scale');
    await withinViewport(`[data-testid="group-delete-${group}"]`, 'Delete');
    await screenshot(page, 'cluster-page-02-groups-1440');

    await page.goto(`${server.url}/clusters/${CLUSTER}/nodes`);
    await page.locator(`[data-testid="node-row-${nodeId}"]`).waitFor();
    await withinViewport(
      '[data-testid="nodes-table"] table thead th:last-child',
      'the last column header of the nodes table',
    );
    await withinViewport(
      `[data-testid="nodes-table"] tr:has([data-testid="node-row-${nodeId}"]) td:last-child`,
      'the last cell of a node row',
    );
    await screenshot(page, 'cluster-page-03-nodes-1440');
  });

  it("notices its cluster's delete within a couple of seconds, without a reload, and stops asking for it", async () => {
    await page.goto(`${server.url}/clusters/${CLUSTER}/instance-groups`);
    await page.locator(`[data-testid="group-row-${group}"]`).waitFor();
    await page.locator('[data-testid="detail-delete"]:not([disabled])').waitFor();
    // Whether the "being deleted" state showed, and with which buttons enabled, however briefly it lasts.
    // (A script string: the tests compile without the DOM's types.)
    await page.evaluate(`(() => {
      const enabled = (id) => {
        const b = document.querySelector('[data-testid="' + id + '"]');
        return !!b && !b.disabled && !b.closest('fieldset:disabled');
      };
      const look = () => {
        if (window.deletingSeen || !document.querySelector('[data-testid="cluster-deleting"]')) return;
        window.deletingSeen = { deleteEnabled: enabled('detail-delete'), addEnabled: enabled('add-instance-group') };
      };
      new MutationObserver(look).observe(document.body, { subtree: true, childList: true, attributes: true });
    })()`);
    const deleted = await server.api('DELETE', `/api/v1/clusters/${CLUSTER}?confirm=true`);
    assert.equal(deleted.status, 202, JSON.stringify(deleted.body));
    const asked = Date.now();
    await page
      .locator('[data-testid="cluster-deleting"], [data-testid="cluster-gone"]')
      .first()
      .waitFor({ timeout: 3_000 });
    const reactedMs = Date.now() - asked;
    await screenshot(page, 'cluster-page-04-deleting');

    assert.equal((await server.waitForOperation(deleted.body.operation.id)).status, 'succeeded');
    const succeeded = Date.now();
    await page.locator('[data-testid="cluster-gone"]').waitFor({ timeout: 3_000 });
    const goneMs = Date.now() - succeeded;
    await page.waitForTimeout(300); // the alert fades in
    assert.equal(
      await page.locator('[data-testid="cluster-detail-status"]').count(),
      0,
      'no stale status stays on screen',
    );
    assert.equal(
      await page.locator(`[data-testid="group-row-${group}"]`).count(),
      0,
      'no stale instance group stays on screen',
    );
    const seen = (await page.evaluate('window.deletingSeen')) as
      | { deleteEnabled: boolean; addEnabled: boolean }
      | undefined;
    if (seen)
      assert.deepEqual(
        seen,
        { deleteEnabled: false, addEnabled: false },
        'while the cluster is being deleted, its actions are off',
      );
    await screenshot(page, 'cluster-page-05-gone');

    // Nothing asks for the cluster any more, not even when the tab comes back into focus.
    const asks: string[] = [];
    page.on('request', (r) => {
      const path = new URL(r.url()).pathname;
      if (path.startsWith(`/api/v1/clusters/${CLUSTER}`)) asks.push(path);
    });
    await page.evaluate(`window.dispatchEvent(new Event('visibilitychange'))`);
    await page.waitForTimeout(3_000);
    assert.deepEqual(asks, [], 'the page stopped refetching the deleted cluster');
    assert.ok(
      reactedMs < 3_000 && goneMs < 3_000,
      `reacted in ${reactedMs} ms, showed it gone ${goneMs} ms after success`,
    );
    assert.deepEqual(browser.errors, []);
  });
});
