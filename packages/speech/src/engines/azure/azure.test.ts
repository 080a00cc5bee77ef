import { VOICE_EFFECTS } from '@parla/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { decodeWav } from '../../../test/audio.js';
import {
  AZURE_SYNTHESIS_PATH,
  type FakeAzure,
  startFakeAzure,
} from '../../../test/providers/azure-server.js';
import { request } from '../../../test/request.js';
import { SpeechError } from '../../errors.js';
import { AZURE_STYLES } from '../../ssml/azure-styles.js';
import { synthesize } from '../../synthesize.js';
import { listVoices } from '../../voices.js';
import type { SpeechConfig } from '../registry.js';
import { FAILURES_TO_MARK } from '../remote/provider.js';

let azure: FakeAzure;
let round = 0;
beforeAll(async () => {
  azure = await startFakeAzure();
});
afterAll(() => azure.close());

function configOf(key = azure.key): SpeechConfig {
  round += 1;
  return {
    espeak: { backend: 'wasm' },
    azure: { key, region: 'westeurope', endpoint: azure.url, concurrency: 2 + round },
  };
}

/** A WAV of `text` in one of the test server's voices. */
const speakAs = (voice: string, text: string, speechConfig: SpeechConfig) =>
  synthesize(
    request({ engine: 'neural', voice_id: `neural:azure:${voice}`, text, output_format: 'wav' }),
    speechConfig,
  );

const synthesisCalls = () =>
  azure.calls.filter((call) => call.path === AZURE_SYNTHESIS_PATH && call.ssml);

