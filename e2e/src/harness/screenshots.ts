import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pixelmatch from 'pixelmatch';
import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { expect } from 'vitest';

/** The reference images, committed beside the specs: e2e/screenshots/<name>.png. */
export const SCREENSHOTS_DIR = path.resolve(import.meta.dirname, '../../screenshots');

/**
 * `UPDATE_SCREENSHOTS=1 npm test -w @parla/e2e` writes every reference image anew (after a
 * change of layout that was meant); a missing reference is written outside CI and fails in it.
 */
const UPDATE = process.env.UPDATE_SCREENSHOTS === '1';
const IN_CI = process.env.CI === 'true';

/**
 * References are kept at half the size and in grey: a layout that moved, wrapped, overflowed or
 * lost a control shows as plainly, in a quarter of the pixels and a third of the bytes (colour
 * contrast is axe's to check, on every page visited).
 */
function layoutImage(screenshot: Buffer): PNG {
  const full = PNG.sync.read(screenshot);
  const width = full.width >> 1;
  const height = full.height >> 1;
  const half = new PNG({ width, height });
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      let luma = 0;
      for (const [dx, dy] of [
        [0, 0],
        [1, 0],
        [0, 1],
        [1, 1],
      ] as const) {
        const at = ((2 * y + dy) * full.width + 2 * x + dx) * 4;
        luma +=
          0.2126 * (full.data[at] ?? 0) +
          0.7152 * (full.data[at + 1] ?? 0) +
          0.0722 * (full.data[at + 2] ?? 0);
      }
      const at = (y * width + x) * 4;
      half.data.fill(Math.round(luma / 4), at, at + 3);
      half.data[at + 3] = 255;
    }
  }
  return half;
}

/** A grey image as a PNG of one 8-bit channel. */
const encode = (image: PNG) =>
  PNG.sync.write(image, { colorType: 0, inputHasAlpha: true, deflateLevel: 9 });

/**
 * How far a screenshot may stray from its reference: pixelmatch's colour distance per pixel
 * (anti-aliased edges are ignored), and a share of differing pixels of one in ten thousand. The
 * same chromium on the same fonts draws a page identically (0 pixels differ from run to run);
 * a button moved by 12 px differs in seven times that share.
 */
const PIXEL_THRESHOLD = 0.1;
const MAX_DIFFERING_SHARE = 0.0001;

let failuresDir: string | undefined;

/**
 * Compares the whole page, as a person scrolling it sees it, with its reference image: the
 * same size and at most MAX_DIFFERING_SHARE of its pixels different. On a mismatch the
 * screenshot and a picture of the differences are kept in a temporary folder that the failure
 * names.
 */
export async function expectScreenshot(page: Page, name: string): Promise<void> {
  // A page still loading (a loader or a skeleton showing: the sitemap's later languages, say)
  // is pictured once it has loaded, not at whatever moment the test got there.
  await page.waitForFunction(
    () =>
      !document.querySelector('.mantine-Loader-root, .mantine-Skeleton-root, [aria-busy="true"]'),
    undefined,
    { timeout: 15_000 },
  );
  await page.evaluate(() => document.fonts.ready);
  // Pictures below the fold load as a person scrolls to them (loading="lazy"): here all at
  // once, each whole and decoded before the picture of the page is taken.
  await page.evaluate(() =>
    Promise.all(
      Array.from(document.images, (image) => {
        image.loading = 'eager';
        return image.decode().catch(() => undefined);
      }),
    ),
  );
  const screenshot = await page.screenshot({
    fullPage: true,
    animations: 'disabled',
    caret: 'hide',
  });
  const got = layoutImage(screenshot);
  const reference = path.join(SCREENSHOTS_DIR, `${name}.png`);
  if (UPDATE || !existsSync(reference)) {
    expect(
      IN_CI && !UPDATE,
      `no reference image ${reference} (make it with UPDATE_SCREENSHOTS=1)`,
    ).toBe(false);
    mkdirSync(SCREENSHOTS_DIR, { recursive: true });
    writeFileSync(reference, encode(got));
    return;
  }
  const expected = PNG.sync.read(readFileSync(reference));
  const keep = () => {
    failuresDir ??= mkdtempSync(path.join(tmpdir(), 'parla-screenshots-'));
    writeFileSync(path.join(failuresDir, `${name}.png`), screenshot);
    writeFileSync(path.join(failuresDir, `${name}.layout.png`), encode(got));
    return failuresDir;
  };
  if (expected.width !== got.width || expected.height !== got.height) {
    const dir = keep();
    expect.fail(
      `${name}: ${got.width}×${got.height} px instead of the reference's ${expected.width}×${expected.height} (screenshot in ${dir})`,
    );
  }
  const diff = new PNG({ width: got.width, height: got.height });
  const differing = pixelmatch(expected.data, got.data, diff.data, got.width, got.height, {
    threshold: PIXEL_THRESHOLD,
  });
  const share = differing / (got.width * got.height);
  if (share > MAX_DIFFERING_SHARE) {
    const dir = keep();
    writeFileSync(path.join(dir, `${name}.diff.png`), PNG.sync.write(diff));
    expect.fail(
      `${name}: ${differing} pixels (${(share * 100).toFixed(2)} %) differ from the reference (screenshot and differences in ${dir})`,
    );
  }
}
