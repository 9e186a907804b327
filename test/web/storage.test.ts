import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { Page } from 'playwright-core';
import { launchBrowser, screenshot, type TestBrowser } from '../helpers/browser.js';
import type { TestSandbox } from '../helpers/sandbox.js';
import { startSandboxAndServer, stopAll, type TestServer } from '../helpers/server.js';

/**
 * The cluster's Storage tab in a browser: the shared bucket create-cluster made is listed Bound; a
 * storage is added through the modal (an existing bucket, one prefix of it); its contents browse
 * folder by folder and page by page with sizes and dates; it is removed through the confirmation.
 */
describe('the Storage tab in the web UI (chromium, real server on the sandbox)', () => {
  let sb: TestSandbox;
  let server: TestServer;
  let browser: TestBrowser;
  let page: Page;
  before(async () => {
    ({ sb, server } = await startSandboxAndServer(600));
    const created = await server.api('POST', '/api/v1/clusters', {
      name: 'ui-store',
      availabilityZone: 'us-west-2b',
      instanceType: 'ml.c5.xlarge',
      instanceCount: 1,
    });
    assert.equal(created.status, 202, JSON.stringify(created.body));
    assert.equal((await server.waitForOperation(created.body.operation.id)).status, 'succeeded');
    await sb.aws([
      's3api',
      'create-bucket',
      '--bucket',
      'ui-data',
      '--create-bucket-configuration',
      'LocationConstraint=us-west-2',
    ]);
    const s3 = new S3Client({});
    for (let i = 0; i < 60; i++)
      await s3.send(
        new PutObjectCommand({
          Bucket: 'ui-data',
          Key: `models/llama/part-${String(i).padStart(3, '0')}.bin`,
          Body: 'x'.repeat(2048),
        }),
      );
    await s3.send(new PutObjectCommand({ Bucket: 'ui-data', Key: 'models/README.md', Body: 'hello' }));
    browser = await launchBrowser({ viewport: { width: 1440, height: 900 } });
    page = await browser.newPage();
    page.setDefaultTimeout(30_000);
  });
  after(() => stopAll(browser, server, sb));

  const openTab = async () => {
    await page.goto(`${server.url}/clusters/ui-store/storage`);
    await page.locator('[data-testid="storage-row-default-shared-s3"]').waitFor();
  };
  const waitForSuccess = async () => {
    await page.waitForURL(/\/operations\//);
    await page.locator('[data-testid="operation-status"][data-status="succeeded"]').waitFor({ timeout: 120_000 });
  };

  it('shows the Storage tab with the shared bucket Bound', async () => {
    await page.goto(`${server.url}/clusters/ui-store`);
    await page.locator('[data-testid="cluster-tabs"] [role="tab"]', { hasText: 'Storage' }).click();
    await page.waitForURL(/\/clusters\/ui-store\/storage/);
    await page.locator('[data-testid="storage-phase-default-shared-s3"][data-phase="Bound"]').waitFor();
    await screenshot(page, 'storage-01-tab');
  });

  it('adds an existing bucket with a prefix through the modal', async () => {
    await openTab();
    await page.locator('[data-testid="storage-add"]').click();
    await page.locator('[data-testid="storage-name"] input').fill('models');
    await page.locator('[data-testid="storage-bucket"] input').fill('ui-data');
    await page.locator('[data-testid="storage-prefix"] input').fill('/models');
    await page.locator('[data-testid="storage-prefix"]', { hasText: 'must not start with /' }).waitFor();
    assert.equal(
      await page.locator('[data-testid="storage-add-submit"]').isDisabled(),
      true,
      'the schema refuses a leading slash before the server is asked',
    );
    await page.locator('[data-testid="storage-prefix"] input').fill('models');
    await screenshot(page, 'storage-02-add-modal');
    await page.locator('[data-testid="storage-add-submit"]').click();
    await waitForSuccess();
    await openTab();
    await page.locator('[data-testid="storage-phase-default-models"][data-phase="Bound"]').waitFor();
    assert.match(await page.locator('[data-testid="storage-table"]').innerText(), /s3:\/\/ui-data\/models\//);
  });

  it('browses the storage: folders, objects with sizes and dates, page by page', async () => {
    await page.locator('[data-testid="storage-browse-default-models"]').click();
    await page.waitForURL(/\/clusters\/ui-store\/storage\/models/);
    const browserView = page.locator('[data-testid="storage-browser"]');
    await browserView.locator('[data-testid="storage-folder-llama/"]').waitFor();
    assert.match(await browserView.innerText(), /README\.md\s+5 B/);
    await browserView.locator('[data-testid="storage-folder-llama/"]').click();
    await page.locator('[data-testid="storage-browser"][data-path="llama/"]').waitFor();
    await browserView.locator('[data-testid="storage-object"]', { hasText: 'part-000.bin' }).waitFor();
    assert.equal(await browserView.locator('[data-testid="storage-object"]').count(), 50, 'the first page holds 50');
    assert.equal(await browserView.locator('[data-testid="storage-object-size"]').first().innerText(), '2.0 KiB');
    await screenshot(page, 'storage-03-browse-page-1');
    await browserView.getByRole('button', { name: 'Next page' }).click();
    await browserView.locator('[data-testid="storage-object"]', { hasText: 'part-059.bin' }).waitFor();
    assert.equal(
      await browserView.locator('[data-testid="storage-object"]').count(),
      10,
      'the second page holds the other 10',
    );
    await browserView.getByRole('button', { name: 'Previous page' }).click();
    await browserView.locator('[data-testid="storage-object"]', { hasText: 'part-000.bin' }).waitFor();
    await screenshot(page, 'storage-04-browse-page-1-again');
  });

  it('removes the storage after the confirmation, keeping the bucket', async () => {
    await openTab();
    await page.locator('[data-testid="storage-remove-default-models"]').click();
    await page.locator('[data-testid="storage-remove-modal"]').waitFor();
    assert.match(
      await page.locator('[data-testid="storage-remove-modal"]').innerText(),
      /ui-data\/models\/ and its data are kept/,
    );
    await page.locator('[data-testid="storage-remove-submit"]').click();
    await waitForSuccess();
    await openTab();
    assert.equal(await page.locator('[data-testid="storage-row-default-models"]').count(), 0);
    assert.equal((await sb.aws(['s3api', 'head-bucket', '--bucket', 'ui-data'], { allowFailure: true })).code, 0);
    assert.deepEqual(browser.errors, []);
  });
});