describe('the Azure Speech engine', () => {
  let config: SpeechConfig;
  beforeAll(() => {
    config = configOf();
  });

  it('lists neural voices with the SPEC styles each has, and only those', async () => {
    const voices = (await listVoices(config))
      .flatMap((l) => l.voices)
      .filter((v) => v.provider === 'azure');
    expect(voices.map((v) => v.id).sort()).toEqual([
      'neural:azure:de-DE-KatjaNeural',
      'neural:azure:en-US-GuyNeural',
      'neural:azure:en-US-JennyNeural',
    ]);
    const jenny = voices.find((v) => v.id === 'neural:azure:en-US-JennyNeural');
    expect(jenny).toMatchObject({ name: 'Jenny', gender: 'female', engine: 'neural' });
    // Jenny has 14 styles; 13 of them are SPEC's (whispering is not a SPEC style).
    expect(jenny?.effects).toEqual(
      VOICE_EFFECTS.filter((effect) =>
        [
          'conversational',
          'news',
          'customersupport',
          'assistant',
          'happy',
          'sad',
          'angry',
          'excited',
          'friendly',
          'hopeful',
          'shouting',
          'terrified',
          'unfriendly',
        ].includes(effect),
      ),
    );
    expect(voices.find((v) => v.id === 'neural:azure:en-US-GuyNeural')?.effects).toEqual([
      'news',
      'happy',
      'sad',
      'angry',
    ]);
    expect(voices.find((v) => v.id === 'neural:azure:de-DE-KatjaNeural')?.effects).toEqual([]);
  });

  it("maps SPEC's fifteen styles to Azure's names, and whispered to none (a standard effect)", () => {
    expect(Object.keys(AZURE_STYLES)).toHaveLength(15);
    expect(AZURE_STYLES).toMatchObject({
      news: 'newscast',
      happy: 'cheerful',
      empathic: 'empathetic',
    });
    expect(AZURE_STYLES.whispered).toBeUndefined();
  });

  it.each(Object.entries(AZURE_STYLES))(
    'sends the %s style as mstts:express-as style="%s"',
    async (effect, style) => {
      azure.calls.length = 0;
      const result = await synthesize(
        request({
          engine: 'neural',
          voice_id: 'neural:azure:en-US-JennyNeural',
          text: 'What a day it has been.',
          effect: effect as never,
          output_format: 'wav',
        }),
        config,
      );
      const [call] = synthesisCalls();
      const has = ['calm', 'empathic'].includes(effect) === false;
      if (has) {
        expect(call?.ssml).toContain(
          `<mstts:express-as style="${style}"><prosody rate="1">What a day it has been.</prosody></mstts:express-as>`,
        );
      } else {
        // A style the voice lacks is not sent, and the answer says so.
        expect(call?.ssml).not.toContain('express-as');
        expect(
          result.warnings.some((w) => w.message.includes(`The ${effect} effect is not available`)),
        ).toBe(true);
      }
      expect(call?.outputFormat).toBe('raw-24khz-16bit-mono-pcm');
      expect(result.duration).toBeGreaterThan(0.5);
    },
  );

  it("renders real speech with prosody, and takes word and bookmark times from Azure's boundaries", async () => {
    azure.calls.length = 0;
    const result = await speakAs(
      'en-US-GuyNeural',
      '<speak><prosody pitch="+2st" rate="150%">Quick <mark name="m1"/> words &amp; more.</prosody></speak>',
      config,
    );
    const [call] = synthesisCalls();
    const ssml = call?.ssml ?? '';
    expect(ssml).toMatch(
      /^<speak version="1.0" xmlns="http:\/\/www.w3.org\/2001\/10\/synthesis" xmlns:mstts="https:\/\/www.w3.org\/2001\/mstts" xml:lang="en-US"><voice name="en-US-GuyNeural">/,
    );
    expect(ssml).toContain(
      '<prosody rate="1.5" pitch="+2st">Quick <bookmark mark="m1"/> words &amp; more.</prosody>',
    );
    // The SDK asked for word boundaries and bookmarks.
    const options = call?.metadataOptions ?? {};
    expect([String(options.wordBoundaryEnabled), String(options.bookmarkEnabled)]).toEqual([
      'true',
      'true',
    ]);
    const decoded = decodeWav(result.audio);
    expect(decoded.samples.length).toBeGreaterThan(0.3 * decoded.sampleRate);
    // Each word where Azure said it starts (its 100-ns ticks in seconds, to a twentieth of a
    // millisecond: no estimate comes that close); the sentence's full stop, a punctuation
    // boundary, is not a word.
    const sent = call?.boundaries ?? [];
    expect(sent.some((b) => b.type === 'PunctuationBoundary')).toBe(true);
    const words = result.marks.filter((m) => m.type === 'word');
    expect(words.map((m) => m.text)).toEqual(['Quick', 'words', '&', 'more']);
    const sentWords = sent.filter((b) => b.type === 'WordBoundary');
    expect(sentWords).toHaveLength(4);
    words.forEach((word, i) => {
      expect(word.start).toBeCloseTo((sentWords[i]?.offset ?? 0) / 1e7, 4);
    });
    const bookmark = sent.find((b) => b.type === 'Bookmark');
    const mark = result.marks.find((m) => m.type === 'mark' && m.text === 'm1');
    expect(mark?.start).toBeCloseTo((bookmark?.offset ?? -1) / 1e7, 4);
    expect(mark?.start ?? 0).toBeGreaterThan(words[0]?.start ?? 1);
  });

  it('tells a text Azure refuses (socket closed with 1007) apart from Azure being down', async () => {
    const engineConfig = configOf();
    azure.refuse(FAILURES_TO_MARK + 1);
    for (let i = 0; i <= FAILURES_TO_MARK; i++) {
      const refused = await speakAs('en-US-GuyNeural', 'Fine words.', engineConfig).catch(
        (e: unknown) => e,
      );
      expect((refused as SpeechError).code).toBe('provider_unavailable');
      expect((refused as SpeechError).message).toMatch(/^Azure Speech could not render this text/);
    }
    expect(synthesisCalls().at(-1)?.status).toBe(1007);
    // A refused text is the text's problem: the voices stay available.
    const guy = (await listVoices(engineConfig))
      .flatMap((l) => l.voices)
      .find((v) => v.id === 'neural:azure:en-US-GuyNeural');
    expect(guy?.available).not.toBe(false);
  });

  it('gives up on an answer that does not come in time, and closes the connection', async () => {
    const slow: SpeechConfig = {
      ...config,
      azure: { key: azure.key, region: 'westeurope', endpoint: azure.url, timeoutMs: 300 },
    };
    azure.delayMs = 2000;
    try {
      const late = await speakAs('en-US-GuyNeural', 'Are you there?', slow).catch(
        (e: unknown) => e,
      );
      expect((late as SpeechError).code).toBe('provider_unavailable');
      expect((late as SpeechError).message).toMatch(/^Azure Speech did not answer in time/);
      // The SDK's connection was closed, so the late answer goes nowhere.
      await vi.waitFor(() => expect(synthesisCalls().at(-1)?.status).toBe(499), {
        timeout: 5000,
      });
    } finally {
      azure.delayMs = 0;
    }
  });

  it('fails clearly on a wrong key and on throttling', async () => {
    const wrong = await listVoices(configOf('nope')).catch((e: unknown) => e);
    expect((wrong as SpeechError).code).toBe('provider_unavailable');
    expect((wrong as SpeechError).message).toMatch(
      /^Azure Speech refused this server's credentials/,
    );
    azure.fail(3);
    const busy = await speakAs('de-DE-KatjaNeural', 'Hallo.', config).catch((e: unknown) => e);
    expect(busy).toBeInstanceOf(SpeechError);
    expect((busy as SpeechError).message).toMatch(/^Azure Speech is busy right now/);
    azure.fail(0);
  });
});
