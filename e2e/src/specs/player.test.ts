import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible, expectNoPageErrors, useBrowser, visit } from '../harness/browser.js';
import { newUser, setTokenCookie } from '../harness/users.js';

/**
 * Issue 33, item 5: a player that tells the truth while audio streams. The page's network is
 * slowed (chromium's own throttling) so that the audio arrives over seconds: meanwhile the
 * duration shown grows and is never below the position, and the waveform is drawn; once it
 * has all arrived, the playing element is not reloaded while it plays, and its position never
 * jumps back.
 */

const session = useBrowser();

const TEXT = [
  'The lighthouse keeper climbed the stairs every evening before the sun went down.',
  'He lit the lamp, wound the clock and wrote the weather into his book.',
  'Ships passed far out at sea, and none of them knew his name.',
  'One winter night a storm came in from the west and the rain hid the rocks.',
  'A small boat was pushed toward the shore, its sail torn and its lantern out.',
  'The keeper turned the great lens by hand until the beam found the boat.',
  'In the morning the sea was calm again, and the boat was safe in the harbour.',
].join(' ');

interface Sample {
  busy: boolean;
  text: string;
  current: number;
  playing: boolean;
  tall: boolean;
}

interface Watched {
  samples: Sample[];
  /** emptied and loadstart events of the audio element, with the sample count at the time. */
  events: { type: string; at: number; playing: boolean; pausedByTest: boolean }[];
  pausedByTest: boolean;
}

/** Samples the player every 50 ms into window.__player. */
function watchPlayer(page: Page) {
  return page.evaluate(() => {
    const watched: Watched = { samples: [], events: [], pausedByTest: false };
    (window as unknown as { __player: Watched }).__player = watched;
    let playing = false;
    let audio: HTMLAudioElement | null = null;
    const tick = () => {
      const wave = document.querySelector('[data-testid="waveform"]');
      const element = document.querySelector('audio');
      if (element && element !== audio) {
        audio = element;
        element.addEventListener('play', () => {
          playing = true;
        });
        element.addEventListener('pause', () => {
          playing = false;
        });
        element.addEventListener('ended', () => {
          playing = false;
        });
        for (const type of ['emptied', 'loadstart']) {
          element.addEventListener(type, () =>
            watched.events.push({
              type,
              at: watched.samples.length,
              playing,
              pausedByTest: watched.pausedByTest,
            }),
          );
        }
      }
      const canvas = wave?.querySelector('canvas');
      if (wave && element) {
        let tall = false;
        if (canvas && canvas.width > 0 && canvas.height > 0) {
          // A bar reaching the top sixth of the canvas: real audio, not a baseline.
          const top = canvas
            .getContext('2d')
            ?.getImageData(0, 0, canvas.width, Math.max(1, Math.floor(canvas.height / 6)));
          tall = top?.data.some((value, index) => index % 4 === 3 && value > 0) ?? false;
        }
        watched.samples.push({
          busy: wave.closest('[aria-busy]')?.getAttribute('aria-busy') === 'true',
          text: document.querySelector('[data-testid="player-time"]')?.textContent ?? '',
          current: element.currentTime,
          playing: !element.paused && !element.ended,
          tall,
        });
      }
      setTimeout(tick, 50);
    };
    tick();
  });
}

const watched = (page: Page) =>
  page.evaluate(() => (window as unknown as { __player: Watched }).__player);

/** "1:05 / 2:10" → [65, 130]. */
function clock(text: string): [number, number] {
  const seconds = (part: string) =>
    part
      .trim()
      .split(':')
      .reduce((total, piece) => total * 60 + Number(piece), 0);
  const [time = '', duration = ''] = text.split('/');
  return [seconds(time), seconds(duration)];
}

