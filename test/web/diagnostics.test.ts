import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { launchBrowser, screenshot, type TestBrowser } from '../helpers/browser.js';
import type { TestSandbox } from '../helpers/sandbox.js';
import { startSandboxAndServer, stopAll, type TestServer } from '../helpers/server.js';

const request = (name: string) => ({
  name,
  availabilityZone: 'us-west-2b',
  instanceType: 'ml.c5.xlarge',
  instanceCount: 1,
  storage: { s3: false },
});

describe('the Diagnose action in the web UI: on a failed create and on a node, read-only (chromium, sandbox)', () => {
  let sb: TestSandbox;
  let server: TestServer;
  let browser: TestBrowser;
  let page: Page;
  let failedId = '';
  let nodeId = '';

  /** The sandbox call log's last seq: what came after it was done by the step being checked. */
  const mark = async () => (await sb.calls()).at(-1)?.seq ?? 0;
  const mutatedSince = async (seq: number) =>
    (await sb.calls({ mutating: true, after: seq })).map((c) => `${c.service} ${c.operation}`);

  before(async () => {
    ({ sb, server } = await startSandboxAndServer(600));
    const fault = await sb.admin('/_sandbox/faults', {
      method: 'POST',
      body: { type: 'create-failure', service: 'sagemaker', name: 'ui-flaky', message: 'Lifecycle script exited 1' },
    });
    assert.equal(fault.status, 201, JSON.stringify(fault.body));
    const started = await Promise.all(
      [request('ui-flaky'), request('ui-steady')].map((b) => server.api('POST', '/api/v1/clusters', b)),
    );
    const ends = await Promise.all(started.map((s) => server.waitForOperation(s.body.operation.id)));
    assert.deepEqual(
      ends.map((e) => e.status),
      ['failed', 'succeeded'],
    );
    failedId = ends[0].id;
    await sb.aws(['sagemaker', 'update-cluster', '--cluster-name', 'ui-steady', '--node-recovery', 'None']);
    for (let i = 0; i < 100; i++) {
      const c = await sb.aws(['sagemaker', 'describe-cluster', '--cluster-name', 'ui-steady']);
      if (c.json.ClusterStatus === 'InService' && c.json.NodeRecovery === 'None') break;
      await new Promise((r) => setTimeout(r, 300));
    }
    nodeId = (await server.api('GET', '/api/v1/clusters/ui-steady/nodes')).body.nodes[0].instanceId;
    browser = await launchBrowser();
    page = await browser.newPage();
    page.setDefaultTimeout(30_000);
  });
  after(() => stopAll(browser, server, sb));

  it('a failed create: Diagnose names the cause and shows the retry as a marked suggestion, running nothing', async () => {
    await page.goto(`${server.url}/operations/${failedId}`);
    await page.locator('[data-testid="operation-error"]').waitFor();
    const seq = await mark();
    await page.locator('[data-testid="diagnose-creation"]').click();
    const finding = page.locator('[data-testid="diagnosis-finding"][data-code="hyperpod-create-failed"]');
    await finding.waitFor();
    assert.match(await finding.innerText(), /Lifecycle script exited 1/);
    const retry = page.locator('[data-testid="diagnosis-suggestion"][data-mutating="true"]', {
      hasText: 'retry_operation_phase',
    });
    await retry.first().waitFor();
    assert.match(await retry.first().innerText(), /ask first/);
    await screenshot(page, 'diagnostics-creation');
    assert.deepEqual(await mutatedSince(seq), []);
    assert.equal((await server.api('GET', `/api/v1/operations/${failedId}`)).body.status, 'failed');
  });

  it('a faulted node: Diagnose in the node detail says reboot, and reboots nothing', async () => {
    const fault = await sb.admin('/_sandbox/faults', {
      method: 'POST',
      body: {
        type: 'node-fault',
        cluster: 'ui-steady',
        instanceId: nodeId,
        health: 'UnschedulablePendingReboot',
        reason: 'Instance status check failed: the instance is unreachable',
      },
    });
    assert.equal(fault.status, 201, JSON.stringify(fault.body));
    await page.goto(`${server.url}/clusters/ui-steady/nodes/${nodeId}`);
    await page.locator('[data-testid="node-detail-health"][data-state="failed"]').waitFor();
    const seq = await mark();
    await page.locator('[data-testid="diagnose-node"]').click();
    await page.locator('[data-testid="diagnosis-escalation"][data-stage="reboot"]').waitFor();
    await page.locator('[data-testid="diagnosis-finding"][data-code="pending-reboot"]').waitFor();
    const reboot = page.locator('[data-testid="diagnosis-suggestion"][data-mutating="true"]', {
      hasText: 'reboot_nodes',
    });
    await reboot.first().waitFor();
    await screenshot(page, 'diagnostics-node');
    assert.deepEqual(await mutatedSince(seq), []);
    const ops = await server.api('GET', '/api/v1/operations?kind=reboot-nodes&limit=5');
    assert.equal(ops.body.operations.length, 0, 'nothing was rebooted');
  });
});
