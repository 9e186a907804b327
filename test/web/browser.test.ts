import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { launchBrowser, screenshot, type TestBrowser } from '../helpers/browser.js';
import type { TestSandbox } from '../helpers/sandbox.js';
import { startSandboxAndServer, stopAll, type TestServer } from '../helpers/server.js';

/**
 * The web UI (dist/web, built by `npm test` before this runs) in Debian's chromium against the real
 * server on the sandbox cloud. Screenshots land in test-artifacts/. Selectors are the UI's
 * data-testid attributes (web/README.md lists them).
 */
const SPEED = 600;
const ZONE = 'us-west-2b';

async function choose(page: Page, testId: string, option: string | RegExp): Promise<void> {
  await page.locator(`[data-testid="${testId}"] button`).first().click();
  await page.getByRole('option', { name: option }).first().click();
}

async function next(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Next', exact: true }).click();
}

/** Placement and Capacity steps; leaves the wizard on the Storage step. */
async function fillWizard(
  page: Page,
  baseUrl: string,
  o: { name: string; zone: string; type: string; count?: number },
): Promise<void> {
  await page.goto(`${baseUrl}/create-cluster`);
  await page.locator('[data-testid="wizard-name"] input').fill(o.name);
  await choose(page, 'wizard-zone', o.zone);
  await next(page);
  await choose(page, 'wizard-instance-type', new RegExp(`^${o.type.replace(/\./g, '\\.')}`));
  if (o.count) await page.locator('[data-testid="wizard-count"] input').fill(String(o.count));
  await next(page);
}

async function waitForOperationStatus(page: Page, status: string, timeout = 120_000): Promise<void> {
  await page.locator(`[data-testid="operation-status"][data-status="${status}"]`).waitFor({ timeout });
}

