import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import pino from 'pino';
import { startServer, type RunningServer } from '../../src/cli/serve.js';
import { launchBrowser, screenshot, type TestBrowser } from '../helpers/browser.js';
import { withoutCredentials, writeSandboxCredentials } from '../helpers/credentials.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

/**
 * The UI of `--cloud aws` without usable credentials: the banner says what is wrong and what to do,
 * and "Check again" connects once credentials exist — no restart. "AWS" is the test sandbox.
 */
describe('web UI: --cloud aws without credentials', () => {
  let sb: TestSandbox;
  let home: string;
  let credentialsFile: string;
  let server: RunningServer;
  let browser: TestBrowser;
  let page: Page;
  before(async () => {
    sb = await startTestSandbox({ speed: 300 });
    home = mkdtempSync(join(tmpdir(), 'instantstart-web-nocreds-'));
    const setup = withoutCredentials(process.env, home);
    credentialsFile = setup.credentialsFile;
    for (const name of Object.keys(process.env)) if (!(name in setup.env)) delete process.env[name];
    Object.assign(process.env, setup.env);
    server = await startServer({
      cloud: 'aws',
      host: '127.0.0.1',
      port: 0,
      dataDir: join(home, 'data'),
      region: 'us-west-2',
      pollTimeScale: 1 / 300,
      logger: pino({ level: 'silent' }),
    });
    browser = await launchBrowser();
    page = await browser.newPage();
    page.setDefaultTimeout(30_000);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await sb?.dispose();
    rmSync(home, { recursive: true, force: true });
  });

  it('shows the problem and what to do in the banner', async () => {
    await page.goto(server.url);
    const problem = page.locator('[data-testid="cloud-access-problem"]');
    await problem.waitFor();
    assert.equal(await problem.getAttribute('data-code'), 'NoCredentials');
    const text = await page.locator('[data-testid="notifications"]').innerText();
    assert.match(text, /Not connected to AWS: No AWS credentials/);
    assert.match(text, /Could not load credentials from any providers/);
    for (const remedy of ['AWS_PROFILE=', 'aws sso login', 'AWS_ACCESS_KEY_ID', 'instance profile'])
      assert.ok(text.includes(remedy), `banner mentions ${remedy}`);
    assert.equal(await page.locator('[data-testid="cloud-mode"]').getAttribute('data-ready'), 'false');
    await page.locator('[data-testid="clusters-error"]').waitFor(); // the 503 shows where the clusters would be
    await screenshot(page, 'web-credentials-missing');
  });

  it('connects on "Check again" once credentials exist, and the clusters load', async () => {
    writeSandboxCredentials(credentialsFile);
    await page
      .locator('[data-testid="cloud-access-check"] button, button[data-testid="cloud-access-check"]')
      .first()
      .click();
    await page.locator('[data-testid="notifications"]', { hasText: 'AWS account 000000000000' }).waitFor();
    await page.locator('[data-testid="cloud-access-problem"]').waitFor({ state: 'detached' }); // after the Flashbar's exit animation
    await page.locator('[data-testid="clusters-table"]').waitFor();
    assert.equal(await page.locator('[data-testid="clusters-error"]').count(), 0, 'the 503 is gone without a reload');
    assert.equal(await page.locator('[data-testid="cloud-mode"]').getAttribute('data-ready'), 'true');
    await screenshot(page, 'web-credentials-connected');
    assert.deepEqual(browser.errors, []);
  });
});
