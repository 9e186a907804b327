import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { launchBrowser, screenshot, type TestBrowser } from '../helpers/browser.js';
import { kubeAccess } from '../helpers/kube.js';
import type { TestSandbox } from '../helpers/sandbox.js';
import { startSandboxAndServer, stopAll, type TestServer } from '../helpers/server.js';

/**
 * Issue 16's Advanced Features panel in chromium: each feature's state is read from the cluster; a
 * flipped toggle is reviewed as the server's plan before anything happens, and Apply sends that
 * key only; a removal another feature still needs is refused in the plan, with Apply disabled.
 */
describe('the Advanced Features panel (chromium, real server on the sandbox)', () => {
  let sb: TestSandbox;
  let server: TestServer;
  let browser: TestBrowser;
  let page: Page;
  const sent: Array<{ method: string; url: string; body: unknown }> = [];
  before(async () => {
    ({ sb, server } = await startSandboxAndServer(600));
    const created = await server.api('POST', '/api/v1/clusters', {
      name: 'ui-features',
      availabilityZone: 'us-west-2b',
      instanceType: 'ml.c5.xlarge',
      instanceCount: 1,
      storage: { s3: false },
    });
    assert.equal(created.status, 202, JSON.stringify(created.body));
    assert.equal((await server.waitForOperation(created.body.operation.id)).status, 'succeeded');
    browser = await launchBrowser();
    page = await browser.newPage();
    page.setDefaultTimeout(30_000);
    page.on('request', (r) => {
      if (r.url().includes('/features') && r.method() !== 'GET')
        sent.push({ method: r.method(), url: r.url(), body: r.postData() ? JSON.parse(r.postData()!) : undefined });
    });
  });
  after(() => stopAll(browser, server, sb));

  const state = (id: string) => page.locator(`[data-testid="feature-state-${id}"]`);

  it('shows every feature with its state read from the cluster', async () => {
    await page.goto(`${server.url}/clusters/ui-features/features`);
    await state('training-operator').and(page.locator('[data-state="on"]')).waitFor();
    assert.equal(await state('cert-manager').getAttribute('data-state'), 'on', 'create turned cert-manager on');
    assert.equal(await state('kuberay-operator').getAttribute('data-state'), 'off');
    assert.equal(await page.locator('[data-testid="features-review"]').isDisabled(), true, 'nothing changed yet');
    await screenshot(page, 'features-01-panel');
  });

  it('refuses, in the plan, to turn off what another feature needs; Apply stays disabled and nothing is sent', async () => {
    await page.locator('[data-testid="feature-toggle-cert-manager"] input').click({ force: true });
    await page.locator('[data-testid="features-review"]').click();
    await page.locator('[data-testid="features-plan-refused"]', { hasText: 'HyperPod training operator' }).waitFor();
    assert.equal(await page.locator('[data-testid="features-apply"]').isDisabled(), true);
    await screenshot(page, 'features-02-refused');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.locator('[data-testid="features-discard"]').click();
    assert.deepEqual(
      sent.map((s) => s.method),
      ['POST'],
      'only the plan was asked',
    );
    assert.deepEqual(sent[0]!.body, { 'cert-manager': false });
  });

  it('turns the KubeRay operator on: the plan is shown first, Apply sends that one key, and its state follows to On', async () => {
    sent.length = 0;
    await page.locator('[data-testid="feature-toggle-kuberay-operator"] input').click({ force: true });
    await page.locator('[data-testid="features-review"]').click();
    await page.locator('[data-testid="plan-step-kuberay-operator"][data-what="install"]').waitFor();
    await screenshot(page, 'features-03-plan');
    await page.locator('[data-testid="features-apply"]').click();
    await page.locator('[data-testid="features-plan-modal"]').waitFor({ state: 'detached' });
    await state('kuberay-operator').and(page.locator('[data-state="on"]')).waitFor({ timeout: 120_000 });
    await screenshot(page, 'features-04-on');
    const patch = sent.filter((s) => s.method === 'PATCH');
    assert.equal(patch.length, 1);
    assert.deepEqual(patch[0]!.body, { 'kuberay-operator': true }, 'only the touched key is sent');
    assert.deepEqual(sent.find((s) => s.method === 'POST')!.body, { 'kuberay-operator': true });
    assert.deepEqual(browser.errors, []);
  });

  it('names a KubeRay someone else installed as the provider, and refuses to turn it off in the plan', async () => {
    // The operator now looks Helm-installed (its labels, as the chart writes them): InstantStart must leave it in
    // charge.
    const kube = await kubeAccess(sb, 'ui-features-eks');
    await kube.kubectl([
      'label',
      'deployment',
      'kuberay-operator',
      '-n',
      'kuberay-system',
      'app.kubernetes.io/managed-by=Helm',
      'app.kubernetes.io/instance=ray',
      '--overwrite',
    ]);
    sent.length = 0;
    // The server keeps what it read of a cluster's features for 3 s (ReadCache): a change made behind its back shows on
    // the first reload after that — now that kubectl answers in a fraction of a second, the first reload may be early.
    const provided = page.locator('[data-testid="feature-provided-by-kuberay-operator"]');
    const deadline = Date.now() + 30_000;
    for (;;) {
      await page.reload();
      try {
        await provided.waitFor({ timeout: 5_000 });
        break;
      } catch (err) {
        if (Date.now() > deadline) throw err;
      }
    }
    assert.equal(
      await provided.textContent(),
      'Provided by an existing KubeRay v1.6.2 (operator Deployment kuberay-system/kuberay-operator, Helm release ray); InstantStart leaves it in charge.',
    );
    await page.locator('[data-testid="feature-toggle-kuberay-operator"] input').click({ force: true });
    await page.locator('[data-testid="features-review"]').click();
    await page
      .locator('[data-testid="features-plan-refused"]', { hasText: 'which InstantStart did not install' })
      .waitFor();
    assert.equal(await page.locator('[data-testid="features-apply"]').isDisabled(), true);
    await screenshot(page, 'features-05-provided-by');
    assert.deepEqual(
      sent.map((s) => s.method),
      ['POST'],
      'only the plan was asked',
    );
    assert.deepEqual(browser.errors, []);
  });
});