describe.each([
  ['1440 px', { viewport: { width: 1440, height: 900 } }],
  ['360 px', { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true }],
])('the player while a conversion streams, at %s (issue 33, item 5)', (_, options) => {
  it('grows its duration and waveform as audio arrives, and is not reloaded while it plays', async () => {
    const user = await newUser('PREMIUM');
    const page = await session.newPage(options);
    await setTokenCookie(page, user.token, session.baseUrl);
    await visit(page, '/convertor');
    await page.getByRole('group', { name: 'Current voice' }).waitFor();
    await page.getByRole('textbox', { name: 'Text editor' }).click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.insertText(TEXT);
    await watchPlayer(page);
    // The audio (two readers: the element and the waveform) arrives over several seconds.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 20,
      downloadThroughput: 48_000,
      uploadThroughput: -1,
    });
    await page.getByRole('button', { name: 'Convert', exact: true }).click();
    const player = page.locator('[aria-busy]').filter({ has: page.getByTestId('waveform') });
    await player.and(page.locator('[aria-busy="true"]')).waitFor({ timeout: 30_000 });
    await player.and(page.locator('[aria-busy="false"]')).waitFor({ timeout: 90_000 });
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });

    const during = (await watched(page)).samples.filter((sample) => sample.busy);
    expect(during.length).toBeGreaterThan(5);
    // Never "0:02 / 0:00": the duration shown is at least the position, shown and real.
    for (const sample of during) {
      const [time, duration] = clock(sample.text);
      expect(duration).toBeGreaterThanOrEqual(time);
      expect(duration).toBeGreaterThanOrEqual(Math.floor(sample.current));
    }
    // It grows as the audio arrives, and never shrinks.
    const durations = during.map((sample) => clock(sample.text)[1]);
    for (let i = 1; i < durations.length; i += 1) {
      expect(durations[i]).toBeGreaterThanOrEqual(durations[i - 1] as number);
    }
    expect(new Set(durations.filter((d) => d > 0)).size).toBeGreaterThan(1);
    // The waveform is drawn before the stream ends (no grey block).
    expect(during.some((sample) => sample.tall)).toBe(true);
    // It played as soon as audio came (Convert was a click).
    expect(during.some((sample) => sample.playing)).toBe(true);

    // Complete, still playing: let it play on, then look at what happened meanwhile.
    await page.waitForFunction(() => {
      const audio = document.querySelector('audio');
      return audio && !audio.paused && audio.currentTime > 0;
    });
    const completeAt = (await watched(page)).samples.length;
    await page.waitForFunction((from) => {
      const samples = (window as unknown as { __player: Watched }).__player.samples;
      return samples.length > from + 20;
    }, completeAt);
    const after = await watched(page);
    const reloads = after.events.filter(
      (event) => event.at >= completeAt && !event.pausedByTest && event.playing,
    );
    expect(reloads).toEqual([]);
    const positions = after.samples
      .slice(completeAt)
      .filter((sample) => sample.playing)
      .map((sample) => sample.current);
    expect(positions.length).toBeGreaterThan(5);
    for (let i = 1; i < positions.length; i += 1) {
      expect(positions[i]).toBeGreaterThanOrEqual(positions[i - 1] as number);
    }
    const [, whole] = clock(after.samples.at(-1)?.text ?? '');
    expect(whole).toBeGreaterThan(10);

    // Paused, it may move to the stored file: the clock does not flash back to 0:00.
    await page.evaluate(() => {
      (window as unknown as { __player: Watched }).__player.pausedByTest = true;
    });
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    const pausedAt = (await watched(page)).samples.length;
    await page.waitForFunction(
      (from) => (window as unknown as { __player: Watched }).__player.samples.length > from + 20,
      pausedAt,
    );
    const paused = (await watched(page)).samples.slice(pausedAt);
    const [stoppedAt] = clock(paused[0]?.text ?? '');
    expect(stoppedAt).toBeGreaterThan(0);
    for (const sample of paused) expect(clock(sample.text)).toEqual(clock(paused[0]?.text ?? ''));
    // And it seeks (the stored file answers ranges): the waveform's middle is half-way.
    const wave = page.getByRole('slider', { name: 'Seek' });
    const box = await wave.boundingBox();
    if (!box) throw new Error('The waveform has no box.');
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await expect
      .poll(() => page.evaluate(() => document.querySelector('audio')?.currentTime ?? 0))
      .toBeGreaterThan(whole / 2 - 2);
    await expectAccessible(page);
    expectNoPageErrors(page);
  });
});

describe('the player in Arabic on a phone, 360 px (issue 33, item 5)', () => {
  it('fits the screen, runs left to right with 44 px targets, and speaks Arabic', async () => {
    const page = await session.newPage({
      viewport: { width: 360, height: 740 },
      isMobile: true,
      hasTouch: true,
    });
    await visit(page, '/ar/convertor');
    await page.getByRole('group', { name: 'الصوت الحالي' }).waitFor();
    // The sample text, in Arabic, converted.
    await page.getByRole('button', { name: 'تحويل', exact: true }).click();
    const player = page.locator('[aria-busy]').filter({ has: page.getByTestId('waveform') });
    await player.and(page.locator('[aria-busy="false"]')).waitFor({ timeout: 30_000 });
    await page.evaluate(() => document.querySelector('audio')?.pause());
    const play = page.getByRole('button', { name: 'تشغيل', exact: true });
    await play.waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');

    // Media controls run left to right in every language (issue 18 item 2); on a phone the
    // waveform has a row of its own.
    const back = page.getByRole('button', { name: /^الرجوع/ });
    const forward = page.getByRole('button', { name: /^التقدّم/ });
    const wave = page.getByRole('slider', { name: 'الموضع' });
    const speed = page.getByRole('combobox', { name: 'سرعة التشغيل' });
    const boxes = await Promise.all([back, play, forward, wave].map((at) => at.boundingBox()));
    const xs = boxes.slice(0, 3).map((box) => box?.x ?? Number.NaN);
    expect([...xs].sort((a, b) => a - b)).toEqual(xs);
    // All of it on the screen, nothing to scroll sideways.
    for (const box of [...boxes, await speed.boundingBox()]) {
      expect(box?.x).toBeGreaterThanOrEqual(0);
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(360);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      360,
    );
    // 44 px touch targets (DESIGN.md).
    for (const target of [back, play, forward, speed]) {
      const box = await target.boundingBox();
      expect(box && Math.min(box.width, box.height)).toBeGreaterThanOrEqual(44);
    }
    // The clock reads as digits, its spoken position in Arabic; the waveform is drawn.
    expect(await player.getByTestId('player-time').textContent()).toMatch(
      /^\d+:\d{2} \/ \d+:\d{2}$/,
    );
    expect(await wave.getAttribute('aria-valuetext')).toMatch(/^\d+:\d{2} من \d+:\d{2}$/);
    expect(
      await page.evaluate(() => {
        const canvas = document.querySelector<HTMLCanvasElement>('[data-testid="waveform"] canvas');
        const pixels = canvas?.getContext('2d')?.getImageData(0, 0, canvas.width, canvas.height);
        return pixels?.data.some((value, index) => index % 4 === 3 && value > 0) ?? false;
      }),
    ).toBe(true);
    // It plays, and pauses.
    await play.click();
    await page.getByRole('button', { name: 'إيقاف مؤقت', exact: true }).click();
    await play.waitFor();
    await expectAccessible(page);
    expectNoPageErrors(page);
  });
});
