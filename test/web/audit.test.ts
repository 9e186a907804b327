import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { launchBrowser, screenshot, type TestBrowser } from '../helpers/browser.js';
import type { TestSandbox } from '../helpers/sandbox.js';
import { startSandboxAndServer, stopAll, type TestServer } from '../helpers/server.js';

const CLUSTER = 'ui-audit';

async function choose(page: Page, testId: string, option: string | RegExp): Promise<void> {
  await page.locator(`[data-testid="${testId}"] button`).first().click();
  await page.getByRole('option', { name: option }).first().click();
}
const next = (page: Page) => page.getByRole('button', { name: 'Next', exact: true }).click();

/**
 * Issue 30's audit timeline, UI face: a create through the wizard, a node reboot and a feature toggle through their
 * panels each appear once as `ui` (with the AWS request ids of their operations), and the Audit page shows them.
 */
describe('the audit timeline records the UI face, and its Audit page shows it (chromium, real server on the sandbox)', () => {
  let sb: TestSandbox;
  let server: TestServer;
  let browser: TestBrowser;
  let page: Page;
  before(async () => {
    ({ sb, server } = await startSandboxAndServer(600));
    browser = await launchBrowser();
    page = await browser.newPage();
    page.setDefaultTimeout(30_000);
  });
  after(() => stopAll(browser, server, sb));

  const lastOperation = async (kind: string) =>
    (await server.api('GET', `/api/v1/operations?kind=${kind}&limit=1`)).body.operations[0];

  it('creates a cluster, reboots a node and turns a feature off through the UI', async () => {
    await page.goto(`${server.url}/create-cluster`);
    await page.locator('[data-testid="wizard-name"] input').fill(CLUSTER);
    await choose(page, 'wizard-zone', 'us-west-2b');
    await next(page);
    await choose(page, 'wizard-instance-type', /^ml\.c5\.xlarge/);
    await next(page);
    await page.locator('[data-testid="wizard-s3"]').waitFor();
    await next(page);
    await page.locator('[data-testid="preflight-ok"]').waitFor();
    await page.locator('[data-testid="wizard-submit"]').click();
    await page.waitForURL(/\/operations\//);
    assert.equal((await server.waitForOperation((await lastOperation('create-cluster')).id)).status, 'succeeded');

    const node = (await server.api('GET', `/api/v1/clusters/${CLUSTER}/nodes`)).body.nodes[0].instanceId;
    await page.goto(`${server.url}/clusters/${CLUSTER}/nodes`);
    await page.locator(`tr:has([data-testid="node-row-${node}"]) input[type="checkbox"]`).check();
    await page.locator('[data-testid="node-action-reboot"]').click();
    await page.locator('[data-testid="node-action-modal"] [data-testid="node-confirm"]').click();
    await page.locator('[data-testid="node-action-operation-link"]').waitFor();
    await server.waitForOperation((await lastOperation('reboot-nodes')).id);

    await page.goto(`${server.url}/clusters/${CLUSTER}/features`);
    await page.locator('[data-testid="feature-toggle-training-operator"] input').click({ force: true });
    await page.locator('[data-testid="features-review"]').click();
    await page.locator('[data-testid="features-apply"]:not([disabled])').click();
    await page.locator('[data-testid="features-plan-modal"]').waitFor({ state: 'detached' });
    assert.equal((await server.waitForOperation((await lastOperation('set-features')).id)).status, 'succeeded');
  });

  it('records each once with the ui face, the browser as client and the AWS request ids; the Audit page lists them', async () => {
    const events = (await server.api('GET', '/api/v1/audit?face=ui')).body.events as any[];
    assert.deepEqual(events.map((e) => e.action).sort(), ['createCluster', 'rebootNodes', 'setFeatures']);
    for (const e of events) {
      assert.deepEqual(e.actor, { kind: 'local' }, 'a loopback server without tokens');
      assert.match(e.client, /Chrome/, 'the User-Agent names the browser');
      assert.equal(e.operationStatus, 'succeeded');
      assert.ok(e.awsCalls.length > 0 && e.awsCalls.every((c: any) => c.requestId), JSON.stringify(e.awsCalls));
    }

    await page.goto(`${server.url}/audit`);
    await choose(page, 'audit-face', 'UI');
    const table = page.locator('[data-testid="audit-table"]');
    await table.locator('tbody tr').nth(2).waitFor();
    assert.equal(await table.locator('tbody tr').count(), 3);
    const text = await table.innerText();
    // In words, the browser by name, each event's AWS calls counted, their request ids one click away.
    for (const want of ['Reboot nodes', 'Set features', 'Create cluster', 'UI · Chrome', 'BatchRebootClusterNodes'])
      assert.ok(text.includes(want), `the Audit page shows ${want}: ${text}`);
    assert.ok(!text.includes(events[0].awsCalls[0].requestId), 'request ids are folded');
    await table.locator(`[data-testid="audit-aws-${events[0].id}"]`).getByRole('button').first().click();
    await table.getByText(events[0].awsCalls[0].requestId).waitFor();
    await screenshot(page, 'audit-01-ui-face');
    assert.deepEqual(browser.errors, []);
  });
});