describe('web UI in chromium against the real server on the sandbox', () => {
  let sb: TestSandbox;
  let server: TestServer;
  let browser: TestBrowser;
  let page: Page;
  before(async () => {
    ({ sb, server } = await startSandboxAndServer(SPEED));
    browser = await launchBrowser();
    page = await browser.newPage();
    page.setDefaultTimeout(30_000);
  });
  after(() => stopAll(browser, server, sb));

  it('shows the clusters page, the sandbox badge and live updates', async () => {
    await page.goto(server.url);
    await page.waitForURL(/\/clusters$/);
    await page.locator('[data-testid="clusters-table"]').waitFor();
    assert.equal(await page.locator('[data-testid="cloud-mode"]').getAttribute('data-cloud'), 'sandbox');
    await page.locator('[data-testid="live-status"]', { hasText: 'Live updates on' }).waitFor();
    await screenshot(page, 'web-01-clusters-empty');
  });

  it('validates each wizard step with the backend schema before moving on', async () => {
    await page.goto(`${server.url}/create-cluster`);
    await page.locator('[data-testid="wizard-name"] input').fill('Bad_Name');
    await next(page);
    const field = page
      .locator('[data-testid="wizard-name"]')
      .locator('xpath=ancestor::*[.//*[contains(text(),"lower-case")]][1]');
    assert.match(await field.innerText(), /must start with a lower-case letter/i);
    assert.equal(await page.locator('[data-testid="wizard-zone"]').isVisible(), true, 'still on the Placement step');
    await screenshot(page, 'web-02-wizard-errors');
  });

  it('shows every preflight problem and keeps Create disabled (p5 quota is 0 on a new account)', async () => {
    const offered = await server.api('GET', `/api/v1/instance-types?availabilityZone=${ZONE}`);
    const p5 = offered.body.instanceTypes.find((t: { instanceType: string }) => t.instanceType === 'ml.p5.48xlarge');
    const zone = p5
      ? ZONE
      : (await server.api('GET', '/api/v1/instance-types')).body.instanceTypes.find(
          (t: any) => t.instanceType === 'ml.p5.48xlarge',
        ).availabilityZones[0];
    await fillWizard(page, server.url, { name: 'too-big', zone, type: 'ml.p5.48xlarge', count: 2 });
    await next(page);
    await page.locator('[data-testid="preflight-problem"]').first().waitFor();
    const problems = await page.locator('[data-testid="preflight-problem"]').allInnerTexts();
    assert.ok(
      problems.some((p) => /quota/i.test(p)),
      problems.join('\n'),
    );
    assert.equal(await page.locator('[data-testid="wizard-submit"]').isDisabled(), true);
    await screenshot(page, 'web-03-preflight-problems');
  });

  it('offers the Kubernetes versions both EKS and HyperPod support, read from the server, and reviews the one chosen', async () => {
    await page.goto(`${server.url}/create-cluster`);
    await page.locator('[data-testid="wizard-name"] input').fill('kube-pick');
    await choose(page, 'wizard-zone', ZONE);
    const select = page.locator('[data-testid="wizard-kubernetes-version"]');
    await select.getByText('Default (1.34)').waitFor();
    await select.locator('button').first().click();
    const options = await page.getByRole('option').allInnerTexts();
    assert.ok(
      options.some((o) => o.startsWith('1.33')),
      options.join(' | '),
    );
    assert.ok(
      !options.some((o) => o.startsWith('1.35')),
      `1.35 is EKS's default but HyperPod does not support it: ${options.join(' | ')}`,
    );
    await page
      .getByRole('option', { name: /^1\.33/ })
      .first()
      .click();
    await next(page);
    await choose(page, 'wizard-instance-type', /^ml\.g5\.8xlarge/);
    await next(page);
    await next(page);
    await page.locator('[data-testid="preflight-ok"]').waitFor();
    assert.match(await page.locator('[data-testid="create-cluster-wizard"]').innerText(), /Kubernetes version\s+1\.33/);
    await screenshot(page, 'web-03b-kubernetes-version');
  });

  let createdOperation = '';
  it('creates a cluster through the wizard and follows each phase live to success', async () => {
    await fillWizard(page, server.url, { name: 'web-demo', zone: ZONE, type: 'ml.g5.8xlarge' });
    await page.locator('[data-testid="wizard-s3"]').waitFor();
    await next(page);
    await page.locator('[data-testid="preflight-ok"]').waitFor();
    await screenshot(page, 'web-04-review');
    const posts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/api/v1/clusters'))
        posts.push(r.headers()['idempotency-key'] ?? '');
    });
    await page.locator('[data-testid="wizard-submit"]').dblclick();
    await page.waitForURL(/\/operations\//);
    createdOperation = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    assert.ok(
      posts.length >= 1 && posts.every((k) => k && k === posts[0]),
      `one Idempotency-Key per wizard session: ${posts.join(', ')}`,
    );
    for (const phase of [
      'network',
      'nat-ready',
      'iam',
      'eks',
      'eks-addons',
      'active-cluster',
      'dependencies',
      'hyperpod',
      'storage',
    ]) {
      await page.locator(`[data-testid="phase-row-${phase}"]`).waitFor();
    }
    await screenshot(page, 'web-05-operation-running');
    await waitForOperationStatus(page, 'succeeded');
    assert.ok((await page.locator('[data-testid="log-line"]').count()) > 0, 'log lines are shown');
    const statuses = await page
      .locator('[data-testid^="phase-row-"]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-status')));
    assert.ok(
      statuses.every((s) => s === 'succeeded' || s === 'skipped'),
      statuses.join(','),
    );
    await screenshot(page, 'web-06-operation-succeeded');
    const ops = await server.api('GET', '/api/v1/operations?kind=create-cluster');
    assert.equal(
      ops.body.operations.filter((o: any) => o.target.endsWith('/web-demo')).length,
      1,
      'a double click created one operation',
    );
  });

  it('retries a failed phase from the progress panel', async () => {
    const fault = await sb.admin('/_sandbox/faults', {
      method: 'POST',
      body: {
        type: 'create-failure',
        service: 'sagemaker',
        name: 'web-flaky',
        message: 'Instance ml.g5.8xlarge failed lifecycle configuration',
      },
    });
    assert.equal(fault.status, 201, JSON.stringify(fault.body));
    await fillWizard(page, server.url, { name: 'web-flaky', zone: ZONE, type: 'ml.g5.8xlarge' });
    await next(page);
    await page.locator('[data-testid="preflight-ok"]').waitFor();
    await page.locator('[data-testid="wizard-submit"]').click();
    await page.waitForURL(/\/operations\//);
    await waitForOperationStatus(page, 'failed');
    assert.match(
      await page.locator('[data-testid="phase-error-hyperpod"]').innerText(),
      /failed lifecycle configuration/,
    );
    await screenshot(page, 'web-07-operation-failed');
    await page.locator('[data-testid="phase-retry-hyperpod"]').click();
    await waitForOperationStatus(page, 'succeeded');
    await screenshot(page, 'web-08-operation-retried');
  });

  it('lists the clusters with status and the active badge; sets one active', async () => {
    await page.goto(`${server.url}/clusters`);
    await page.locator('[data-testid="cluster-link-web-demo"]').waitFor();
    await page.locator('[data-testid="cluster-status-web-demo"]', { hasText: 'InService' }).waitFor();
    await page.locator('[data-testid="cluster-active-web-flaky"]').waitFor();
    await page.getByRole('radio', { name: 'Select web-demo' }).check({ force: true });
    await page.locator('[data-testid="set-active"]').click();
    await page.locator('[data-testid="cluster-active-web-demo"]').waitFor();
    await screenshot(page, 'web-09-clusters');
  });

  it('shows the cluster detail and deletes it only after its name is typed', async () => {
    await page.locator('[data-testid="cluster-link-web-demo"]').click();
    await page.locator('[data-testid="cluster-detail-name"]', { hasText: 'web-demo' }).waitFor();
    await page.locator('[data-testid="cluster-tabs"] [role="tab"]', { hasText: 'Instance groups' }).click();
    await page.locator('[data-testid="instance-groups-table"]').getByText('ml.g5.8xlarge').first().waitFor();
    await screenshot(page, 'web-10-cluster-detail');
    await page.locator('[data-testid="detail-delete"]').click();
    await page.locator('[data-testid="delete-confirm-input"] input').fill('web-dem');
    assert.equal(await page.locator('[data-testid="delete-confirm"]').isDisabled(), true);
    await page.locator('[data-testid="delete-confirm-input"] input').fill('web-demo');
    await page.locator('[data-testid="delete-confirm"]').click();
    await page.waitForURL(/\/operations\//);
    assert.equal(await page.locator('[data-testid="operation-title"]').innerText(), 'Delete cluster');
    await waitForOperationStatus(page, 'succeeded');
    await screenshot(page, 'web-11-deleted');
  });

  it('lists the operations', async () => {
    await page.goto(`${server.url}/operations`);
    await page.locator(`[data-testid="operation-link-${createdOperation}"]`).waitFor();
    await screenshot(page, 'web-12-operations');
  });

  it('logged no errors in the browser', () => {
    assert.deepEqual(browser.errors, []);
  });
});
