import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { featureDefinition } from '../../src/domain/features/registry.js';
import { FEATURE_IDS } from '../../src/domain/schemas/features.js';
import { TOOL_NAMES } from '../../src/mcp/tool-list.js';
import { OPERATION_KIND_NAMES } from '../../src/domain/operation-kinds.js';
import { routeTableOf, routeUrls, seedAppState, trackRequests, type SeededApp } from '../helpers/app-routes.js';
import { launchBrowser, screenshot, type TestBrowser } from '../helpers/browser.js';
import type { TestSandbox } from '../helpers/sandbox.js';
import { startSandboxAndServer, stopAll, type TestServer } from '../helpers/server.js';

/**
 * No API vocabulary on any screen (issue 26, item 7): every route of the app (from its own route table,
 * test/helpers/app-routes.ts) and the main dialogs of its pages, read as a user reads them
 * (`document.body.innerText`), hold no REST path, no HTTP verb before a path, no MAX_SAFE_INTEGER bound,
 * no `someField: true`, no dotted camelCase JSON path and no operation kind or feature id where words are
 * expected. A page that legitimately shows an identifier a user copies is allowed by its element, below.
 */
const CLUSTER = 'ui-words';
const JOB = 'words-job';

/** The API's words, each with what it looks like; a hit names the rule and the text around it. */
const RULES: { name: string; find: (text: string) => string[] }[] = [
  { name: 'a REST path', find: (t) => t.match(/\/api\/v\d[^\s]*/g) ?? [] },
  { name: 'an HTTP verb before a path', find: (t) => t.match(/\b(GET|POST|PUT|PATCH|DELETE|HEAD)\s+\/\S*/g) ?? [] },
  { name: 'Number.MAX_SAFE_INTEGER', find: (t) => t.match(/-?9007199254740991/g) ?? [] },
  { name: 'a JSON field set to a boolean', find: (t) => t.match(/["']?\b[a-z][A-Za-z0-9]*["']?\s*:\s*(true|false)\b/g) ?? [] },
  {
    name: 'a dotted camelCase JSON path',
    find: (t) => (t.match(/\b[a-z][A-Za-z0-9]*(?:\.[a-z][A-Za-z0-9]*)+\b/g) ?? []).filter((p) => /[a-z][A-Z]/.test(p)),
  },
  // Kebab-case ids only ("autoscaling" is a word), and not a feature whose own name is its id (cert-manager).
  {
    name: 'an operation kind or feature id in place of words',
    find: (t) => [...OPERATION_KIND_NAMES, ...FEATURE_IDS.filter((id) => featureDefinition(id).title !== id)]
      .filter((id) => id.includes('-') && new RegExp(`(^|[^\\w/.-])${id}($|[^\\w/.-])`).test(t)),
  },
  { name: 'an MCP tool name', find: (t) => TOOL_NAMES.filter((name) => new RegExp(`\\b${name}\\b`).test(t)) },
];

/**
 * Elements that show an identifier as it is, because the user copies or matches it: selectors of the elements
 * (by test id), each with why. Their text is left out of the scan, and nothing else is.
 */
const IDENTIFIERS: Record<string, string> = {};

describe('no API vocabulary on any page or main dialog of the app (chromium)', () => {
  let sb: TestSandbox;
  let server: TestServer;
  let browser: TestBrowser;
  let page: Page;
  let settle: (maxMs?: number) => Promise<void>;
  let seeded: SeededApp;

  before(async () => {
    ({ sb, server } = await startSandboxAndServer(600));
    seeded = await seedAppState(server, CLUSTER, JOB);
    browser = await launchBrowser({ viewport: { width: 1440, height: 900 } });
    page = await browser.newPage();
    page.setDefaultTimeout(15_000);
    settle = trackRequests(page);
  });
  after(() => stopAll(browser, server, sb));

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
        hits.push(`${where}: ${rule.name}: "${found}" in "…${text.slice(Math.max(0, at - 60), at + found.length + 60).replace(/\s+/g, ' ')}…"`);
      }
    }
  }

  async function open(url: string) {
    await page.goto(`${server.url}${url}`);
    await page.locator('[data-testid="side-navigation"]').waitFor();
    await settle();
  }

  /** Opens a dialog by `button` (a selector) on `url`, waits for `shown`, and scans the page with it open. */
  async function dialog(url: string, name: string, button: string, shown = '[role="dialog"]', before?: () => Promise<void>) {
    await open(url);
    if (before) await before();
    await page.locator(button).first().click();
    await page.locator(shown).first().waitFor();
    await scan(`${url} with the ${name} dialog open`);
  }

  it('says nothing in the API\'s words on any route', async (t) => {
    await open('/clusters');
    const urls = [...[...(routeUrls(await routeTableOf(page), seeded)).values()].flat(), '/no-such-page'];
    for (const url of urls) {
      await open(url);
      await scan(url);
    }
    t.diagnostic(`${urls.length} URLs read`);
    // Texts the scan must have read, once written in the API's words: the Jobs tab's hint to turn the KubeRay
    // operator on (once a PATCH of the features' REST path) and a job's recovery budget (once JSON paths of its spec).
    await open(`/clusters/${CLUSTER}/jobs`);
    assert.match(await page.locator('[data-testid="training-not-served"]').innerText(), /RayJob jobs need the KubeRay operator: turn it on in the Features tab/);
    await open(`/clusters/${CLUSTER}/jobs/${seeded.job}`);
    assert.match(await page.locator('[data-testid="training-budget-restarts"]').innerText(), /the job's retry limit/);
    assert.deepEqual(hits.splice(0), []);
  });

  it('says nothing in the API\'s words in the main dialogs', async () => {
    const tab = (name: string) => `/clusters/${CLUSTER}/${name}`;
    await dialog(tab('storage'), 'add storage', '[data-testid="storage-add"]');
    await dialog(tab('instance-groups'), 'add instance group', '[data-testid="add-instance-group"]');
    await dialog(tab('instance-groups'), 'edit group', `[data-testid="group-edit-${seeded.group}"]`);
    await dialog(tab('instance-groups'), 'scale', `[data-testid="group-scale-${seeded.group}"]`);
    await dialog(tab('instance-groups'), 'delete group', `[data-testid="group-delete-${seeded.group}"]`);
    await dialog(`/clusters/${CLUSTER}`, 'delete cluster', '[data-testid="detail-delete"]', '[data-testid="delete-cluster-modal"]');
    await dialog(tab('features'), 'features plan', '[data-testid="features-review"]', '[data-testid^="plan-step-"]', async () => {
      await page.locator('[data-testid="feature-toggle-kuberay-operator"] input').click({ force: true });
    });
    await dialog(tab('jobs'), 'submit job', '[data-testid="training-submit-open"]', '[data-testid="training-submit-modal"]');
    for (const recipe of await page.locator('[data-testid^="training-recipe-"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!))) {
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
    await dialog(tab('models'), 'download a model', '[data-testid="model-download-start"]');
    await dialog(tab('jobs'), 'create tracking server', '[data-testid="mlflow-create-open"]').catch(async (err) => {
      await screenshot(page, 'words-mlflow');
      throw err;
    });
    assert.deepEqual(hits.splice(0), []);
  });
});
