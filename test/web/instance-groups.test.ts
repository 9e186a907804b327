import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { launchBrowser, screenshot, type TestBrowser } from '../helpers/browser.js';
import type { TestSandbox } from '../helpers/sandbox.js';
import { startSandboxAndServer, stopAll, type TestServer } from '../helpers/server.js';

async function choose(page: Page, testId: string, option: string | RegExp): Promise<void> {
  await page.locator(`[data-testid="${testId}"] button`).first().click();
  await page.getByRole('option', { name: option }).first().click();
}

describe('instance groups in the web UI (chromium, real server on the sandbox)', () => {
  let sb: TestSandbox;
  let server: TestServer;
  let browser: TestBrowser;
  let page: Page;
  before(async () => {
    ({ sb, server } = await startSandboxAndServer(600));
    const created = await server.api('POST', '/api/v1/clusters', { name: 'ui-fleet', availabilityZone: 'us-west-2b', instanceType: 'ml.c5.xlarge', instanceCount: 1, storage: { s3: false } });
    assert.equal(created.status, 202, JSON.stringify(created.body));
    assert.equal((await server.waitForOperation(created.body.operation.id)).status, 'succeeded');
    browser = await launchBrowser();
    page = await browser.newPage();
    page.setDefaultTimeout(30_000);
  });
  after(() => stopAll(browser, server, sb));

  const openCluster = async () => {
    await page.goto(`${server.url}/clusters/ui-fleet/instance-groups`);
    await page.locator('[data-testid="group-row-workers"]').waitFor();
  };
  const waitForSuccess = async () => {
    await page.waitForURL(/\/operations\//);
    await page.locator('[data-testid="operation-status"][data-status="succeeded"]').waitFor({ timeout: 120_000 });
  };

  it('adds a spot group in another zone through the modal; EFA is offered only for EFA types', async () => {
    await openCluster();
    await page.locator('[data-testid="add-instance-group"]').click();
    await page.locator('[data-testid="group-name"] input').fill('spot-a');
    await choose(page, 'group-zone', 'us-west-2a');
    await choose(page, 'group-instance-type', /^ml\.c5\.xlarge/);
    assert.equal(await page.locator('[data-testid="group-network-interface"] input[value="efa-only"]').isDisabled(), true, 'ml.c5.xlarge has no EFA');
    await page.locator('[data-testid="group-capacity-type"] input[value="spot"]').check({ force: true });
    await screenshot(page, 'groups-01-add-modal');
    await page.locator('[data-testid="group-submit"]').click();
    await waitForSuccess();
    await openCluster();
    await page.locator('[data-testid="group-count-spot-a"]', { hasText: '1 / 1' }).waitFor();
    await screenshot(page, 'groups-02-table');
  });

  it('scales the group (sending only the count), shrinks it after the user confirms, and deletes it after typing its name', async () => {
    await page.locator('[data-testid="group-scale-spot-a"]').click();
    assert.equal(await page.locator('[data-testid="scale-submit"]').isDisabled(), true, 'nothing changed yet');
    await page.locator('[data-testid="scale-count"] input').fill('2');
    await page.locator('[data-testid="scale-submit"]').click();
    await waitForSuccess();
    await openCluster();
    await page.locator('[data-testid="group-count-spot-a"]', { hasText: '2 / 2' }).waitFor();
    // A lower count terminates nodes: the user ticks the warning first, and that yes is sent as confirm.
    await page.locator('[data-testid="group-scale-spot-a"]').click();
    await page.locator('[data-testid="scale-count"] input').fill('1');
    assert.equal(await page.locator('[data-testid="scale-submit"]').isDisabled(), true, 'a shrink waits for the user\'s yes');
    await page.locator('[data-testid="scale-confirm-shrink"] input').check({ force: true });
    await screenshot(page, 'groups-03-shrink-confirm');
    await page.locator('[data-testid="scale-submit"]').click();
    await waitForSuccess();
    await openCluster();
    await page.locator('[data-testid="group-count-spot-a"]', { hasText: '1 / 1' }).waitFor();
    await page.locator('[data-testid="group-delete-spot-a"]').click();
    assert.equal(await page.locator('[data-testid="group-delete-confirm"]').isDisabled(), true);
    await page.locator('[data-testid="group-delete-confirm-input"] input').fill('spot-a');
    await page.locator('[data-testid="group-delete-confirm"]').click();
    await waitForSuccess();
    await openCluster();
    assert.equal(await page.locator('[data-testid="group-row-spot-a"]').count(), 0);
    assert.deepEqual(browser.errors, []);
  });
});
