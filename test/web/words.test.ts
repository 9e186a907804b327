import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import {
  CreateTrainingPlanCommand,
  DescribeTrainingPlanCommand,
  SageMakerClient,
  SearchTrainingPlanOfferingsCommand,
} from '@aws-sdk/client-sagemaker';
import { featureDefinition } from '../../src/domain/features/registry.js';
import { FEATURE_IDS } from '../../src/domain/schemas/features.js';
import { TOOL_NAMES } from '../../src/mcp/tool-list.js';
import { OPERATION_KIND_NAMES } from '../../src/domain/operation-kinds.js';
import {
  openSeededApp,
  routeTableOf,
  routeUrls,
  type SeededApp,
  type SeededBrowserApp,
} from '../helpers/app-routes.js';
import { screenshot, type TestBrowser } from '../helpers/browser.js';
import type { TestSandbox } from '../helpers/sandbox.js';
import type { TestServer } from '../helpers/server.js';
import { ensureQuota } from '../sandbox/sagemaker-fixtures.js';

/**
 * No API vocabulary on any screen (issue 26, item 7): every route of the app (from its own route table,
 * test/helpers/app-routes.ts) and the main dialogs of its pages, read as a user reads them
 * (`document.body.innerText`), hold no REST path, no HTTP verb before a path, no MAX_SAFE_INTEGER bound,
 * no `someField: true`, no dotted camelCase JSON path and no operation kind or feature id where words are
 * expected. A page that legitimately shows an identifier a user copies is allowed by its element, below.
 */
const CLUSTER = 'ui-words';
const JOB = 'words-job';
const ZONE = 'us-west-2b';
/** A type with EFA that training plans reserve: the wizard's training-plan and EFA choices are made with it. */
const PLAN_TYPE = 'ml.p5.48xlarge';

