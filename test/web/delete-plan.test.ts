import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { launchBrowser, screenshot, type TestBrowser } from '../helpers/browser.js';
import { taggedNames } from '../helpers/inventory.js';
import type { TestSandbox } from '../helpers/sandbox.js';
import { startSandboxAndServer, stopAll, type TestServer } from '../helpers/server.js';

const CLUSTER = 'web-del';

/**
 * What a delete keeps, in the browser: the storage tab lists storages removed keeping their data
 * (Forget releases one), and the delete dialog names what goes and what stays before the user types
 * the cluster's name; the delete then leaves exactly what the dialog said it keeps.
 */
describe("kept storage and the delete dialog's plan in chromium", () => {
  let sb: TestSandbox;
  let server: TestServer;
  let browser: TestBrowser;
  let page: Page;
  let sharedBucket: string;
  const buckets = new Map<string, string>();

  const done = async (r: { status: number; body: any }) => {
    assert.equal(r.status, 202, JSON.stringify(r.body));
    assert.equal((await server.waitForOperation(r.body.operation.id)).status, 'succeeded');
  };

  before(async () => {
    ({ sb, server } = await startSandboxAndServer(600));
    await done(
      await server.api('POST', '/api/v1/clusters', {
        name: CLUSTER,
        availabilityZone: 'us-west-2b',
        instanceType: 'ml.c5.xlarge',
        instanceCount: 1,
      }),
    );
    sharedBucket = (await server.api('GET', `/api/v1/clusters/${CLUSTER}`)).body.storage.s3Bucket;
    for (const name of ['keepme', 'forgetme']) {
      await done(
        await server.api('POST', `/api/v1/clusters/${CLUSTER}/storage`, { kind: 's3', name, createBucket: true }),
      );
      const storages = (await server.api('GET', `/api/v1/clusters/${CLUSTER}/storage`)).body.storages as any[];
      buckets.set(name, storages.find((s) => s.name === name).bucket);
      await done(await server.api('DELETE', `/api/v1/clusters/${CLUSTER}/storage/${name}`));
    }
    browser = await launchBrowser({ viewport: { width: 1440, height: 900 } });
    page = await browser.newPage();
    page.setDefaultTimeout(30_000);
  });
  after(() => stopAll(browser, server, sb));

  it('lists storages removed keeping their data; Forget releases one', async () => {
    await page.goto(`${server.url}/clusters/${CLUSTER}/storage`);
    const table = page.locator('[data-testid="kept-storage-table"]');
    await table.getByText(buckets.get('keepme')!).waitFor();
    await table.getByText(buckets.get('forgetme')!).waitFor();
    assert.equal(await table.getByText('kept, not mounted').count(), 2);
    await screenshot(page, 'delete-plan-01-kept-storage');
    await page.locator('[data-testid="kept-forget-default-forgetme"]').click();
    await page.locator('[data-testid="kept-forget-confirm"]').click();
    await page.locator('[data-testid="kept-forgotten"]', { hasText: "no longer InstantStart's" }).waitFor();
    await page.locator('[data-testid="kept-row-default-forgetme"]').waitFor({ state: 'detached' });
    const tags = (
      await sb.aws(['s3api', 'get-bucket-tagging', '--bucket', buckets.get('forgetme')!], { allowFailure: true })
    ).stdout;
    assert.doesNotMatch(tags, /instantstart\.io/, 'released: none of our tags left');
  });

  it('the delete dialog names what it deletes and what it keeps, and the delete keeps exactly that', async () => {
    await page.goto(`${server.url}/clusters/${CLUSTER}`);
    await page.locator('[data-testid="detail-delete"]').click();
    const deletes = page.locator('[data-testid="delete-plan-deletes"]');
    const keeps = page.locator('[data-testid="delete-plan-keeps"]');
    await deletes.getByText(`${CLUSTER}-eks`, { exact: true }).waitFor();
    await deletes.getByText(sharedBucket, { exact: true }).waitFor();
    await keeps.getByText(buckets.get('keepme')!, { exact: true }).waitFor();
    await keeps.getByText('kept when storage default/keepme was removed keeping its data').waitFor();
    assert.equal(await deletes.getByText(buckets.get('forgetme')!).count(), 0, "released: no longer the cluster's");
    await screenshot(page, 'delete-plan-02-dialog');
    await page.locator('[data-testid="delete-keep-storage"] input').check({ force: true });
    await keeps.getByText(sharedBucket, { exact: true }).waitFor();
    await page.locator('[data-testid="delete-keep-storage"] input').uncheck({ force: true });
    await deletes.getByText(sharedBucket, { exact: true }).waitFor();
    await page.locator('[data-testid="delete-confirm-input"] input').fill(CLUSTER);
    await page.locator('[data-testid="delete-confirm"]').click();
    await page.waitForURL(/\/operations\//);
    await page.locator('[data-testid="operation-status"][data-status="succeeded"]').waitFor({ timeout: 120_000 });
    assert.deepEqual(taggedNames(await sb.inventory(), CLUSTER), [`s3/buckets ${buckets.get('keepme')}`]);
    assert.equal(
      (await sb.aws(['s3api', 'head-bucket', '--bucket', buckets.get('forgetme')!])).code,
      0,
      "the forgotten bucket is the user's and stays",
    );
  });

  it('logged no errors in the browser', () => {
    assert.deepEqual(browser.errors, []);
  });
});
