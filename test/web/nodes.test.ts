import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { launchBrowser, screenshot, type TestBrowser } from '../helpers/browser.js';
import type { TestSandbox } from '../helpers/sandbox.js';
import { startSandboxAndServer, stopAll, type TestServer } from '../helpers/server.js';

const CLUSTER = 'ui-nodes';
const REASON = 'Instance status check failed: the instance is unreachable';

async function choose(page: Page, testId: string, option: string | RegExp): Promise<void> {
  await page.locator(`[data-testid="${testId}"] button`).first().click();
  await page.getByRole('option', { name: option }).first().click();
}

/** The selection checkbox of a node's row (Cloudscape puts it in the row's first cell). */
const rowCheckbox = (page: Page, id: string) =>
  page.locator(`tr:has([data-testid="node-row-${id}"]) input[type="checkbox"]`);

describe('nodes, node actions and events in the web UI (chromium, real server on the sandbox)', () => {
  let sb: TestSandbox;
  let server: TestServer;
  let browser: TestBrowser;
  let page: Page;
  let ids: string[] = [];
  let group = '';
  before(async () => {
    ({ sb, server } = await startSandboxAndServer(600));
    const created = await server.api('POST', '/api/v1/clusters', {
      name: CLUSTER,
      availabilityZone: 'us-west-2b',
      instanceType: 'ml.c5.xlarge',
      instanceCount: 3,
      storage: { s3: false },
    });
    assert.equal(created.status, 202, JSON.stringify(created.body));
    assert.equal((await server.waitForOperation(created.body.operation.id)).status, 'succeeded');
    // Manual node recovery, so the person at the UI (not HyperPod) heals the faulted node.
    await sb.aws(['sagemaker', 'update-cluster', '--cluster-name', CLUSTER, '--node-recovery', 'None']);
    browser = await launchBrowser();
    page = await browser.newPage();
    page.setDefaultTimeout(30_000);
  });
  after(() => stopAll(browser, server, sb));

  /** The cluster page at one tab (its URL: /clusters/<name>/<tab>). */
  const openTab = async (tab: 'nodes' | 'events' | 'instance-groups' | 'autoscaling', ready: string) => {
    await page.goto(`${server.url}/clusters/${CLUSTER}/${tab}`);
    await page.locator(`[data-testid="${ready}"]`).first().waitFor();
  };
  const openCluster = () => openTab('nodes', 'nodes-table');

  it("lists the cluster's nodes, healthy, with their group, type and zone", async () => {
    await openCluster();
    await page.locator('[data-testid="nodes-total"][data-total="3"]').waitFor();
    const listed = await server.api('GET', `/api/v1/clusters/${CLUSTER}/nodes`);
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    ids = listed.body.nodes.map((n: any) => n.instanceId);
    group = listed.body.nodes[0].instanceGroupName;
    assert.equal(ids.length, 3);
    for (const id of ids) {
      await page.locator(`[data-testid="node-health-${id}"][data-state="healthy"]`).waitFor({ timeout: 60_000 });
      const row = page.locator(`tr:has([data-testid="node-row-${id}"])`);
      const text = await row.innerText();
      assert.match(text, /ml\.c5\.xlarge/);
      assert.match(text, /us-west-2b/);
      assert.ok(text.includes(group), `the row names the group ${group}: ${text}`);
    }
    await screenshot(page, 'nodes-01-healthy');
  });

  it('shows a faulted node as failed with the reason, and its detail with conditions and events', async () => {
    const victim = ids[0]!;
    const fault = await sb.admin('/_sandbox/faults', {
      method: 'POST',
      body: {
        type: 'node-fault',
        cluster: CLUSTER,
        instanceId: victim,
        health: 'UnschedulablePendingReboot',
        reason: REASON,
      },
    });
    assert.ok(fault.status < 300, JSON.stringify(fault.body));
    // The page refreshes itself every 10 s: no reload.
    const health = page.locator(`[data-testid="node-health-${victim}"][data-state="failed"]`);
    await health.waitFor({ timeout: 45_000 });
    assert.match(await health.innerText(), /the instance is unreachable/);
    assert.match(await page.locator(`[data-testid="node-next-${victim}"]`).innerText(), /Reboot/);

    await page.locator(`[data-testid="nodes-filter-health"] button`).first().click();
    const failedOption = page.getByRole('option', { name: /Failed/ });
    assert.match(await failedOption.innerText(), /1/, 'the health filter shows the count of failed nodes');
    await failedOption.click();
    await page.locator('[data-testid="nodes-total"][data-total="1"]').waitFor();
    assert.equal(await page.locator('[data-testid^="node-row-"]').count(), 1);

    await page.locator(`[data-testid="node-row-${victim}"] button`).click();
    const detail = page.locator('[data-testid="node-detail"]');
    await detail.locator('[data-testid="node-detail-health"][data-state="failed"]').waitFor();
    assert.match(await detail.locator('[data-testid="node-detail-reason"]').innerText(), /the instance is unreachable/);
    assert.match(await detail.locator('[data-testid="node-detail-sagemaker-status"]').innerText(), /Running/);
    await detail
      .locator('[data-testid="node-detail-conditions"]')
      .getByText('Ready', { exact: true })
      .first()
      .waitFor();
    assert.ok((await detail.locator('[data-testid="node-detail-events"] tbody tr').count()) > 0, 'the node has events');
    assert.match(await detail.locator('[data-testid="node-escalation"]').innerText(), /investigate → reboot → replace/);
    await screenshot(page, 'nodes-02-detail');
    await detail.locator('[data-testid="node-detail-close"]').click();
    await detail.waitFor({ state: 'hidden' });
  });

  it('reboots the selected node as an operation: links to it, then shows the result per node', async () => {
    const victim = ids[0]!;
    await rowCheckbox(page, victim).check();
    await page.locator('[data-testid="node-action-reboot"]').click();
    const modal = page.locator('[data-testid="node-action-modal"]');
    assert.match(await modal.locator('[data-testid="node-escalation"]').innerText(), /investigate → reboot → replace/);
    assert.match(await modal.innerText(), new RegExp(victim));
    assert.equal(
      await modal.locator('[data-testid="node-confirm-input"]').count(),
      0,
      'a reboot needs no typed confirmation',
    );
    await modal.locator('[data-testid="node-confirm"]').click();
    const link = modal.locator('[data-testid="node-action-operation-link"]');
    await link.waitFor();
    assert.match(await link.innerText(), /Reboot nodes/);
    const href = (await link.getAttribute('href')) ?? '';
    assert.match(href, /^\/operations\/[^/]+$/);
    // The operation ends when the node runs again; then the dialog shows the result node by node.
    await modal.locator('[data-testid="node-action-operation"][data-status="succeeded"]').waitFor({ timeout: 60_000 });
    await modal
      .locator(`[data-testid="node-results"] [data-testid="node-result-status-${victim}"][data-outcome="succeeded"]`)
      .waitFor();
    assert.match(await modal.locator('[data-testid="node-results"]').innerText(), /1 succeeded, 0 failed/);
    await screenshot(page, 'nodes-03-reboot-results');
    await modal.locator('[data-testid="node-action-close"]').click();
    assert.equal((await sb.calls({ service: 'sagemaker', operation: 'BatchRebootClusterNodes' })).length, 1);
    // The operation has its own page and is listed under Operations.
    const operationId = decodeURIComponent(href.split('/').pop()!);
    const listed = await server.api('GET', '/api/v1/operations?kind=reboot-nodes');
    assert.ok(
      listed.body.operations.some((o: any) => o.id === operationId),
      JSON.stringify(listed.body),
    );
    // Back to every node: the rebooted one is healthy without a reload.
    await choose(page, 'nodes-filter-health', /Any health/);
    await page.locator(`[data-testid="node-health-${victim}"][data-state="healthy"]`).waitFor({ timeout: 60_000 });
    await page.goto(`${server.url}${href}`);
    await page.locator('[data-testid="operation-status"][data-status="succeeded"]').waitFor();
    assert.match(await page.locator('body').innerText(), /Reboot nodes/);
    // Its per-node results are a table with labelled columns, not a JSON string.
    const results = page.locator('[data-testid="operation-result-table-results"]');
    assert.match(await results.innerText(), new RegExp(`Node id[\\s\\S]*Outcome[\\s\\S]*${victim}[\\s\\S]*succeeded`));
    assert.doesNotMatch(await page.locator('[data-testid="operation-result"]').innerText(), /"nodeId"/);
    await openCluster();
  });

  it('asks for the typed word before replacing or deleting, and says why', async () => {
    const other = ids[1]!;
    const before = (await sb.calls({ service: 'sagemaker', mutating: true })).length;
    for (const action of ['replace', 'delete'] as const) {
      await rowCheckbox(page, other).check();
      await page.locator(`[data-testid="node-action-${action}"]`).click();
      const modal = page.locator('[data-testid="node-action-modal"]');
      assert.match(
        await modal.innerText(),
        action === 'replace' ? /data on the root and secondary volumes is lost/ : /capacity is given back/,
      );
      assert.match(await modal.innerText(), new RegExp(other));
      const confirm = modal.locator('[data-testid="node-confirm"]');
      assert.equal(await confirm.isDisabled(), true);
      await modal.locator('[data-testid="node-confirm-input"] input').fill(action.slice(0, -1));
      assert.equal(await confirm.isDisabled(), true, 'a partial word does not confirm');
      await modal.locator('[data-testid="node-confirm-input"] input').fill(action);
      assert.equal(await confirm.isDisabled(), false);
      if (action === 'replace') await screenshot(page, 'nodes-04-replace-confirm');
      await modal.locator('[data-testid="node-action-close"]').click();
      await modal.waitFor({ state: 'hidden' });
    }
    assert.equal(
      (await sb.calls({ service: 'sagemaker', mutating: true })).length,
      before,
      'cancelled actions call nothing',
    );
  });

  it('shows the events timeline, newest first, with the fault and the reboot; filters by group', async () => {
    await openTab('events', 'events-filter-group');
    const table = page.locator('[data-testid="events-table"]');
    await table
      .getByText(/reboot/i)
      .first()
      .waitFor({ timeout: 30_000 });
    const times = await table
      .locator('tbody tr time')
      .evaluateAll((els) => els.map((e) => e.getAttribute('datetime') ?? ''));
    assert.ok(times.length > 3, `several events: ${times.length}`);
    const parsed = times.map((t) => Date.parse(t));
    assert.deepEqual(
      parsed,
      [...parsed].sort((a, b) => b - a),
      'newest first',
    );
    // The sandbox's clock runs 600× faster here: its event times run ahead of the wall clock, and the page says so.
    await page
      .getByText('Times marked "sandbox time" come from the sandbox\'s clock, which runs 600× faster than real time')
      .first()
      .waitFor({ timeout: 10_000 });
    assert.match(
      await table.locator('thead').innerText(),
      /Time \(sandbox time\)/,
      'the column of cloud times says whose clock it is',
    );
    // "Updated …" is on the events' clock (web/kit/hooks/cloud-clock.ts: a page about the cloud never mixes clocks):
    // labelled, and
    // no earlier than the newest event it read nor later than the cloud's time now. The wall clock is hours behind at
    // 600×.
    for (const [tab, testId] of [
      ['events', 'events-updated'],
      ['nodes', 'nodes-updated'],
    ] as const) {
      if (tab === 'nodes') await openTab('nodes', 'nodes-table');
      const updated = page.locator(`[data-testid="${testId}"]`);
      assert.match(
        await updated.innerText(),
        /^\d\d:\d\d:\d\d \(sandbox time\)$/,
        `${tab}: the time says whose clock it is`,
      );
      const at = Date.parse((await updated.getAttribute('datetime'))!);
      const cloudNow = Date.parse((await server.api('GET', '/api/v1/config')).body.cloudTime);
      assert.ok(
        at >= parsed[0]! && at <= cloudNow,
        `${tab}: updated at ${new Date(at).toISOString()}, newest event ${times[0]}, cloud now ${new Date(cloudNow).toISOString()}`,
      );
    }
    await openTab('events', 'events-filter-group');
    await choose(page, 'events-filter-group', group);
    await table
      .getByText(/reboot/i)
      .first()
      .waitFor();
    await screenshot(page, 'nodes-05-events');
  });

  it('fills the node table with the nodes of a group added through the modal', async () => {
    await openTab('instance-groups', 'add-instance-group');
    await page.locator('[data-testid="add-instance-group"]').click();
    await page.locator('[data-testid="group-name"] input').fill('extra');
    await choose(page, 'group-zone', 'us-west-2a');
    await choose(page, 'group-instance-type', /^ml\.c5\.xlarge/);
    await page.locator('[data-testid="group-count"] input').fill('2');
    await page.locator('[data-testid="group-submit"]').click();
    await page.waitForURL(/\/operations\//);
    await page.locator('[data-testid="operation-status"][data-status="succeeded"]').waitFor({ timeout: 120_000 });
    await openCluster();
    await page.locator('[data-testid="nodes-total"][data-total="5"]').waitFor({ timeout: 45_000 });
    await choose(page, 'nodes-filter-group', 'extra');
    await page.locator('[data-testid="nodes-total"][data-total="2"]').waitFor();
    const zones = await page.locator('[data-testid="nodes-table"] tbody tr').allInnerTexts();
    assert.equal(zones.length, 2);
    for (const row of zones) assert.match(row, /extra[\s\S]*us-west-2a/);
    await page
      .locator('[data-testid="nodes-table"] [data-testid^="node-health-"][data-state="healthy"]')
      .nth(1)
      .waitFor({ timeout: 60_000 });
    await screenshot(page, 'nodes-06-new-group');
    assert.deepEqual(browser.errors, []);
  });

  it('shows what managed autoscaling covers, and turns it on for a chosen group as an operation', async () => {
    await openTab('autoscaling', 'autoscaling-panel');
    const panel = page.locator('[data-testid="autoscaling-panel"]');
    await panel.locator('[data-testid="autoscaling-mode"][data-mode="Disable"]').waitFor();
    assert.match(
      await panel.locator('[data-testid="autoscaling-scope"]').innerText(),
      /HyperPod instance groups only.*does not scale EKS managed node groups/s,
    );
    await panel.locator('[data-testid="autoscaling-enable"]').click();
    const modal = page.locator('[data-testid="autoscaling-modal"]');
    await modal.locator('[data-testid="autoscaling-groups"] button').first().click();
    await page
      .getByRole('option', { name: /^extra/ })
      .first()
      .click();
    await page.keyboard.press('Escape');
    await modal.locator('[data-testid="autoscaling-submit"]').click();
    await page.waitForURL(/\/operations\//);
    await page.locator('[data-testid="operation-status"][data-status="succeeded"]').waitFor({ timeout: 120_000 });
    await openTab('autoscaling', 'autoscaling-panel');
    await panel.locator('[data-testid="autoscaling-mode"][data-mode="Enable"]').waitFor();
    assert.equal(await panel.locator('[data-testid="autoscaling-managed-groups"]').innerText(), 'extra');
    await panel
      .locator('[data-testid="autoscaling-nodepool"][data-ready="true"]')
      .waitFor()
      .catch(async (e) => {
        throw new Error(
          `${(e as Error).message}\npanel: ${await panel.innerText()}\nAPI: ${JSON.stringify((await server.api('GET', `/api/v1/clusters/${CLUSTER}/autoscaling`)).body)}`,
        );
      });
    const role = (await sb.aws(['sagemaker', 'describe-cluster', '--cluster-name', CLUSTER])).json;
    assert.equal(role.AutoScaling.Mode, 'Enable');
    await screenshot(page, 'nodes-07-autoscaling');
    assert.deepEqual(browser.errors, []);
  });
});
