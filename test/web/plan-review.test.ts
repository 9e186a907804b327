import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { launchBrowser, screenshot, type TestBrowser } from '../helpers/browser.js';
import type { TestSandbox } from '../helpers/sandbox.js';
import { startSandboxAndServer, stopAll, type TestServer } from '../helpers/server.js';

/** Issue 30 item 5 in chromium: the create wizard's review step shows the plan's hourly cost and its changes. */
const ZONE = 'us-west-2b';
const TYPE = 'ml.g5.8xlarge';

async function next(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Next', exact: true }).click();
}

describe("the create wizard's review step shows what the create makes and its hourly cost", () => {
  let sb: TestSandbox;
  let server: TestServer;
  let browser: TestBrowser;
  before(async () => {
    ({ sb, server } = await startSandboxAndServer(600));
    browser = await launchBrowser({ viewport: { width: 1440, height: 900 } });
  });
  after(() => stopAll(browser, server, sb));

  it('shows the Price List total and the planned changes, and makes nothing', async () => {
    const page = await browser.newPage();
    page.setDefaultTimeout(30_000);
    const mark = (await sb.calls()).at(-1)?.seq ?? 0;
    await page.goto(`${server.url}/create-cluster`);
    await page.locator('[data-testid="wizard-name"] input').fill('priced');
    await page.locator('[data-testid="wizard-zone"] button').first().click();
    await page.getByRole('option', { name: ZONE }).first().click();
    await next(page);
    await page.locator('[data-testid="wizard-instance-type"] button').first().click();
    await page.getByPlaceholder('Find a type, accelerator or EFA').fill(TYPE);
    await page
      .getByRole('option', { name: /^ml\.g5\.8xlarge\b/ })
      .first()
      .click();
    await page.locator('[data-testid="wizard-count"] input').fill('3');
    await next(page);
    await next(page);
    const total = page.locator('[data-testid="plan-cost-lines-total"]');
    await total.waitFor();

    const plan = await server.api('POST', '/api/v1/clusters/plan', {
      name: 'priced',
      availabilityZone: ZONE,
      instanceType: TYPE,
      instanceCount: 3,
      storage: { s3: true },
    });
    assert.equal(plan.status, 200, JSON.stringify(plan.body));
    assert.equal(await total.textContent(), `$${plan.body.cost.totalHourlyUsd.toFixed(2)} per hour`);
    const lines = await page.locator('[data-testid="plan-cost-lines"]').innerText();
    assert.match(lines, /3 × ml\.g5\.8xlarge/);
    assert.match(lines, /AmazonSageMaker, SKU [A-Z0-9]{16}, effective \d{4}-\d\d-\d\d/);
    await page.getByText(`${plan.body.mutations.length} changes`).click();
    await page.getByText('10.0.0.0/16').first().waitFor();
    await screenshot(page, 'wizard-review-plan');
    const mutating = [
      ...(await sb.calls({ mutating: true, after: mark })),
      ...(await sb.calls({ service: 'kubernetes', after: mark })),
    ];
    assert.deepEqual(mutating, [], 'the review step changes nothing');
    assert.deepEqual(browser.errors, []);
  });
});
