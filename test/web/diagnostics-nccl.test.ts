import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { launchBrowser, screenshot, type TestBrowser } from '../helpers/browser.js';
import { createGpuCluster, jobWithNcclTimeout } from '../helpers/nccl-job.js';
import type { TestSandbox } from '../helpers/sandbox.js';
import { startSandboxAndServer, stopAll, type TestServer } from '../helpers/server.js';

/** The Diagnose button on a training job's detail: a staged NCCL timeout is named there, and nothing is changed. */
describe('the Diagnose action on a training job in the web UI (chromium, sandbox)', () => {
  let sb: TestSandbox;
  let server: TestServer;
  let browser: TestBrowser;
  let page: Page;

  before(async () => {
    ({ sb, server } = await startSandboxAndServer(600));
    await createGpuCluster(server, 'ui-nccl');
    await jobWithNcclTimeout(sb, server, 'ui-nccl', 'allreduce');
    browser = await launchBrowser();
    page = await browser.newPage();
    page.setDefaultTimeout(30_000);
  });
  after(() => stopAll(browser, server, sb));

  it('names the NCCL timeout with its log line and suggests reads, running nothing', async () => {
    await page.goto(`${server.url}/clusters/ui-nccl/jobs/default/allreduce`);
    await page.locator('[data-testid="training-job-detail"]').waitFor();
    const seq = (await sb.calls()).at(-1)?.seq ?? 0;
    await page.locator('[data-testid="diagnose-nccl"]').click();
    const finding = page.locator('[data-testid="diagnosis-finding"][data-code="nccl-timeout"]');
    await finding.waitFor();
    assert.match(await finding.innerText(), /Watchdog caught collective operation timeout/);
    await page.locator('[data-testid="diagnosis-suggestion"]', { hasText: 'get_job_logs' }).first().waitFor();
    await screenshot(page, 'diagnostics-nccl');
    const mutating = await sb.calls({ mutating: true, after: seq });
    assert.deepEqual(
      mutating.map((c) => `${c.service} ${c.operation}`),
      [],
    );
  });
});
