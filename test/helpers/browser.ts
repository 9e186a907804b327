import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type ConsoleMessage, type Page } from 'playwright-core';

/** Debian's chromium. Tests never download a browser. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Screenshots go to <repo>/test-artifacts (this file runs from test/helpers or dist/test/helpers). */
function repoRoot(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const parts = here.split(/[\\/]/);
  const dist = parts.lastIndexOf('dist');
  return dist >= 0 && parts[dist + 1] === 'test' ? parts.slice(0, dist).join('/') || '/' : resolve(here, '..', '..');
}
export const ARTIFACTS_DIR = join(repoRoot(), 'test-artifacts');

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export interface TestBrowser {
  context: BrowserContext;
  /** A new tab; its console errors and page errors are collected in `errors`. */
  newPage(): Promise<Page>;
  /** Console errors and uncaught page errors seen in any tab so far. */
  errors: string[];
  close(): Promise<void>;
}

/**
 * Launches /usr/bin/chromium headless with a fresh profile (a mkdtemp user-data-dir, removed on close).
 *
 * @example
 * const browser = await launchBrowser();
 * const page = await browser.newPage();
 * await page.goto(server.url);
 * await screenshot(page, 'clusters');
 * await browser.close();
 */
export async function launchBrowser(
  options: { viewport?: { width: number; height: number } } = {},
): Promise<TestBrowser> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'instantstart-chromium-'));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: ARGS,
      viewport: options.viewport ?? { width: 1440, height: 1000 },
    });
  } catch (err) {
    rmSync(userDataDir, { recursive: true, force: true });
    throw err;
  }
  const errors: string[] = [];
  const watch = (page: Page) => {
    page.on('console', (m: ConsoleMessage) => {
      // Chromium logs every 4xx/5xx answer as "Failed to load resource"; tests that expect a refusal
      // check the response itself, so only the app's own errors count here.
      if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(`console: ${m.text()}`);
    });
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  };
  context.pages().forEach(watch);
  context.on('page', watch);
  return {
    context,
    errors,
    async newPage() {
      // The persistent context opens with one blank tab; use it first.
      const blank = context.pages().find((p) => p.url() === 'about:blank');
      return blank ?? context.newPage();
    },
    async close() {
      await context.close().catch(() => undefined);
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Saves a full-page PNG as test-artifacts/<name>.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const path = join(ARTIFACTS_DIR, `${name.replace(/[^A-Za-z0-9._-]+/g, '-')}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
