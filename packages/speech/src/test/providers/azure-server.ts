import type { VoiceEffect } from '@parla/contract';
import { listen, type ProviderResponse, readBody, speak, wavOf } from './speak.js';

/** Azure's style names as the speaking styles our espeak-ng presets render. */
const STYLE_EFFECTS: Record<string, VoiceEffect> = {
  chat: 'conversational',
  newscast: 'news',
  customerservice: 'customersupport',
  assistant: 'assistant',
  empathetic: 'empathic',
  calm: 'calm',
  cheerful: 'happy',
  sad: 'sad',
  angry: 'angry',
  excited: 'excited',
  friendly: 'friendly',
  hopeful: 'hopeful',
  shouting: 'shouting',
  terrified: 'terrified',
  unfriendly: 'unfriendly',
};

/**
 * A local server that speaks Azure Speech's text-to-speech REST API as its reference documents
 * it, for tests: `GET /cognitiveservices/voices/list` (voices with their `StyleList`) and `POST
 * /cognitiveservices/v1` (SSML with `<voice name>`, `X-Microsoft-OutputFormat`), the key in
 * `Ocp-Apim-Subscription-Key` (401 without the right one), 400 for SSML it cannot read, 415
 * for another content type, 429 when throttled. Every request is recorded.
 */

export interface FakeAzureVoice {
  Name: string;
  DisplayName: string;
  LocalName: string;
  ShortName: string;
  Gender: 'Female' | 'Male';
  Locale: string;
  LocaleName: string;
  StyleList?: string[];
  SampleRateHertz: string;
  VoiceType: 'Neural';
  Status: 'GA';
}

function voice(
  short: string,
  gender: 'Female' | 'Male',
  locale: string,
  localeName: string,
  styles?: string[],
): FakeAzureVoice {
  const display = short.split('-')[2]?.replace('Neural', '') ?? short;
  return {
    Name: `Microsoft Server Speech Text to Speech Voice (${locale}, ${short.split('-')[2]})`,
    DisplayName: display,
    LocalName: display,
    ShortName: short,
    Gender: gender,
    Locale: locale,
    LocaleName: localeName,
    ...(styles && { StyleList: styles }),
    SampleRateHertz: '24000',
    VoiceType: 'Neural',
    Status: 'GA',
  };
}

export const AZURE_TEST_VOICES: FakeAzureVoice[] = [
  voice('en-US-JennyNeural', 'Female', 'en-US', 'English (United States)', [
    'assistant',
    'chat',
    'customerservice',
    'newscast',
    'angry',
    'cheerful',
    'sad',
    'excited',
    'friendly',
    'terrified',
    'shouting',
    'unfriendly',
    'whispering',
    'hopeful',
  ]),
  voice('en-US-GuyNeural', 'Male', 'en-US', 'English (United States)', [
    'newscast',
    'angry',
    'cheerful',
    'sad',
  ]),
  voice('de-DE-KatjaNeural', 'Female', 'de-DE', 'German (Germany)'),
];

export interface RecordedAzureCall {
  path: string;
  outputFormat?: string;
  ssml?: string;
  status: number;
}

export interface FakeAzure {
  url: string;
  key: string;
  calls: RecordedAzureCall[];
  fail(count: number): void;
  close(): Promise<void>;
}

export async function startFakeAzure(): Promise<FakeAzure> {
  const key = 'azure-parla-test-key';
  const calls: RecordedAzureCall[] = [];
  let failures = 0;
  const answer = (response: ProviderResponse, status: number, text = '') => {
    response.writeHead(status, { 'content-type': 'text/plain' });
    response.end(text);
    return status;
  };
  const server = await listen(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const body = (await readBody(request)).toString();
    const outputFormat = request.headers['x-microsoft-outputformat'];
    const record = (status: number) => {
      calls.push({
        path: url.pathname,
        ...(typeof outputFormat === 'string' && { outputFormat }),
        ...(body && { ssml: body }),
        status,
      });
    };
    if (request.headers['ocp-apim-subscription-key'] !== key) return record(answer(response, 401));
    if (failures > 0) {
      failures -= 1;
      return record(answer(response, 429, 'Too many requests'));
    }
    if (request.method === 'GET' && url.pathname === '/cognitiveservices/voices/list') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(AZURE_TEST_VOICES));
      return record(200);
    }
    if (request.method !== 'POST' || url.pathname !== '/cognitiveservices/v1') {
      return record(answer(response, 404));
    }
    if (request.headers['content-type'] !== 'application/ssml+xml')
      return record(answer(response, 415));
    if (
      outputFormat !== 'riff-24khz-16bit-mono-pcm' &&
      outputFormat !== 'raw-24khz-16bit-mono-pcm'
    ) {
      return record(answer(response, 400, `Unsupported output format: ${outputFormat}`));
    }
    const name = /<voice name="([^"]+)">/.exec(body)?.[1];
    const chosen = AZURE_TEST_VOICES.find((v) => v.ShortName === name);
    if (
      !/^<speak version="1\.0" xmlns="http:\/\/www\.w3\.org\/2001\/10\/synthesis"/.test(body) ||
      !chosen
    ) {
      return record(answer(response, 400, 'The SSML is not valid or names no voice.'));
    }
    // The text Azure would speak: the SSML without its tags and entities.
    const text = body
      .replace(/<[^>]*>/g, ' ')
      .replaceAll('&lt;', '<')
      .replaceAll('&gt;', '>')
      .replaceAll('&quot;', '"')
      .replaceAll('&apos;', "'")
      .replaceAll('&amp;', '&')
      .replace(/\s+/g, ' ')
      .trim();
    // A style the voice has changes how it speaks (here: our preset of that style).
    const style = /<mstts:express-as style="([^"]+)"/.exec(body)?.[1];
    const effect = style && chosen.StyleList?.includes(style) ? STYLE_EFFECTS[style] : undefined;
    const spoken = await speak(text, chosen.Locale, 24_000, effect ?? null);
    response.writeHead(200, { 'content-type': 'audio/x-wav' });
    response.end(outputFormat.startsWith('riff') ? wavOf(spoken.pcm, 24_000) : spoken.pcm);
    return record(200);
  });
  return {
    url: server.url,
    key,
    calls,
    fail(count) {
      failures = count;
    },
    close: server.close,
  };
}
