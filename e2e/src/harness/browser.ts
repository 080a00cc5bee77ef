import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults } from 'axe-core';
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type Page,
} from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, inject } from 'vitest';

/** Debian's chromium; never a downloaded browser. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** Violations of these impacts fail the page (issue 2, item 9). */
const FAILING_IMPACTS = new Set(['serious', 'critical']);

export interface BrowserSession {
  /** The built product under test, e.g. http://127.0.0.1:41234. */
  readonly baseUrl: string;
  readonly browser: Browser;
  /** A fresh context (no cookies) and page; closed after the test. */
  newPage(options?: BrowserContextOptions): Promise<Page>;
}

/** Problems a page reported: uncaught errors and console errors (CSP violations included). */
const pageProblems = new WeakMap<Page, string[]>();

function watch(page: Page): void {
  const problems: string[] = [];
  pageProblems.set(page, problems);
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const text = message.text();
    // A refused API call (401 for an expired token) is logged by chromium; the app handles it.
    if (text.startsWith('Failed to load resource')) return;
    problems.push(`console.error: ${text}`);
  });
}

/**
 * One chromium per spec file, launched headless (playwright gives every launch a fresh
 * temporary user data directory and removes it on close), and a fresh context per page so no
 * cookie leaks from one test into another.
 */
export function useBrowser(): BrowserSession {
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  const baseUrl = inject('baseUrl');

  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_ARGS,
    });
  });

  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
  });

  afterAll(async () => {
    await browser?.close();
  });

  return {
    baseUrl,
    get browser() {
      if (!browser) throw new Error('The browser is not started yet.');
      return browser;
    },
    async newPage(options: BrowserContextOptions = {}) {
      if (!browser) throw new Error('The browser is not started yet.');
      const context = await browser.newContext({
        baseURL: baseUrl,
        viewport: { width: 1280, height: 800 },
        colorScheme: 'light',
        // The theme respects reduced motion: axe then reads menus and alerts in their final
        // state, not half-way through a fade (where their text is below AA contrast).
        reducedMotion: 'reduce',
        ...options,
      });
      contexts.push(context);
      const page = await context.newPage();
      watch(page);
      return page;
    },
  };
}

/** Waits until the startup loader (about 1 s, SPEC §2 "Global") has faded out. */
export async function waitForApp(page: Page): Promise<void> {
  await page.getByTestId('page-loader').waitFor({ state: 'detached', timeout: 15_000 });
  await page.getByRole('heading', { level: 1 }).first().waitFor({ state: 'visible' });
}

/** Runs axe-core (injected from its npm package) and answers the serious and critical violations. */
export async function axeViolations(page: Page): Promise<string[]> {
  // evaluate() is not subject to the page's Content-Security-Policy, unlike a script tag.
  const hasAxe = await page.evaluate(() => 'axe' in window);
  if (!hasAxe) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document): Promise<AxeResults> } }).axe;
    const results = await axe.run(document);
    return results.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact ?? 'unknown',
      help: violation.help,
      targets: violation.nodes.slice(0, 5).map((node) => node.target.join(' ')),
    }));
  });
  return violations
    .filter((violation) => FAILING_IMPACTS.has(violation.impact))
    .map(
      (violation) =>
        `[${violation.impact}] ${violation.id}: ${violation.help} (${violation.targets.join(', ')})`,
    );
}

/** Fails the test when the page has a serious or critical axe violation. */
export async function expectAccessible(page: Page): Promise<void> {
  const violations = await axeViolations(page);
  expect(violations, `axe on ${page.url()}`).toEqual([]);
}

/** Fails the test when the page threw or logged an error. */
export function expectNoPageErrors(page: Page): void {
  expect(pageProblems.get(page) ?? [], `errors on ${page.url()}`).toEqual([]);
}

/**
 * Scrolls to each part of the page that loads when scrolled near (BelowFold) until it is there,
 * then back to the top: the page as a visitor who read it to the end has it.
 */
export async function revealBelowFold(page: Page): Promise<void> {
  // A handle, not a locator: a place can be replaced (its page re-rendered, or loaded by an
  // earlier scroll) between finding it and scrolling to it, and a detached element is then
  // simply gone, not an error.
  for (;;) {
    const place = await page.$('[data-below-fold]');
    if (!place) break;
    await place.evaluate((element) => element.scrollIntoView({ block: 'center' }));
    await page.waitForFunction((element) => !element.isConnected, place);
    await place.dispose();
  }
  await page.evaluate(() => window.scrollTo(0, 0));
}

/**
 * Opens a path of the product as a visitor would, waits for the app, and checks it with axe
 * (every page visited in e2e is checked, with its parts below the fold).
 */
export async function visit(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await waitForApp(page);
  await revealBelowFold(page);
  await expectAccessible(page);
}

/** The path (and query) of the page's URL. */
export function pathOf(page: Page): string {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
}
