import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { SANDBOX_HF_TOKEN } from '../../sandbox/services/huggingface/access.js';
import { launchBrowser, screenshot, type TestBrowser } from '../helpers/browser.js';
import type { TestSandbox } from '../helpers/sandbox.js';
import { startSandboxAndServer, stopAll, type TestServer } from '../helpers/server.js';

const CLUSTER = 'ui-models';

/**
 * The Model downloads tab (chromium, real server on the sandbox): start a download from the form,
 * see it progress to Downloaded and the files that landed; a gated model without a token is refused
 * under the token field (a password field), and with the granted token it downloads.
 */
describe('the Model downloads tab: start a download and see it finish (chromium, real server on the sandbox)', () => {
  let sb: TestSandbox;
  let server: TestServer;
  let browser: TestBrowser;
  let page: Page;
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
    browser = await launchBrowser({ viewport: { width: 1440, height: 900 } });
    page = await browser.newPage();
    page.setDefaultTimeout(30_000);
  });
  after(() => stopAll(browser, server, sb));

  const openForm = async (modelId: string) => {
    await page.locator('[data-testid="model-download-start"]').click();
    await page.locator('[data-testid="model-download-modal"]').waitFor();
    await page.locator('[data-testid="model-download-model"] input').fill(modelId);
    await page.locator('[data-testid="model-download-storage"] button').first().waitFor();
    assert.match(
      await page.locator('[data-testid="model-download-storage"]').innerText(),
      /shared-s3/,
      "the cluster's S3 storage is chosen",
    );
  };

  it('starts a download from the form and shows it finished, with the files that landed', async () => {
    await page.goto(`${server.url}/clusters/${CLUSTER}/models`);
    await page.locator('[data-testid="model-downloads-panel"]').waitFor();
    await openForm('openai-community/gpt2');
    await page.locator('[data-testid="model-download-submit"]').click();
    await page.locator('[data-testid="model-download-modal"]').waitFor({ state: 'detached' });
    await page.locator('[data-testid="model-download-status"][data-status="succeeded"]').waitFor({ timeout: 60_000 });
    const progress = page.locator('[data-testid="model-download-progress"]').first();
    assert.equal(await progress.getAttribute('data-files'), '8');
    assert.equal(await progress.getAttribute('data-total-files'), '8');
    const files = page.locator('[data-testid="model-download-files"]');
    await files.waitFor();
    const text = await files.innerText();
    for (const f of ['config.json', 'model.safetensors', 'tokenizer.json'])
      assert.ok(text.includes(f), `${f} is listed as landed: ${text}`);
    assert.match(text, /s3:\/\/sagemaker-ui-models-[^/]+\/models\/openai-community\/gpt2\/main\//);
    await screenshot(page, 'model-downloads-00-finished');
  });

  it('refuses a gated model without a token under the token field, then downloads it with the token', async () => {
    await openForm('meta-llama/Llama-3.2-1B');
    assert.equal(await page.locator('[data-testid="model-download-token"] input').getAttribute('type'), 'password');
    await page.locator('[data-testid="model-download-submit"]').click();
    await page.locator('[data-testid="model-download-token"]', { hasText: 'is gated' }).waitFor();
    assert.equal(
      await page.locator('[data-testid="model-download-error"]').count(),
      0,
      'a refusal of one field shows under that field only',
    );
    await screenshot(page, 'model-downloads-01-gated');
    const requests: string[] = [];
    page.on('request', (r) => r.method() === 'POST' && requests.push(r.postData() ?? ''));
    await page.locator('[data-testid="model-download-token"] input').fill(SANDBOX_HF_TOKEN);
    await page.locator('[data-testid="model-download-submit"]').click();
    await page.locator('[data-testid="model-download-modal"]').waitFor({ state: 'detached' });
    assert.equal(requests.length, 1, 'one request starts the download');
    await page.locator('[data-testid="model-download-detail"]', { hasText: 'meta-llama/Llama-3.2-1B' }).waitFor();
    await page
      .locator('[data-testid="model-download-files"]', { hasText: 'model.safetensors' })
      .waitFor({ timeout: 60_000 });
    assert.ok(!(await page.content()).includes(SANDBOX_HF_TOKEN), 'the page never shows the token');
  });
});
