import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { launchBrowser, screenshot, type TestBrowser } from '../helpers/browser.js';
import type { TestSandbox } from '../helpers/sandbox.js';
import { startSandboxAndServer, stopAll, type TestServer } from '../helpers/server.js';
import { ensureQuota } from '../sandbox/sagemaker-fixtures.js';

const CLUSTER = 'ui-infer';
/** One NVIDIA A10G per node: a replica of one GPU per node; three nodes for two replicas, then a pool and a managed endpoint. */
const GROUP_TYPE = 'ml.g5.8xlarge';
const ENDPOINT = 'ui-qwen';

/**
 * The Endpoints tab (chromium, real server on the sandbox): a vLLM container endpoint deployed from the form (a refusal
 * of one field shown under it first) becomes Ready, answers a chat streamed token by token through the service proxy
 * with the pod that served it, scales to two replicas, and is deleted after a confirmation naming its objects.
 */
describe('the Endpoints tab: deploy, chat with and scale a model (chromium, real server on the sandbox)', () => {
  let sb: TestSandbox;
  let server: TestServer;
  let browser: TestBrowser;
  let page: Page;
  let group = '';

  before(async () => {
    ({ sb, server } = await startSandboxAndServer(600));
    await ensureQuota(sb, `${GROUP_TYPE} for cluster usage`, 3);
    const created = await server.api('POST', '/api/v1/clusters', {
      name: CLUSTER,
      availabilityZone: 'us-west-2b',
      instanceType: GROUP_TYPE,
      instanceCount: 3,
      storage: { s3: true },
    });
    assert.equal(created.status, 202, JSON.stringify(created.body));
    assert.equal((await server.waitForOperation(created.body.operation.id)).status, 'succeeded');
    group = (await server.api('GET', `/api/v1/clusters/${CLUSTER}/instance-groups`)).body.instanceGroups[0].name;
    browser = await launchBrowser({ viewport: { width: 1440, height: 1000 } });
    page = await browser.newPage();
    page.setDefaultTimeout(30_000);
  });
  after(() => stopAll(browser, server, sb));

  const select = async (testId: string, label: string) => {
    await page.locator(`[data-testid="${testId}"] button`).first().click();
    await page.locator(`[data-testid="${testId}"] [role="option"]`, { hasText: label }).first().click();
  };
  const field = (testId: string) => page.locator(`[data-testid="${testId}"] input`);

  it('shows how to deploy on an empty cluster, and that managed endpoints wait for the inference operator', async () => {
    await page.goto(`${server.url}/clusters/${CLUSTER}/endpoints`);
    await page.locator('[data-testid="inference-empty"]', { hasText: 'No endpoints yet' }).waitFor();
    await page.locator('[data-testid="inference-deploy-managed-open"]').first().click();
    await page
      .locator('[data-testid="inference-operator-off"]', { hasText: 'turn it on in the Features tab' })
      .waitFor();
    assert.equal(await page.locator('[data-testid="inference-managed-deploy"]').isDisabled(), true);
    // The instance types offered are the cluster's, read from its groups.
    await page.locator('[data-testid="inference-managed-types"] button').first().click();
    await page.locator('[data-testid="inference-managed-types"] [role="option"]', { hasText: GROUP_TYPE }).waitFor();
    await page.keyboard.press('Escape');
    await screenshot(page, 'inference-01-managed-operator-off');
    await page.getByRole('button', { name: 'Cancel' }).click();
  });

  it('deploys a vLLM container from the form: too many GPUs shows under its field, then the endpoint becomes Ready', async () => {
    await page.locator('[data-testid="inference-deploy-container-open"]').first().click();
    await page.locator('[data-testid="inference-container-modal"]').waitFor();
    await field('inference-container-name').fill(ENDPOINT);
    await field('inference-container-model').fill('Qwen/Qwen3-0.6B');
    await select('inference-container-group', group);
    await field('inference-container-gpus').fill('2');
    await screenshot(page, 'inference-02-container-form');
    await page.locator('[data-testid="inference-container-deploy"]').click();
    await page.locator('[data-testid="inference-container-gpus"] [id*="error"]', { hasText: /GPU/ }).waitFor();
    assert.equal(
      await page.locator('[data-testid="inference-container-error"]').count(),
      0,
      'a refusal of one field shows under that field only',
    );
    await screenshot(page, 'inference-03-gpus-refused');
    const before = await server.api('GET', `/api/v1/clusters/${CLUSTER}/endpoints`);
    assert.deepEqual(before.body.endpoints, [], 'nothing was deployed');
    await field('inference-container-gpus').fill('1');
    await page.locator('[data-testid="inference-container-deploy"]').click();
    await page.locator('[data-testid="inference-container-modal"]').waitFor({ state: 'detached' });
    // The form opens the endpoint's page.
    await page.locator('[data-testid="inference-endpoint-detail"]', { hasText: ENDPOINT }).waitFor();
    await page
      .locator('[data-testid="inference-endpoint-detail"] [data-testid="inference-endpoint-state"][data-state="Ready"]')
      .waitFor({ timeout: 90_000 });
    assert.equal(await page.locator('[data-testid="inference-detail-replicas"]').innerText(), '1/1');
    const objects = await page.locator('[data-testid="inference-detail-objects"]').innerText();
    assert.match(objects, new RegExp(`Deployment ${ENDPOINT}\\b`));
    assert.match(objects, new RegExp(`Service ${ENDPOINT}\\b`));
    await page.locator('[data-testid="inference-pods"] tr', { hasText: 'Running' }).first().waitFor();
    // The logs panel follows live: it opened with the page, before the pod was there, and the model server's start-up
    // lines come in as it writes them, each with its pod.
    await page.locator('[data-testid="inference-logs-status"][data-state="following"]').waitFor();
    await page
      .locator('[data-testid="inference-log-lines"]', {
        hasText: new RegExp(`\\[${ENDPOINT}-[^\\]]+\\] INFO: +Application startup complete\\.`),
      })
      .waitFor({ timeout: 30_000 });
    await screenshot(page, 'inference-04-ready');
    // The table lists it Ready, 1/1, at its in-cluster address.
    await page.locator('[data-testid="inference-endpoint-detail"]').getByText('All endpoints').click();
    const row = page.locator('[data-testid="inference-endpoints"] tr', { hasText: ENDPOINT });
    await row.locator('[data-testid="inference-endpoint-state"][data-state="Ready"]').waitFor();
    assert.match(
      await row.innerText(),
      new RegExp(`Container[\\s\\S]*vLLM · Qwen/Qwen3-0.6B[\\s\\S]*1/1[\\s\\S]*${ENDPOINT}\\.default\\.svc`),
    );
    await screenshot(page, 'inference-05-table');
    await row.locator('[data-testid="inference-endpoint-link"]').click();
    await page.locator('[data-testid="inference-endpoint-detail"]').waitFor();
  });

  it('chats with the model: the answer is read from the event stream the server relays, with the time it took', async () => {
    await page.locator('[data-testid="inference-chat-input"] textarea').fill('Say hello in five words.');
    const streamed = page.waitForResponse((r) => r.url().endsWith(`/endpoints/default/${ENDPOINT}/invoke`));
    await page.locator('[data-testid="inference-chat-send"]').click();
    const res = await streamed;
    assert.equal(res.status(), 200);
    assert.match(
      res.headers()['content-type'] ?? '',
      /^text\/event-stream/,
      'the chat asks for the answer as a stream',
    );
    const answer = page.locator('[data-testid="inference-chat-assistant"]').last();
    await answer.locator('[data-testid="inference-chat-stats"]', { hasText: /in all/ }).waitFor();
    await page
      .locator('[data-testid="inference-chat-assistant"][data-streaming="true"]')
      .waitFor({ state: 'detached' });
    // The pod that answered, named by the stream's x-served-by header, shown before the times.
    const servedBy = res.headers()['x-served-by'];
    assert.match(servedBy ?? '', new RegExp(`^${ENDPOINT}-`), 'the stream names the pod that answered');
    assert.match(
      await answer.locator('[data-testid="inference-chat-stats"]').innerText(),
      new RegExp(`^Served by ${servedBy} · first token \\d+ ms · \\d+ ms in all`),
    );
    // The text the model streamed, chunk by chunk, as the server relayed it (the sandbox's text is deterministic).
    const events = (await res.text())
      .split('\n\n')
      .filter((e) => e.startsWith('data: {'))
      .map((e) => JSON.parse(e.slice(6)) as { choices: Array<{ delta?: { content?: string } }> });
    const sent = events.map((e) => e.choices[0]?.delta?.content ?? '').join('');
    assert.ok(sent.length > 0, 'the model answered');
    assert.equal(await answer.locator('[data-testid="inference-chat-text"]').innerText(), sent);
    // A second turn carries the first: the conversation goes on.
    await page.locator('[data-testid="inference-chat-input"] textarea').fill('And again.');
    await page.keyboard.press('Enter');
    await page
      .locator('[data-testid="inference-chat-assistant"]')
      .nth(1)
      .locator('[data-testid="inference-chat-stats"]')
      .waitFor();
    assert.equal(await page.locator('[data-testid="inference-chat-user"]').count(), 2);
    await screenshot(page, 'inference-06-chat');
  });

  it('scales the endpoint to two replicas, then deletes it after naming what goes', async () => {
    await field('inference-scale-replicas').fill('2');
    await page.locator('[data-testid="inference-scale-apply"]').click();
    await page.locator('[data-testid="inference-detail-replicas"]', { hasText: '2/2' }).waitFor({ timeout: 90_000 });
    await page.locator('[data-testid="inference-pods"] tr', { hasText: 'Running' }).nth(1).waitFor();
    // The new replica's start-up joins the followed logs with no reload: the panel notes its pod, then its lines.
    await page
      .locator('[data-testid="inference-log-lines"]', {
        hasText: new RegExp(
          `Application startup complete\\.[\\s\\S]*— ${ENDPOINT}-\\S+ started[\\s\\S]*Application startup complete\\.`,
        ),
      })
      .waitFor({ timeout: 30_000 });
    await screenshot(page, 'inference-07-scaled');
    const deployment = await server.api('GET', `/api/v1/clusters/${CLUSTER}/endpoints/default/${ENDPOINT}`);
    assert.deepEqual(deployment.body.replicas, { ready: 2, desired: 2 });

    await page.locator('[data-testid="inference-delete"]').click();
    const modal = page.locator('[data-testid="inference-delete-modal"]');
    await modal.waitFor();
    const named = await modal.locator('[data-testid="inference-delete-objects"]').innerText();
    assert.match(named, new RegExp(`Deployment ${ENDPOINT}\\b`));
    assert.match(named, new RegExp(`Service ${ENDPOINT}\\b`));
    await screenshot(page, 'inference-08-delete');
    await page.locator('[data-testid="inference-delete-confirm"]').click();
    await page.locator('[data-testid="inference-endpoints"]').waitFor();
    await page
      .locator('[data-testid="inference-endpoints"] tr', { hasText: ENDPOINT })
      .waitFor({ state: 'detached', timeout: 60_000 });
  });

  it('puts the SGLang router in front of an SGLang endpoint from its page', async () => {
    const deployed = await server.api('POST', `/api/v1/clusters/${CLUSTER}/endpoints/container`, {
      name: 'ui-sglang',
      engine: 'sglang',
      model: 'Qwen/Qwen3-0.6B',
      instanceGroup: group,
      gpus: 1,
    });
    assert.equal(deployed.status, 201, JSON.stringify(deployed.body));
    await page.goto(`${server.url}/clusters/${CLUSTER}/endpoints/default/ui-sglang`);
    await page.locator('[data-testid="inference-router-add"]').click();
    await page
      .locator('[data-testid="inference-endpoint-detail"]', { hasText: /Cache-aware · ready/ })
      .waitFor({ timeout: 60_000 });
    await page.locator('[data-testid="inference-router"]').waitFor({ state: 'detached' });
    const objects = await page.locator('[data-testid="inference-detail-objects"]').innerText();
    assert.match(objects, /Deployment ui-sglang-router\b/);
    assert.match(objects, /Service ui-sglang-router\b/);
    await screenshot(page, 'inference-09-router');
    const gone = await server.api('DELETE', `/api/v1/clusters/${CLUSTER}/endpoints/default/ui-sglang?confirm=true`);
    assert.equal(gone.status, 200, JSON.stringify(gone.body));
    await page.goto(`${server.url}/clusters/${CLUSTER}/endpoints`);
  });

  it("moves a model pool's warm worker to another endpoint from the assignment table", async () => {
    const pools = `/api/v1/clusters/${CLUSTER}/model-pools`;
    const created = await server.api('POST', pools, {
      name: 'warm',
      engine: 'vllm',
      model: 'Qwen/Qwen3-0.6B',
      instanceGroup: group,
      gpus: 1,
      workers: 2,
    });
    assert.ok(created.status < 300, JSON.stringify(created.body));
    for (const name of ['pool-a', 'pool-b']) {
      const deployed = await server.api('POST', `/api/v1/clusters/${CLUSTER}/endpoints/container`, {
        name,
        engine: 'vllm',
        model: 'Qwen/Qwen3-0.6B',
        instanceGroup: group,
        gpus: 1,
        service: { variant: 'pool', pool: 'warm' },
      });
      assert.ok(deployed.status < 300, JSON.stringify(deployed.body));
    }
    let workers: Array<{ pod: string; ready: boolean }> = [];
    for (let i = 0; i < 120 && !(workers.length === 2 && workers.every((w) => w.ready)); i++) {
      await new Promise((r) => setTimeout(r, 500));
      workers = (await server.api('GET', `${pools}/default/warm`)).body.workers;
    }
    assert.equal(workers.filter((w) => w.ready).length, 2, 'both warm workers are ready');
    for (const w of workers) {
      const assigned = await server.api('PUT', `${pools}/default/warm/workers/${w.pod}`, { endpoint: 'pool-a' });
      assert.ok(assigned.status < 300, JSON.stringify(assigned.body));
    }
    const moved = workers[0]!.pod;

    await page.locator('[data-testid="inference-endpoints"] tr', { hasText: 'pool-b' }).waitFor();
    const table = page.locator('[data-testid="inference-pool-workers"]');
    await table.locator('tr', { hasText: moved }).waitFor();
    const assign = page.locator(`[data-testid="inference-pool-assign-${moved}"]`);
    assert.match(await assign.innerText(), /pool-a/);
    await screenshot(page, 'inference-10-pool');
    await assign.locator('button').first().click();
    await page.getByRole('option', { name: 'pool-b' }).click();
    await assign.locator('button', { hasText: 'pool-b' }).waitFor();
    const pool = (await server.api('GET', `${pools}/default/warm`)).body;
    assert.deepEqual(
      pool.workers.map((w: { pod: string; endpoint?: string }) => [w.pod, w.endpoint]),
      workers.map((w) => [w.pod, w.pod === moved ? 'pool-b' : 'pool-a']),
      'one label changed: the moved worker serves pool-b, the other still pool-a',
    );
    // The endpoints follow their workers: each now has one.
    const b = page.locator('[data-testid="inference-endpoints"] tr', { hasText: 'pool-b' });
    await b.locator('[data-testid="inference-endpoint-replicas"]', { hasText: '1/1' }).waitFor();
    await screenshot(page, 'inference-11-pool-moved');
  });

  it('deploys a managed endpoint with KV cache and prefix-aware routing once the inference operator is on: a missing image shows under its field first', async () => {
    const features = await server.api('PATCH', `/api/v1/clusters/${CLUSTER}/features`, { 'inference-operator': true });
    assert.equal(features.status, 202, JSON.stringify(features.body));
    assert.equal((await server.waitForOperation(features.body.operation.id)).status, 'succeeded');
    const storage = (await server.api('GET', `/api/v1/clusters/${CLUSTER}/storage`)).body.storages.find(
      (x: { kind: string }) => x.kind === 's3',
    ).name;
    await page.goto(`${server.url}/clusters/${CLUSTER}/endpoints`);
    await page.locator('[data-testid="inference-deploy-managed-open"]').first().click();
    const modal = page.locator('[data-testid="inference-managed-modal"]');
    await modal.waitFor();
    assert.equal(await page.locator('[data-testid="inference-operator-off"]').count(), 0, 'the operator is on');
    await field('inference-managed-name').fill('ui-managed');
    await page.locator('[data-testid="inference-managed-source"]').getByText('Cluster storage').click();
    await select('inference-managed-storage', storage);
    await field('inference-managed-path').fill('models/Qwen3-0.6B');
    await select('inference-managed-types', GROUP_TYPE);
    await page.keyboard.press('Escape');
    await page.locator('[data-testid="inference-managed-args"] textarea').fill('--model\n/opt/ml/model\n--port\n8080');
    await modal.getByText('KV cache and routing', { exact: true }).click();
    await page.locator('[data-testid="inference-managed-kv"] input').check();
    await select('inference-managed-l2', 'Managed tiered storage');
    await page.locator('[data-testid="inference-managed-routing"] input').check();
    await page
      .locator('[data-testid="inference-routing-permanent"]', { hasText: 'cannot be added, removed or changed' })
      .waitFor();
    await page.locator('[data-testid="inference-managed-deploy"]').click();
    await page.locator('[data-testid="inference-managed-image"] [id*="error"]').waitFor();
    await screenshot(page, 'inference-12-managed-form');
    await field('inference-managed-image').fill('vllm/vllm-openai:v0.10.1');
    await page.locator('[data-testid="inference-managed-deploy"]').click();
    await modal.waitFor({ state: 'detached' });
    const detail = page.locator('[data-testid="inference-endpoint-detail"]', { hasText: 'ui-managed' });
    await detail.waitFor();
    await detail.locator('[data-testid="inference-endpoint-state"][data-state="Ready"]').waitFor({ timeout: 90_000 });
    const text = await detail.innerText();
    assert.match(text, /Managed endpoint/);
    assert.match(text, /DeploymentComplete/);
    assert.match(text, /Intelligent routing\s+Prefix-aware \(fixed\)/);
    assert.match(text, /InferenceEndpointConfig ui-managed/);
    await screenshot(page, 'inference-13-managed-ready');
    assert.deepEqual(browser.errors, [], 'no console or page errors');
  });
});
