import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { launchBrowser, screenshot, type TestBrowser } from '../helpers/browser.js';
import type { TestSandbox } from '../helpers/sandbox.js';
import { startSandboxAndServer, stopAll, type TestServer } from '../helpers/server.js';

/**
 * Issue 15, items 11–13 in chromium: the wizard checks quotas at the Capacity step and sorts and
 * filters the types, cancel asks first, the scale dialog refuses a count past the quota before
 * anything is sent, and result cards carry labels.
 */
const ZONE = 'us-west-2b';

async function next(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Next', exact: true }).click();
}

async function openTypes(page: Page): Promise<string[]> {
  await page.locator('[data-testid="wizard-instance-type"] button').first().click();
  await page.getByRole('option').first().waitFor();
  const names = await page
    .getByRole('option')
    .evaluateAll((els) =>
      els.map(
        (e) =>
          (e.textContent ?? '').match(/ml\.[a-z0-9-]+\.(?:\d*xlarge|large|medium|small|micro|nano|metal)/)?.[0] ?? '',
      ),
    );
  return names.filter(Boolean);
}

/**
 * Picks a type through the select's own filter, then checks the trigger shows it: clicking an
 * option by position right after the type filter changed could land on a row the list was
 * re-rendering (CI once chose ml.g5.8xlarge for ml.c5.xlarge).
 */
async function chooseType(page: Page, instanceType: string): Promise<void> {
  await page.locator('[data-testid="wizard-instance-type"] button').first().click();
  await page.getByPlaceholder('Find a type, accelerator or EFA').fill(instanceType);
  await page
    .getByRole('option', { name: new RegExp(`^${instanceType.replaceAll('.', '\\.')}\\b`) })
    .first()
    .click();
  await page
    .locator('[data-testid="wizard-instance-type"] button')
    .first()
    .filter({ hasText: instanceType })
    .waitFor({ timeout: 5_000 });
}

