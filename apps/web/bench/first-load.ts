/**
 * First load of the pages, as a first-time visitor's browser gets them (issue 18, item 5):
 * the built product (run `npm run build` first) in headless Debian chromium, with an empty
 * cache for each page. Prints, per page, the Largest Contentful Paint (and its element), the
 * Cumulative Layout Shift until the page has loaded, the JavaScript
 * transferred (brotli, as sent to chromium), the same scripts' gzip size (the target's unit,
 * from the build's .gz copies), the raw size of the render-blocking CSS (the stylesheets linked
 * in the HTML's head) and of all CSS loaded, and all bytes transferred; and each figure as a
 * ratio of its target (LCP 0.5 s, issue 33 item 9; 200 kB gzip of JavaScript; 100 kB raw of
 * render-blocking CSS). Run: npm run bench (apps/web); with
 * `-- --scripts`, also each page's scripts with their gzip sizes, largest first.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const SERVER = path.join(ROOT, 'apps/server/dist/server.js');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const PAGES = ['/', '/convertor', '/pricing', '/blog', '/fr/convertor', '/ar/convertor'];
const LCP_TARGET_MS = 500;
const CSS_TARGET_BYTES = 100 * 1024;
const JS_TARGET_BYTES = 200 * 1024;
const ASSETS = path.join(ROOT, 'apps/web/dist');

/** A built file's raw size. */
const rawSize = (pathname: string) => statSync(path.join(ASSETS, pathname)).size;

/** A built file's gzip size: its .gz copy, or itself when too small to have one. */
function gzipSize(pathname: string): number {
  const file = path.join(ASSETS, pathname);
  return existsSync(`${file}.gz`) ? statSync(`${file}.gz`).size : statSync(file).size;
}
const RUNS = 3;
const LIST_SCRIPTS = process.argv.includes('--scripts');

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function main() {
  if (!existsSync(SERVER) || !existsSync(path.join(ROOT, 'apps/web/dist/index.html'))) {
    throw new Error('The product is not built: run npm run build at the root first.');
  }
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'parla-bench-'));
  const server = spawn(process.execPath, [SERVER], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      // Benchmarks never reach the real model hosts.
      DEFAULT_VOICES: 'none',
    },
    stdio: 'inherit',
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    if (
      await fetch(`${base}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    console.info(
      `First load, empty cache, median of ${RUNS} (${cpus()[0]?.model ?? 'cpu'}, ${new Date().toISOString().slice(0, 10)})`,
    );
    console.info(
      'page              LCP ms  ×target(500)  CLS    JS br kB  JS gzip kB  ×target(200 gzip)  CSS blocking kB  ×target(100)  CSS all kB  all kB',
    );
    for (const page of PAGES) {
      // The stylesheets of the HTML's head block the first paint; the others come with code.
      const html = await (await fetch(`${base}${page}`)).text();
      const head = html.slice(0, html.search(/<\/head>/i));
      const blocking = [...head.matchAll(/<link\b[^>]*rel="stylesheet"[^>]*>/gi)].map(
        (match) => /href="([^"]+)"/.exec(match[0])?.[1] ?? '',
      );
      const blockingCss = blocking.reduce((sum, sheet) => sum + rawSize(sheet), 0);
      const runs: {
        lcp: number;
        cls: number;
        js: number;
        gzip: number;
        css: number;
        all: number;
      }[] = [];
      const elements: string[] = [];
      for (let run = 0; run < RUNS; run++) {
        const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
        const tab = await context.newPage();
        await tab.goto(`${base}${page}`, { waitUntil: 'networkidle' });
        const measured = await tab.evaluate(
          () =>
            new Promise<{
              lcp: number;
              element: string;
              cls: number;
              js: number;
              scripts: string[];
              styles: string[];
              all: number;
            }>((resolve) => {
              const entries = performance.getEntriesByType(
                'resource',
              ) as PerformanceResourceTiming[];
              const navigation = performance.getEntriesByType(
                'navigation',
              )[0] as PerformanceNavigationTiming;
              const scripts = entries.filter(
                (e) => e.initiatorType === 'script' || e.name.endsWith('.js'),
              );
              const js = scripts.reduce((sum, e) => sum + e.transferSize, 0);
              const all = entries.reduce((sum, e) => sum + e.transferSize, navigation.transferSize);
              // Layout shifts are observed only (not in the performance timeline's lists).
              let cls = 0;
              new PerformanceObserver((list) => {
                for (const shift of list.getEntries() as unknown as {
                  value: number;
                  hadRecentInput: boolean;
                }[]) {
                  if (!shift.hadRecentInput) cls += shift.value;
                }
              }).observe({ type: 'layout-shift', buffered: true });
              new PerformanceObserver((list) => {
                const last = list.getEntries().at(-1) as
                  | (PerformanceEntry & { element?: Element | null })
                  | undefined;
                // The element, or what it was when the app has replaced it (the static shell's).
                const element = last?.element;
                // The buffered shifts are delivered in a task of their own.
                setTimeout(
                  () =>
                    resolve({
                      lcp: last ? last.startTime : Number.NaN,
                      element: element
                        ? `${element.tagName.toLowerCase()} "${(element.textContent ?? '').trim().slice(0, 24)}"`
                        : 'replaced since',
                      cls,
                      js,
                      scripts: scripts.map((e) => new URL(e.name).pathname),
                      styles: entries
                        .filter((e) => new URL(e.name).pathname.endsWith('.css'))
                        .map((e) => new URL(e.name).pathname),
                      all,
                    }),
                  100,
                );
              }).observe({ type: 'largest-contentful-paint', buffered: true });
            }),
        );
        const gzip = measured.scripts.reduce((sum, script) => sum + gzipSize(script), 0);
        if (LIST_SCRIPTS && run === 0) {
          for (const script of [...measured.scripts].sort((a, b) => gzipSize(b) - gzipSize(a))) {
            console.info(`  ${(gzipSize(script) / 1024).toFixed(1).padStart(6)} kB  ${script}`);
          }
        }
        const css = measured.styles.reduce((sum, sheet) => sum + rawSize(sheet), 0);
        runs.push({
          lcp: measured.lcp,
          cls: measured.cls,
          js: measured.js,
          gzip,
          css,
          all: measured.all,
        });
        elements.push(measured.element);
        await context.close();
      }
      const median = (key: 'lcp' | 'cls' | 'js' | 'gzip' | 'css' | 'all') =>
        runs.map((r) => r[key]).sort((a, b) => a - b)[Math.floor(runs.length / 2)] ?? 0;
      const lcp = median('lcp');
      const gzip = median('gzip');
      console.info(
        `${page.padEnd(16)} ${lcp.toFixed(0).padStart(7)} ${(lcp / LCP_TARGET_MS).toFixed(2).padStart(13)} ${median('cls').toFixed(3).padStart(6)} ${(median('js') / 1024).toFixed(1).padStart(9)} ${(gzip / 1024).toFixed(1).padStart(11)} ${(gzip / JS_TARGET_BYTES).toFixed(2).padStart(18)} ${(blockingCss / 1024).toFixed(1).padStart(16)} ${(blockingCss / CSS_TARGET_BYTES).toFixed(2).padStart(13)} ${(median('css') / 1024).toFixed(1).padStart(11)} ${(median('all') / 1024).toFixed(1).padStart(7)}  LCP: ${[...new Set(elements)].join(' / ')}`,
      );
    }
  } finally {
    await browser.close();
    server.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
