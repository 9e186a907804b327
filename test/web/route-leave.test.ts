import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { screenshot, type TestBrowser } from '../helpers/browser.js';
import {
  openSeededApp,
  routeTableOf,
  routeUrls,
  type SeededApp,
  type SeededBrowserApp,
} from '../helpers/app-routes.js';
import type { TestServer } from '../helpers/server.js';

/**
 * Every route of the app, opened and left by every way a user leaves a page (issue 26, item 1): a link in
 * the page, the side navigation, the breadcrumb and Back. Leaving the operation page once blanked the whole
 * app (an effect returned what `window.scrollTo` returns — a Promise in current Chromium — and React called
 * it as the cleanup). The routes are not listed here: test/helpers/app-routes.ts reads the app's route table and
 * fills each `:param` from the state it seeded; a parameter it cannot fill fails the test by name.
 */
const CLUSTER = 'ui-leave';
const JOB = 'leave-job';

describe('every route of the app, left by a link, the side navigation, the breadcrumb and Back, without a page error (chromium)', () => {
  let app: SeededBrowserApp;
  let server: TestServer;
  let browser: TestBrowser;
  let page: Page;
  let settle: (maxMs?: number) => Promise<void>;
  let seeded: SeededApp;

  before(async () => {
    app = await openSeededApp(CLUSTER, JOB);
    ({ server, browser, page, settle, seeded } = app);
    // A 400 from our own API while a page merely opens is a request the UI built wrong (e.g. an empty cluster name in
    // a path): an error of the page, even though Chromium only logs it as a failed resource.
    page.on('response', (r) => {
      if (r.status() === 400 && new URL(r.url()).pathname.startsWith('/api/')) browser.errors.push(`400 ${r.url()}`);
    });
  });
  after(() => app?.close());

  /** The app still shows its frame (side navigation, breadcrumbs) and some content: React did not unmount it. */
  async function appRenders(): Promise<boolean> {
    return page.evaluate(`(() => {
      const root = document.getElementById('root');
      return !!root && root.childElementCount > 0 && !!document.querySelector('nav[aria-label="Breadcrumbs"]')
        && !!document.querySelector('[data-testid="side-navigation"] a[href="/clusters"]');
    })()`) as Promise<boolean>;
  }

  /**
   * Enters `url` the way the router does on Back/Forward (a popstate), so the page before it stays in the same document.
   * The check that follows lets the page settle.
   */
  async function enter(url: string) {
    await page.evaluate(
      `(() => { history.pushState(null, '', ${JSON.stringify(url)}); dispatchEvent(new PopStateEvent('popstate', { state: null })); })()`,
    );
    await page.waitForURL((u) => u.pathname === url);
  }

  /**
   * The href of a link of a kind that a user can click on this page (not under a dialog's overlay), leading to another
   * path of the app. `content`: in the page's own content (a dialog's links when one is open), tabs last.
   */
  async function linkOf(kind: 'content' | 'navigation' | 'breadcrumb'): Promise<string | undefined> {
    return page.evaluate(`(() => {
      const here = location.pathname;
      document.querySelectorAll('[data-leave-link]').forEach((a) => a.removeAttribute('data-leave-link'));
      const inside = (a, sel) => !!a.closest(sel);
      const all = [...document.querySelectorAll('a[href^="/"]')].filter((a) => {
        const href = a.getAttribute('href');
        if (href.split('?')[0] === here || href.startsWith('/api/') || a.offsetParent === null || a.target === '_blank') return false;
        // A user can click it: nothing (a dialog's overlay, say) covers its middle once it is scrolled into view.
        a.scrollIntoView({ block: 'center' });
        const r = a.getBoundingClientRect();
        const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return !!top && (top === a || a.contains(top));
      });
      const nav = (a) => inside(a, '[data-testid="side-navigation"]');
      const crumb = (a) => inside(a, 'nav[aria-label="Breadcrumbs"]');
      // The breadcrumb: the nearest page above this one (the last crumb leading elsewhere).
      const pick = ${JSON.stringify(kind)} === 'navigation' ? all.filter(nav)
        : ${JSON.stringify(kind)} === 'breadcrumb' ? all.filter(crumb).reverse()
        : [...all.filter((a) => !nav(a) && !crumb(a) && a.getAttribute('role') !== 'tab'), ...all.filter((a) => !nav(a) && !crumb(a) && a.getAttribute('role') === 'tab')];
      const a = pick[0];
      if (!a) return undefined;
      a.setAttribute('data-leave-link', '1');
      return a.getAttribute('href');
    })()`) as Promise<string | undefined>;
  }

  it('opens every route and leaves it by each way with zero page errors; the app renders after each', async (t) => {
    // The run starts on the catch-all page (it is visited last), so the first route entered has a page of the app
    // behind it.
    await page.goto(`${server.url}/no-such-page`);
    await page.locator('[data-testid="side-navigation"]').waitFor();
    const routes = await routeTableOf(page);
    const byPattern = routeUrls(routes, seeded);
    // The router's catch-all (a path no capability serves) is a page too.
    const urls = [...[...byPattern.values()].flat(), '/no-such-page'];
    t.diagnostic(`${urls.length} URLs from ${routes.pages.length} route patterns: ${urls.join(' ')}`);
    assert.ok(
      urls.includes(`/operations/${seeded.operation}`) && urls.includes(`/clusters/${CLUSTER}/jobs/${seeded.job}`),
    );

    const failures: string[] = [];
    const visited: string[] = [];
    /**
     * After each move: no page error, and the app still renders. `left` names the page just left and how. On a failure
     * the app is reloaded at `recover` (a reload is the only way back from a blank app) and false is answered.
     */
    const check = async (left: string, recover: string) => {
      await settle();
      const errors = browser.errors.splice(0);
      const renders = await appRenders();
      visited.push(left);
      if (errors.length === 0 && renders) return true;
      failures.push(`leaving ${left}: ${renders ? '' : 'the app no longer renders; '}${errors.join(' | ')}`);
      await page.goto(`${server.url}${recover}`);
      await settle();
      browser.errors.splice(0);
      return false;
    };
    const move = async (how: () => Promise<unknown>, to: (path: string) => boolean) => {
      await how();
      await page.waitForURL((u) => to(u.pathname));
    };

    for (const url of urls) {
      const before = (await page.evaluate('location.pathname')) as string;
      await enter(url);
      // Each check that fails reloads the app at `url`, so the next way out still starts there.
      await check(`${before} for ${url} (by the router, as Back and Forward do)`, url);
      // Back: the route was entered in the app, so Back unmounts it; Forward brings it back.
      await move(
        () => page.goBack(),
        (p) => p !== url,
      );
      if (await check(`${url} by Back`, url)) {
        await move(
          () => page.goForward(),
          (p) => p === url,
        );
        await check(`the page before ${url} by Forward`, url);
      }
      for (const way of ['content', 'navigation', 'breadcrumb'] as const) {
        const href = await linkOf(way);
        const named = way === 'content' ? 'a link in the page' : `the ${way}`;
        if (!href) {
          visited.push(`${url} by ${named}: none a user can click`);
          continue;
        }
        await move(
          () =>
            page
              .locator('[data-leave-link="1"]')
              .click()
              .catch(async (err) => {
                await screenshot(page, 'route-leave-unclickable');
                throw new Error(
                  `on ${url}, ${named} to ${href} cannot be clicked: ${(err as Error).message.split('\n')[0]}`,
                );
              }),
          (p) => p !== url,
        );
        if (!(await check(`${url} by ${named} (${href})`, url))) continue;
        await move(
          () => page.goBack(),
          (p) => p === url,
        );
        await check(`${href} by Back, to ${url}`, url);
      }
    }
    for (const v of visited) t.diagnostic(v);
    assert.deepEqual(failures, []);
    // Every way was tried somewhere: links in pages, the side navigation and breadcrumbs exist on most routes.
    for (const way of ['content', 'navigation', 'breadcrumb']) {
      const named = way === 'content' ? 'a link in the page' : `the ${way}`;
      assert.ok(
        visited.filter((v) => v.includes(`by ${named} (`)).length >= urls.length / 2,
        `${named} was a way out of most routes`,
      );
    }
  });
});
