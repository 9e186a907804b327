import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CreateRoleCommand, IAMClient, PutRolePolicyCommand } from '@aws-sdk/client-iam';
import { PRODUCT_POLICY, productPolicyDocument } from '../../src/domain/iam/product-policy.js';
import { launchBrowser, screenshot, type TestBrowser } from '../helpers/browser.js';
import { startSandboxAndServer, stopAll, type TestServer } from '../helpers/server.js';
import type { TestSandbox } from '../helpers/sandbox.js';

/** The Readiness page: the doctor's lines, all ok for the sandbox administrator; a role lacking iam:PassRole shown with its fix. */
describe('web UI: Readiness (chromium)', () => {
  let sb: TestSandbox;
  let server: TestServer;
  let browser: TestBrowser;
  let roleArn: string;
  before(async () => {
    ({ sb, server } = await startSandboxAndServer(1));
    const iam = new IAMClient({});
    const statements = PRODUCT_POLICY.map((s) => ({
      ...s,
      actions: s.actions.filter((a) => a !== 'iam:PassRole'),
    })).filter((s) => s.actions.length > 0);
    roleArn = (
      await iam.send(
        new CreateRoleCommand({
          RoleName: 'instantstart-readiness',
          AssumeRolePolicyDocument: JSON.stringify({
            Version: '2012-10-17',
            Statement: [{ Effect: 'Allow', Principal: { Service: 'ec2.amazonaws.com' }, Action: 'sts:AssumeRole' }],
          }),
        }),
      )
    ).Role!.Arn!;
    await iam.send(
      new PutRolePolicyCommand({
        RoleName: 'instantstart-readiness',
        PolicyName: 'product',
        PolicyDocument: JSON.stringify(productPolicyDocument(statements)),
      }),
    );
    iam.destroy();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await stopAll(server, sb);
  });

  it('lists every line ok, then names what a role lacks with the fix to copy', async () => {
    const page = await browser.newPage();
    page.setDefaultTimeout(30_000);
    await page.goto(`${server.url}/readiness`);
    const verdict = page.locator('[data-testid="readiness-verdict"]');
    await verdict.waitFor();
    assert.match(await verdict.innerText(), /Ready: every check is ok in us-west-2/);
    const statuses = await page
      .locator('[data-testid="readiness-line"]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-status')));
    assert.ok(statuses.length > PRODUCT_POLICY.length, `${statuses.length} lines`);
    assert.deepEqual([...new Set(statuses)], ['ok']);

    await page.locator('[data-testid="readiness-principal"] input').fill(roleArn);
    await page.locator('[data-testid="readiness-check"]').click();
    await page.getByText(/Not ready in us-west-2: 1 line to fix/).waitFor();
    const table = await page.locator('[data-testid="readiness-lines"]').innerText();
    assert.match(table, /iam:PassRole is not allowed/);
    assert.match(table, /EKS CreateCluster \(checked with it\)/);
    assert.match(table, /"Action":"iam:PassRole"/);
    await screenshot(page, 'readiness-missing-action');
    assert.deepEqual(browser.errors, []);
  });
});