describe('capacity checks in the web UI: wizard quota check, type order and filter, cancel, scale refusal, result labels', () => {
  let sb: TestSandbox;
  let server: TestServer;
  let browser: TestBrowser;
  let page: Page;
  before(async () => {
    ({ sb, server } = await startSandboxAndServer(600));
    const created = await server.api('POST', '/api/v1/clusters', {
      name: 'ui-scale',
      availabilityZone: ZONE,
      instanceType: 'ml.c5.xlarge',
      instanceCount: 1,
      storage: { s3: false },
    });
    assert.equal(created.status, 202, JSON.stringify(created.body));
    assert.equal((await server.waitForOperation(created.body.operation.id)).status, 'succeeded');
    browser = await launchBrowser({ viewport: { width: 1440, height: 900 } });
    page = await browser.newPage();
    page.setDefaultTimeout(30_000);
  });
  after(() => stopAll(browser, server, sb));

  it('Capacity lists accelerated types first, by family and size, and filters them', async () => {
    await page.goto(`${server.url}/create-cluster`);
    await page.locator('[data-testid="wizard-name"] input').fill('quota-check');
    await page.locator('[data-testid="wizard-zone"] button').first().click();
    await page.getByRole('option', { name: ZONE }).first().click();
    await next(page);
    const all = await openTypes(page);
    const offered = (await server.api('GET', `/api/v1/instance-types?availabilityZone=${ZONE}`)).body
      .instanceTypes as Array<{ instanceType: string; acceleratorCount?: number }>;
    const accelerated = new Set(offered.filter((t) => (t.acceleratorCount ?? 0) > 0).map((t) => t.instanceType));
    assert.equal(all.length, offered.length);
    const firstCpu = all.findIndex((t) => !accelerated.has(t));
    assert.ok(
      firstCpu > 0 && all.slice(firstCpu).every((t) => !accelerated.has(t)),
      `accelerated first: ${all.join(', ')}`,
    );
    const c5 = all.filter((t) => t.startsWith('ml.c5.'));
    assert.deepEqual(
      c5.slice(0, 2),
      ['ml.c5.large', 'ml.c5.xlarge'].filter((t) => c5.includes(t)),
      `sizes ascend: ${c5.join(', ')}`,
    );
    await screenshot(page, 'capacity-01-types-sorted');
    await page.keyboard.press('Escape');
    await page.locator('[data-testid="wizard-type-filter"] [data-testid="cpu"]').click();
    const cpu = await openTypes(page);
    assert.ok(cpu.length > 0 && cpu.every((t) => !accelerated.has(t)), cpu.join(', '));
    await page.keyboard.press('Escape');
    await page.locator('[data-testid="wizard-type-filter"] [data-testid="accelerated"]').click();
    const gpu = await openTypes(page);
    assert.ok(gpu.length > 0 && gpu.every((t) => accelerated.has(t)), gpu.join(', '));
    await page.keyboard.press('Escape');
  });

  it('says why spot and training plan are disabled before a type is chosen', async () => {
    const tiles = await page.locator('[data-testid="wizard-capacity-type"]').innerText();
    assert.match(tiles, /Spot[\s\S]*Not available yet: choose an instance type first/);
    assert.match(tiles, /Training plan[\s\S]*Not available yet: choose an instance type first/);
  });

  it('checks the quota at the Capacity step, in sentences without field paths', async () => {
    await page.locator('[data-testid="wizard-type-filter"] [data-testid="all"]').click();
    await chooseType(page, 'ml.c5.xlarge');
    await page.locator('[data-testid="wizard-count"] input').fill('50');
    await page.locator('[data-testid="capacity-check-problem"]').first().waitFor();
    const problems = await page.locator('[data-testid="capacity-check-problem"]').allInnerTexts();
    assert.ok(
      problems.some((p) => /^Instance count: The quota 'ml\.c5\.xlarge for cluster usage' is 10/.test(p)),
      problems.join('\n'),
    );
    assert.ok(
      problems.every((p) => !/instanceCount/.test(p)),
      problems.join('\n'),
    );
    await screenshot(page, 'capacity-02-quota-at-capacity-step');
    await page.locator('[data-testid="wizard-count"] input').fill('2');
    await page.locator('[data-testid="capacity-check-ok"]').waitFor();
    assert.equal(await page.locator('[data-testid="capacity-check-problem"]').count(), 0);
  });

  it('cancel asks first; "Keep editing" keeps the choices, "Leave" goes back to the clusters', async () => {
    await page.getByRole('button', { name: 'Cancel', exact: true }).first().click();
    const dialog = page.locator('[data-testid="wizard-cancel-confirm"]');
    await dialog.getByText('Leave the create wizard?').waitFor();
    await screenshot(page, 'capacity-03-cancel-confirm');
    await page.locator('[data-testid="wizard-cancel-stay"]').click();
    assert.equal(
      await page.locator('[data-testid="wizard-count"] input').inputValue(),
      '2',
      'still in the wizard with its choices',
    );
    assert.match(page.url(), /\/create-cluster$/);
    await page.getByRole('button', { name: 'Cancel', exact: true }).first().click();
    await page.locator('[data-testid="wizard-cancel-leave"]').click();
    await page.waitForURL(/\/clusters$/);
  });

  it('the scale dialog refuses a count past the quota before submit, and allows one that fits', async () => {
    const updatesBefore = (await sb.calls({ service: 'sagemaker', operation: 'UpdateCluster' })).length;
    await page.goto(`${server.url}/clusters/ui-scale/instance-groups`);
    await page.locator('[data-testid="group-scale-workers"]').click();
    await page.locator('[data-testid="scale-count"] input').fill('11');
    await page.locator('[data-testid="scale-check-problem"]').first().waitFor();
    const problem = await page.locator('[data-testid="scale-check-problem"]').first().innerText();
    assert.match(
      problem,
      /^Instance count: The quota 'ml\.c5\.xlarge for cluster usage' is 10 in us-west-2; existing HyperPod clusters use 1 and this request adds 10, 11 in all\./,
    );
    assert.match(problem, /Fix: Request an increase/);
    assert.equal(await page.locator('[data-testid="scale-submit"]').isDisabled(), true);
    await screenshot(page, 'capacity-04-scale-refused');
    assert.equal(
      (await sb.calls({ service: 'sagemaker', operation: 'UpdateCluster' })).length,
      updatesBefore,
      'nothing was sent',
    );
    await page.locator('[data-testid="scale-count"] input').fill('2');
    await page.locator('[data-testid="scale-check-ok"]').waitFor();
    assert.equal(await page.locator('[data-testid="scale-submit"]').isDisabled(), false);
    await page.locator('[data-testid="scale-submit"]').click();
    await page.waitForURL(/\/operations\//);
    await page.locator('[data-testid="operation-status"][data-status="succeeded"]').waitFor({ timeout: 120_000 });
  });

  it('the result card shows labels, not JSON keys, and the target links back to the cluster', async () => {
    const labels = await page.locator('[data-testid="operation-result-label"]').allInnerTexts();
    assert.deepEqual(labels, ['Cluster', 'Instance group', 'Instance count']);
    assert.match(
      await page.locator('[data-testid="operation-target"]').innerText(),
      /^Instance group workers of ui-scale/,
    );
    assert.equal(
      await page.evaluate(() => (globalThis as unknown as { scrollY: number }).scrollY),
      0,
      'the operation page opens at its top',
    );
    await screenshot(page, 'capacity-05-result-labels');
    assert.deepEqual(browser.errors, []);
  });

  it('offers EFA for the first group only on a type the catalogue says supports it, and the cluster is created with it', async () => {
    const offered = (await server.api('GET', `/api/v1/instance-types?availabilityZone=${ZONE}`)).body
      .instanceTypes as Array<{ instanceType: string; efaSupported: boolean; clusterUsageQuota?: number }>;
    const efa = offered.find((t) => t.efaSupported && (t.clusterUsageQuota ?? 1) >= 1);
    assert.ok(efa, 'the sandbox catalogue has an EFA type in the zone');
    await page.goto(`${server.url}/create-cluster`);
    await page.locator('[data-testid="wizard-name"] input').fill('ui-efa');
    await page.locator('[data-testid="wizard-zone"] button').first().click();
    await page.getByRole('option', { name: ZONE }).first().click();
    await next(page);
    const tile = (mode: string) => page.locator(`[data-testid="wizard-network-interface"] input[value="${mode}"]`);
    await chooseType(page, 'ml.c5.xlarge');
    assert.deepEqual(
      [await tile('efa').isDisabled(), await tile('efa-only').isDisabled()],
      [true, true],
      'ml.c5.xlarge has no EFA',
    );
    assert.match(
      await page.locator('[data-testid="create-cluster-wizard"]').innerText(),
      /ml\.c5\.xlarge does not support EFA/,
    );
    await chooseType(page, efa.instanceType);
    assert.equal(await tile('efa').isDisabled(), false, `${efa.instanceType} supports EFA`);
    await tile('efa').check({ force: true });
    await screenshot(page, 'capacity-06-efa-at-create');
    await next(page);
    await next(page);
    await page.locator('[data-testid="preflight-ok"]').waitFor();
    assert.match(await page.locator('[data-testid="create-cluster-wizard"]').innerText(), /Network interface\s+EFA/);
    await page.locator('[data-testid="wizard-submit"]').click();
    await page.waitForURL(/\/operations\//);
    await page.locator('[data-testid="operation-status"][data-status="succeeded"]').waitFor({ timeout: 120_000 });
    const groups = (await server.api('GET', '/api/v1/clusters/ui-efa/instance-groups')).body.instanceGroups;
    assert.deepEqual(
      groups.map((g: any) => [g.instanceType, g.networkInterface]),
      [[efa.instanceType, 'efa']],
    );
    // A type without EFA is refused naming the field, before AWS is called.
    const refused = await server.api('POST', '/api/v1/clusters', {
      name: 'ui-no-efa',
      availabilityZone: ZONE,
      instanceType: 'ml.c5.xlarge',
      instanceCount: 1,
      networkInterface: 'efa',
      storage: { s3: false },
    });
    assert.equal(refused.status, 422, JSON.stringify(refused.body));
    assert.match(JSON.stringify(refused.body), /networkInterface[\s\S]*does not support EFA/);
  });
});
