import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { launchBrowser, screenshot, type TestBrowser } from '../helpers/browser.js';
import type { TestSandbox } from '../helpers/sandbox.js';
import { startSandboxAndServer, stopAll, type TestServer } from '../helpers/server.js';

/**
 * The pages at a 1280×800 laptop screen as well as 1440×900, with the side menu open (issue 26, item 8): the cluster
 * page's tab strip, the tables' action columns, the features plan dialog and long model ids. Screenshots of each land
 * in test-artifacts/layout-<width>-*.png; what can be measured is asserted: the page never scrolls sideways, the last
 * column and the actions are on screen, every tab can be reached.
 */
const CLUSTER = 'ui-layout';
const MODEL = 'sentence-transformers/all-MiniLM-L6-v2';
const SIZES = [
  { width: 1280, height: 800 },
  { width: 1440, height: 900 },
];

describe('the layout at 1280×800 and 1440×900 (chromium, real server on the sandbox)', () => {
  let sb: TestSandbox;
  let server: TestServer;
  let browser: TestBrowser;
  let page: Page;
  let group = '';
  let download = '';

  before(async () => {
    ({ sb, server } = await startSandboxAndServer(600));
    const created = await server.api('POST', '/api/v1/clusters', {
      name: CLUSTER,
      availabilityZone: 'us-west-2b',
      instanceType: 'ml.c5.xlarge',
      instanceCount: 1,
      storage: { s3: true },
    });
    assert.equal(created.status, 202, JSON.stringify(created.body));
    assert.equal((await server.waitForOperation(created.body.operation.id)).status, 'succeeded');
    group = (await server.api('GET', `/api/v1/clusters/${CLUSTER}/instance-groups`)).body.instanceGroups[0].name;
    const started = await server.api('POST', `/api/v1/clusters/${CLUSTER}/model-downloads`, {
      modelId: MODEL,
      storage: 'shared-s3',
    });
    assert.ok(started.status < 300, JSON.stringify(started.body));
    download = started.body.operation.id;
    assert.equal((await server.waitForOperation(download)).status, 'succeeded');
    browser = await launchBrowser({ viewport: SIZES[0]! });
    page = await browser.newPage();
    page.setDefaultTimeout(30_000);
  });
  after(() => stopAll(browser, server, sb));

  /** How far the page scrolls sideways (0: it fits). */
  const sidewaysOverflow = async () =>
    (await page.evaluate('document.scrollingElement.scrollWidth - window.innerWidth')) as number;
  const withinViewport = async (selector: string, what: string, width: number) => {
    const box = await page.locator(selector).first().boundingBox();
    assert.ok(box, `${what} is rendered`);
    if (box.x < 0 || box.x + box.width > width + 0.5) await screenshot(page, `layout-${width}-beyond-the-screen`);
    assert.ok(
      box.x >= 0 && box.x + box.width <= width + 0.5,
      `${what} spans x ${Math.round(box.x)}–${Math.round(box.x + box.width)}, beyond the ${width} px screen`,
    );
  };
  const fits = async (name: string, width: number) => {
    assert.equal(
      await page.getByRole('link', { name: 'Operations' }).first().isVisible(),
      true,
      'the side menu is open',
    );
    await screenshot(page, `layout-${width}-${name}`);
    assert.ok(
      (await sidewaysOverflow()) <= 0,
      `${name} at ${width} px scrolls sideways by ${await sidewaysOverflow()} px`,
    );
  };

  for (const size of SIZES) {
    it(`at ${size.width}×${size.height}: the tab strip, the tables' actions, the plan dialog and long model ids fit`, async () => {
      await page.setViewportSize(size);

      // The tab strip: every tab can be reached (shown, or behind the strip's scroll buttons), and the page does not
      // widen.
      await page.goto(`${server.url}/clusters/${CLUSTER}/instance-groups`);
      await page.locator(`[data-testid="group-scale-${group}"]`).waitFor();
      await withinViewport(`[data-testid="group-scale-${group}"]`, "the group's Scale action", size.width);
      await withinViewport(`[data-testid="group-delete-${group}"]`, "the group's Delete action", size.width);
      const strip = (await page.evaluate(`(() => {
        const tabs = [...document.querySelectorAll('[data-testid="cluster-tabs"] [role="tab"]')];
        const list = tabs[0] && tabs[0].closest('[role="tablist"]');
        const r = list.getBoundingClientRect();
        const scrolls = list.scrollWidth > list.clientWidth + 1;
        const buttons = [...document.querySelectorAll('[data-testid="cluster-tabs"] button')].filter((b) => b.offsetParent !== null && !b.closest('[role="tabpanel"]'))
          .map((b) => (b.getAttribute('aria-label') || '') + '|' + b.className.slice(0, 80) + '|' + Math.round(b.getBoundingClientRect().left));
        return { count: tabs.length, right: r.right, scrolls, buttons, width: list.clientWidth, scrollWidth: list.scrollWidth };
      })()`)) as {
        count: number;
        right: number;
        scrolls: boolean;
        buttons: string[];
        width: number;
        scrollWidth: number;
      };
      await screenshot(page, `layout-${size.width}-cluster-tabs`);
      assert.ok(strip.count >= 9, `the cluster page has its tabs (${strip.count})`);
      assert.ok(
        strip.right <= size.width + 0.5,
        `the tab strip ends at ${Math.round(strip.right)} px, beyond the ${size.width} px screen`,
      );
      assert.ok(
        !strip.scrolls || strip.buttons.length > 0,
        `a tab strip wider than its place scrolls with buttons, so the last tabs can be reached: ${JSON.stringify(strip)}`,
      );
      await fits('cluster-instance-groups', size.width);

      await page.goto(`${server.url}/clusters/${CLUSTER}/nodes`);
      await page.locator('[data-testid="nodes-table"] tbody tr').first().waitFor();
      await withinViewport(
        '[data-testid="nodes-table"] table thead th:last-child',
        "the nodes table's last column",
        size.width,
      );
      await fits('cluster-nodes', size.width);

      // A long model id and its destination wrap inside the table; the table's last column stays on screen.
      await page.goto(`${server.url}/clusters/${CLUSTER}/models`);
      await page.locator('[data-testid="model-download-status"][data-status="succeeded"]').waitFor();
      await withinViewport(
        '[data-testid="model-downloads-panel"] table thead th:last-child',
        "the model downloads table's last column",
        size.width,
      );
      await fits('cluster-models', size.width);

      await page.goto(`${server.url}/operations/${download}`);
      await page.locator('[data-testid="phase-table"]').waitFor();
      await withinViewport(
        '[data-testid="phase-table"] table thead th:last-child',
        "the phase table's last column",
        size.width,
      );
      await fits('operation', size.width);

      await page.goto(`${server.url}/operations`);
      await page.locator(`[data-testid="operation-link-${download}"]`).waitFor();
      await fits('operations', size.width);

      // The features plan dialog: its words wrap inside it, its buttons are on screen.
      await page.goto(`${server.url}/clusters/${CLUSTER}/features`);
      await page.locator('[data-testid="feature-toggle-kuberay-operator"] input').click({ force: true });
      await page.locator('[data-testid="features-review"]').click();
      const modal = page.locator('[data-testid="features-plan-modal"]');
      await modal.locator('[data-testid="features-apply"]').waitFor();
      await page.waitForTimeout(300); // the dialog fades in
      await withinViewport('[data-testid="features-apply"]', "the plan dialog's Apply", size.width);
      const clipped = (await page.evaluate(`(() => {
        const dialog = document.querySelector('[data-testid="features-plan-modal"] [role="dialog"]') || document.querySelector('[data-testid="features-plan-modal"]');
        const edge = dialog.getBoundingClientRect().right;
        return [...dialog.querySelectorAll('*')].filter((e) => e.children.length === 0 && e.textContent.trim() && e.getBoundingClientRect().right > edge + 1).map((e) => e.textContent.trim().slice(0, 60));
      })()`)) as string[];
      assert.deepEqual(clipped, [], 'no words of the plan reach past the dialog');
      await fits('features-plan', size.width);
      await page.keyboard.press('Escape');
      assert.deepEqual(browser.errors.splice(0), []);
    });
  }
});