/** The API's words, each with what it looks like; a hit names the rule and the text around it. */
const RULES: { name: string; find: (text: string) => string[] }[] = [
  { name: 'a REST path', find: (t) => t.match(/\/api\/v\d[^\s]*/g) ?? [] },
  { name: 'an HTTP verb before a path', find: (t) => t.match(/\b(GET|POST|PUT|PATCH|DELETE|HEAD)\s+\/\S*/g) ?? [] },
  { name: 'Number.MAX_SAFE_INTEGER', find: (t) => t.match(/-?9007199254740991/g) ?? [] },
  {
    name: 'a JSON field set to a boolean',
    find: (t) => t.match(/["']?\b[a-z][A-Za-z0-9]*["']?\s*:\s*(true|false)\b/g) ?? [],
  },
  {
    name: 'a dotted camelCase JSON path',
    find: (t) => (t.match(/\b[a-z][A-Za-z0-9]*(?:\.[a-z][A-Za-z0-9]*)+\b/g) ?? []).filter((p) => /[a-z][A-Z]/.test(p)),
  },
  // Kebab-case ids only ("autoscaling" is a word), and not a feature whose own name is its id (cert-manager).
  {
    name: 'an operation kind or feature id in place of words',
    find: (t) =>
      [...OPERATION_KIND_NAMES, ...FEATURE_IDS.filter((id) => featureDefinition(id).title !== id)].filter(
        (id) => id.includes('-') && new RegExp(`(^|[^\\w/.-])${id}($|[^\\w/.-])`).test(t),
      ),
  },
  { name: 'an MCP tool name', find: (t) => TOOL_NAMES.filter((name) => new RegExp(`\\b${name}\\b`).test(t)) },
];

/**
 * Elements that show an identifier as it is, because the user copies or matches it: selectors of the elements
 * (by test id), each with why. Their text is left out of the scan, and nothing else is.
 */
const IDENTIFIERS: Record<string, string> = {
  // The server's own record of what it did, line by line (AWS calls, tool names): read, searched and downloaded as
  // written.
  '[data-testid="operation-log"]': "an operation's log",
};

describe('no API vocabulary on any page or main dialog of the app (chromium)', () => {
  let app: SeededBrowserApp;
  let sb: TestSandbox;
  let server: TestServer;
  let browser: TestBrowser;
  let page: Page;
  let settle: (maxMs?: number) => Promise<void>;
  let seeded: SeededApp;

  before(async () => {
    app = await openSeededApp(CLUSTER, JOB);
    ({ sb, server, browser, page, settle, seeded } = app);
  });
  after(() => app?.close());

  /** The page's visible text without the allowed identifiers' elements. */
  async function visibleText(): Promise<string> {
    return page.evaluate(`(() => {
      let text = document.body.innerText;
      for (const sel of ${JSON.stringify(Object.keys(IDENTIFIERS))}) {
        for (const el of document.querySelectorAll(sel)) if (el.innerText) text = text.split(el.innerText).join(' ');
      }
      return text;
    })()`) as Promise<string>;
  }

  const hits: string[] = [];
  async function scan(where: string) {
    await settle();
    const text = await visibleText();
    for (const rule of RULES) {
      for (const found of new Set(rule.find(text))) {
        const at = text.indexOf(found);
        hits.push(
          `${where}: ${rule.name}: "${found}" in "…${text.slice(Math.max(0, at - 60), at + found.length + 60).replace(/\s+/g, ' ')}…"`,
        );
      }
    }
  }

  /** Opens `url`; `settled: false` when a scan, which settles first, comes next. */
  async function open(url: string, { settled = true } = {}) {
    await page.goto(`${server.url}${url}`);
    await page.locator('[data-testid="side-navigation"]').waitFor();
    if (settled) await settle();
  }

  /** Opens a dialog by `button` (a selector) on `url`, waits for `shown`, and scans the page with it open. */
  async function dialog(
    url: string,
    name: string,
    button: string,
    shown = '[role="dialog"]',
    before?: () => Promise<void>,
  ) {
    await open(url);
    if (before) await before();
    await page.locator(button).first().click();
    await page.locator(shown).first().waitFor();
    await scan(`${url} with the ${name} dialog open`);
  }

  it("says nothing in the API's words on any route", async (t) => {
    await open('/clusters');
    const urls = [...[...routeUrls(await routeTableOf(page), seeded).values()].flat(), '/no-such-page'];
    for (const url of urls) {
      await open(url, { settled: false });
      await scan(url);
    }
    t.diagnostic(`${urls.length} URLs read`);
    // Texts the scan must have read, once written in the API's words: the Jobs tab's hint to turn the KubeRay
    // operator on (once a PATCH of the features' REST path) and a job's recovery budget (once JSON paths of its spec).
    await open(`/clusters/${CLUSTER}/jobs`);
    assert.match(
      await page.locator('[data-testid="training-not-served"]').innerText(),
      /RayJob jobs need the KubeRay operator: turn it on in the Features tab/,
    );
    await open(`/clusters/${CLUSTER}/jobs/${seeded.job}`);
    assert.match(await page.locator('[data-testid="training-budget-restarts"]').innerText(), /the job's retry limit/);
    assert.deepEqual(hits.splice(0), []);
  });

  it("says nothing in the API's words in the main dialogs", async () => {
    const tab = (name: string) => `/clusters/${CLUSTER}/${name}`;
    await dialog(tab('storage'), 'add storage', '[data-testid="storage-add"]');
    await dialog(tab('instance-groups'), 'add instance group', '[data-testid="add-instance-group"]');
    await dialog(tab('instance-groups'), 'edit group', `[data-testid="group-edit-${seeded.group}"]`);
    await dialog(tab('instance-groups'), 'scale', `[data-testid="group-scale-${seeded.group}"]`);
    await dialog(tab('instance-groups'), 'delete group', `[data-testid="group-delete-${seeded.group}"]`);
    await dialog(
      `/clusters/${CLUSTER}`,
      'delete cluster',
      '[data-testid="detail-delete"]',
      '[data-testid="delete-cluster-modal"]',
    );
    await dialog(
      tab('features'),
      'features plan',
      '[data-testid="features-review"]',
      '[data-testid^="plan-step-"]',
      async () => {
        await page.locator('[data-testid="feature-toggle-kuberay-operator"] input').click({ force: true });
      },
    );
    await dialog(
      tab('jobs'),
      'submit job',
      '[data-testid="training-submit-open"]',
      '[data-testid="training-submit-modal"]',
    );
    for (const recipe of await page
      .locator('[data-testid^="training-recipe-"]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!))) {
      await page.locator(`[data-testid="${recipe}"]`).click();
      await settle();
      await scan(`the submit job dialog with ${recipe}`);
      const back = page.locator('[data-testid="training-template-select"]');
      if (!(await page.locator('[data-testid^="training-recipe-"]').first().isVisible())) {
        await open(tab('jobs'));
        await page.locator('[data-testid="training-submit-open"]').click();
        await back.or(page.locator('[data-testid="training-recipe-cards"]')).first().waitFor();
      }
    }
    await dialog(
      tab('endpoints'),
      'deploy container',
      '[data-testid="inference-deploy-container-open"]',
      '[data-testid="inference-container-modal"]',
    );
    await dialog(
      tab('endpoints'),
      'deploy managed',
      '[data-testid="inference-deploy-managed-open"]',
      '[data-testid="inference-managed-modal"]',
    );
    await dialog(tab('models'), 'download a model', '[data-testid="model-download-start"]');
    await dialog(tab('jobs'), 'create tracking server', '[data-testid="mlflow-create-open"]').catch(async (err) => {
      await screenshot(page, 'words-mlflow');
      throw err;
    });
    assert.deepEqual(hits.splice(0), []);
  });
  /** Picks `option` in the Cloudscape select `testId` (through its filter when it has one). */
  async function choose(testId: string, option: string | RegExp, filter?: string) {
    await page.locator(`[data-testid="${testId}"] button`).first().click();
    if (filter) await page.getByPlaceholder(filter).fill(typeof option === 'string' ? option : '');
    await page.getByRole('option', { name: option }).first().click();
  }
  const next = () => page.getByRole('button', { name: 'Next', exact: true }).click();

  it("says nothing in the API's words on any step of the create wizard, its quota check and its preflight", async () => {
    // A training plan for the plan choice, bought in the sandbox and active from now.
    await ensureQuota(sb, `${PLAN_TYPE} for cluster usage`, 4);
    const sm = new SageMakerClient({});
    const offering = (
      await sm.send(
        new SearchTrainingPlanOfferingsCommand({
          InstanceType: PLAN_TYPE,
          InstanceCount: 2,
          DurationHours: 48,
          TargetResources: ['hyperpod-cluster'],
        }),
      )
    ).TrainingPlanOfferings![0]!;
    const planZone = offering.ReservedCapacityOfferings![0]!.AvailabilityZone!;
    await sm.send(
      new CreateTrainingPlanCommand({
        TrainingPlanName: 'words-plan',
        TrainingPlanOfferingId: offering.TrainingPlanOfferingId,
      }),
    );
    const plan = await sm.send(new DescribeTrainingPlanCommand({ TrainingPlanName: 'words-plan' }));
    const nowMs = Date.parse((await sb.admin('/_sandbox/clock')).body.now as string);
    await sb.advance(Math.max(0, Math.ceil((plan.StartTime!.getTime() - nowMs) / 1000)) + 60);

    await page.goto(`${server.url}/create-cluster`);
    await page.locator('[data-testid="wizard-name"] input').fill('words-wizard');
    // Next with a step's errors shows them (the name is taken by nothing, the zone is missing).
    await next();
    await scan("the wizard's Placement step with its errors");
    await choose('wizard-zone', planZone);
    await scan("the wizard's Placement step");
    await next();
    await page.locator('[data-testid="wizard-count"] input').fill('');
    await next();
    await scan("the wizard's Capacity step with its errors");
    await choose(
      'wizard-instance-type',
      new RegExp(`^${PLAN_TYPE.replaceAll('.', '\\.')}\\b`),
      'Find a type, accelerator or EFA',
    );
    // A count past the quota: the check under the count names the quota and its fix.
    await page.locator('[data-testid="wizard-count"] input').fill('50');
    await page.locator('[data-testid="capacity-check-problems"]').waitFor();
    await scan("the wizard's Capacity step with a count past the quota");
    await page.locator('[data-testid="wizard-count"] input').fill('2');
    await page.locator('[data-testid="capacity-check-ok"]').waitFor();
    // The tile turns on once the plans offered for this type and zone are read (a separate request from the quota check).
    await page
      .locator('[data-testid="wizard-capacity-type"] input[value="training-plan"]:not([disabled])')
      .waitFor({ state: 'attached' });
    await page.locator('[data-testid="wizard-capacity-type"] input[value="training-plan"]').check({ force: true });
    await scan("the wizard's Capacity step with a training plan to choose");
    await choose('wizard-training-plan', /words-plan/);
    await page.locator('[data-testid="wizard-network-interface"] input[value="efa"]').check({ force: true });
    await page.locator('[data-testid="wizard-deep-health"] input').check({ force: true });
    await scan("the wizard's Capacity step on a training plan with EFA");
    await next();
    await page.locator('[data-testid="wizard-fsx"] input').check({ force: true });
    await scan("the wizard's Storage step with FSx");
    await next();
    await page
      .locator('[data-testid="preflight-ok"], [data-testid="preflight-problems"]')
      .first()
      .waitFor({ timeout: 30_000 });
    await scan("the wizard's Review step");
    // A Review whose preflight finds problems: a plan that reserves fewer instances than asked for.
    await page.locator('[data-testid="wizard-previous"]').click();
    await page.getByRole('button', { name: 'Previous', exact: true }).click();
    await page.locator('[data-testid="wizard-count"] input').fill('3');
    await next();
    await next();
    await page
      .locator('[data-testid="preflight-ok"], [data-testid="preflight-problems"]')
      .first()
      .waitFor({ timeout: 30_000 });
    await scan("the wizard's Review step with a plan too small");
    assert.deepEqual(hits.splice(0), []);
  });

  it("says nothing in the API's words in the node, storage and job dialogs, a refusal, or a failed operation", async () => {
    const tab = (name: string) => `/clusters/${CLUSTER}/${name}`;
    const row = `tr:has([data-testid="node-row-${seeded.node}"]) input[type="checkbox"]`;
    const modal = page.locator('[data-testid="node-action-modal"]');
    for (const action of ['reboot', 'replace', 'delete', 'dhc']) {
      await open(tab('nodes'));
      await page.locator(row).check();
      await page.locator(`[data-testid="node-action-${action}"]`).click();
      await modal.waitFor();
      await scan(`the nodes tab with the ${action} dialog open`);
    }
    await open(tab('nodes'));
    await page.locator(`[data-testid="node-row-${seeded.node}"] button`).click();
    await page.locator('[data-testid="node-detail"]').waitFor();
    await scan('the node detail dialog');

    const [namespace, name] = seeded.storage.split('.');
    await dialog(
      tab('storage'),
      'remove storage (keep the data)',
      `[data-testid="storage-remove-${namespace}-${name}"]`,
      '[data-testid="storage-remove-modal"]',
    );
    await page.locator('[data-testid="storage-remove-delete-data"] input').check({ force: true });
    await scan('the remove storage dialog deleting the data');

    // Refusals the server sends, shown in the form that sent them: a group past the quota, a bucket that is not there.
    await dialog(tab('instance-groups'), 'add instance group', '[data-testid="add-instance-group"]');
    await page.locator('[data-testid="group-name"] input').fill('too-many');
    await choose('group-zone', ZONE);
    await choose('group-instance-type', /^ml\.c5\.xlarge/);
    await page.locator('[data-testid="group-count"] input').fill('500');
    await page.locator('[data-testid="group-submit"]').click();
    await page.getByText('The group was not added').waitFor();
    await scan('the add instance group dialog refused past the quota');
    await dialog(tab('storage'), 'add storage', '[data-testid="storage-add"]');
    await page.locator('[data-testid="storage-name"] input').fill('missing');
    await page.locator('[data-testid="storage-bucket"] input').fill('words-no-such-bucket');
    await page.locator('[data-testid="storage-prefix"] input').fill('models/');
    await page.locator('[data-testid="storage-add-submit"]').click();
    await page.locator('[data-testid="storage-add-error"]').waitFor();
    await scan('the add storage dialog refused for a bucket that is not there');
    // A bad prefix, refused in the form before anything is sent.
    await page.locator('[data-testid="storage-prefix"] input').fill('/models//x');
    await scan('the add storage dialog with a bad prefix');

    // A failed operation: an instance group the zone has no capacity for, its page and the dialog it offers.
    await sb.admin('/_sandbox/faults', {
      method: 'POST',
      body: {
        type: 'insufficient-capacity',
        availabilityZone: 'us-west-2c',
        instanceType: 'ml.c5.2xlarge',
        available: 0,
      },
    });
    const added = await server.api('POST', `/api/v1/clusters/${CLUSTER}/instance-groups`, {
      name: 'starved',
      availabilityZone: 'us-west-2c',
      instanceType: 'ml.c5.2xlarge',
      instanceCount: 1,
    });
    assert.equal(added.status, 202, JSON.stringify(added.body));
    const failed = await server.waitForOperation(added.body.operation.id);
    assert.equal(failed.status, 'failed');
    await sb.admin('/_sandbox/faults', { method: 'DELETE' });
    await open(`/operations/${encodeURIComponent(failed.id)}`, { settled: false });
    await page.locator('[data-testid="operation-error"]').waitFor();
    await scan("a failed operation's page");
    await page.locator('[data-testid="capacity-change-retry"]').click();
    await page.locator('[role="dialog"]').first().waitFor();
    await scan('the try another zone or type dialog');

    // Re-submit is offered once the job has finished.
    for (let i = 0; i < 240; i++) {
      const job = await server.api('GET', `/api/v1/clusters/${CLUSTER}/jobs/${seeded.job}`);
      if (['Succeeded', 'Failed'].includes(job.body.phase)) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    await dialog(
      tab(`jobs/${seeded.job}`),
      're-submit job',
      '[data-testid="training-resubmit"]',
      '[data-testid="training-resubmit-modal"]',
    );
    assert.deepEqual(hits.splice(0), []);
  });
});
