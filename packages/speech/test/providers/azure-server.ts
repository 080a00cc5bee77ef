import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { VoiceEffect } from '@parla/contract';
import { type WebSocket, WebSocketServer } from 'ws';
import { listen, type ProviderResponse, readBody, speak } from './speak.js';

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
 * A local server that speaks Azure Speech as its official Speech SDK reaches it, for tests:
 * - the REST voices list, `GET /cognitiveservices/voices/list` (voices with their
 *   `StyleList`), the key in `Ocp-Apim-Subscription-Key`;
 * - synthesis over the Speech service's WebSocket protocol at
 *   `/tts/cognitiveservices/websocket/v1`: text messages are header lines (`Path`,
 *   `X-RequestId`, `Content-Type`), a blank line and a body; binary messages are the headers'
 *   length in two big-endian bytes, the headers and the audio (the framing of Microsoft's
 *   Speech WebSocket protocol reference). The client sends `speech.config`,
 *   `synthesis.context` (output format, which metadata it wants) and `ssml`; the service
 *   answers `turn.start`, `response` (the audio's stream id), `audio.metadata` (word
 *   boundaries, offsets in 100-ns ticks; bookmarks; the session's end), `audio` and
 *   `turn.end`.
 * The upgrade is refused with 401 without the right key and 429 when throttled; SSML the
 * service cannot read or an unknown output format closes the socket with 1007. Every request
 * is recorded.
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

export const AZURE_SYNTHESIS_PATH = '/tts/cognitiveservices/websocket/v1';
const OUTPUT_FORMATS = new Set(['raw-24khz-16bit-mono-pcm', 'riff-24khz-16bit-mono-pcm']);
const TICKS_PER_MS = 10_000;
/** Bytes of PCM per `audio` message (100 ms at 24 kHz). */
const AUDIO_CHUNK = 4800;

export interface AzureBoundary {
  /** From the start of the audio, in 100-ns ticks. */
  offset: number;
  text: string;
  type: 'WordBoundary' | 'PunctuationBoundary' | 'Bookmark';
}

export interface RecordedAzureCall {
  path: string;
  outputFormat?: string;
  ssml?: string;
  /** What `synthesis.context` asked for. */
  metadataOptions?: Record<string, unknown>;
  /** The word boundaries and bookmarks sent back. */
  boundaries?: AzureBoundary[];
  /**
   * The HTTP status; for a synthesis refused after the upgrade, the WebSocket close code; 499
   * when the client closed the connection before the answer.
   */
  status: number;
}

export interface FakeAzure {
  url: string;
  key: string;
  calls: RecordedAzureCall[];
  /** The next `count` requests are throttled (429). */
  fail(count: number): void;
  /** The next `count` syntheses are refused as SSML the service cannot read (1007). */
  refuse(count: number): void;
  /** A synthesis waits this long before its first answer (a slow service). */
  delayMs: number;
  close(): Promise<void>;
}

/** A text message of the protocol. */
function textMessage(path: string, requestId: string, body: unknown): string {
  return `X-RequestId:${requestId}\r\nContent-Type:application/json; charset=utf-8\r\nPath:${path}\r\n\r\n${JSON.stringify(body)}`;
}

/** An `audio` message: the headers' length, the headers, the PCM. */
function audioMessage(requestId: string, streamId: string, pcm: Buffer): Buffer {
  const headers = Buffer.from(
    `X-RequestId:${requestId}\r\nX-StreamId:${streamId}\r\nContent-Type:audio/x-wav\r\nPath:audio\r\n`,
    'ascii',
  );
  const length = Buffer.alloc(2);
  length.writeUInt16BE(headers.length);
  return Buffer.concat([length, headers, pcm]);
}

/** The headers (names in lower case) and body of a text message. */
function parseTextMessage(data: string): { headers: Record<string, string>; body: string } {
  const split = data.indexOf('\r\n\r\n');
  const head = split < 0 ? data : data.slice(0, split);
  const headers: Record<string, string> = {};
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0)
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body: split < 0 ? '' : data.slice(split + 4) };
}

/**
 * What Azure speaks of an SSML document, as our SSML for the test speech: the text with its
 * entities, each `<bookmark>` as a `<mark>` (so that its time is known), other tags dropped.
 */
function spokenSsml(ssml: string): string {
  const inner = /<voice name="[^"]+">([\s\S]*)<\/voice>/.exec(ssml)?.[1] ?? '';
  // Text and bookmark names alternate in the split.
  const text = inner
    .split(/<bookmark mark="([^"]*)"\/>/)
    .map((piece, i) => (i % 2 ? `<mark name="${piece}"/>` : piece.replace(/<[^>]*>/g, ' ')))
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
  return `<speak>${text}</speak>`;
}

export async function startFakeAzure(): Promise<FakeAzure> {
  const key = 'azure-parla-test-key';
  const calls: RecordedAzureCall[] = [];
  let failures = 0;
  let refusals = 0;
  const answer = (response: ProviderResponse, status: number, text = '') => {
    response.writeHead(status, { 'content-type': 'text/plain' });
    response.end(text);
    return status;
  };

  const synthesize = async (
    socket: WebSocket,
    requestId: string,
    ssml: string,
    audio: { outputFormat?: string; metadataOptions?: Record<string, unknown> },
  ) => {
    const call: RecordedAzureCall = {
      path: AZURE_SYNTHESIS_PATH,
      ssml,
      ...(audio.outputFormat && { outputFormat: audio.outputFormat }),
      ...(audio.metadataOptions && { metadataOptions: audio.metadataOptions }),
      status: 200,
    };
    calls.push(call);
    const refuse = (reason: string) => {
      call.status = 1007;
      socket.close(1007, reason);
    };
    if (refusals > 0) {
      refusals -= 1;
      return refuse('The SSML could not be synthesized.');
    }
    if (!audio.outputFormat || !OUTPUT_FORMATS.has(audio.outputFormat)) {
      return refuse(`Unsupported output format: ${audio.outputFormat}`);
    }
    const name = /<voice name="([^"]+)">/.exec(ssml)?.[1];
    const chosen = AZURE_TEST_VOICES.find((v) => v.ShortName === name);
    if (
      !/^<speak version="1\.0" xmlns="http:\/\/www\.w3\.org\/2001\/10\/synthesis"/.test(ssml) ||
      !chosen
    ) {
      return refuse('The SSML is not valid or names no voice.');
    }
    // Azure's <phoneme> takes the ipa, sapi and ups alphabets, with a ph ("Use phonemes to
    // improve pronunciation"); X-SAMPA or a missing ph is invalid SSML.
    for (const phoneme of ssml.matchAll(/<phoneme\b([^>]*)>/g)) {
      const alphabet = /\balphabet="([^"]*)"/.exec(phoneme[1] ?? '')?.[1] ?? '';
      if (!/\bph="[^"]+"/.test(phoneme[1] ?? '') || !['ipa', 'sapi', 'ups'].includes(alphabet)) {
        return refuse('The SSML is not valid: unsupported phoneme alphabet.');
      }
    }
    // A style the voice has changes how it speaks (here: our preset of that style).
    const style = /<mstts:express-as style="([^"]+)"/.exec(ssml)?.[1];
    const effect = style && chosen.StyleList?.includes(style) ? STYLE_EFFECTS[style] : undefined;
    const spoken = await speak(spokenSsml(ssml), chosen.Locale, 24_000, effect ?? null);
    if (fake.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, fake.delayMs));
    // The client gave up and closed the connection first (499, as proxies log it).
    if (socket.readyState !== socket.OPEN) {
      call.status = 499;
      return;
    }
    const serviceTag = `tag-${requestId}`;
    const streamId = `stream-${requestId}`;
    socket.send(textMessage('turn.start', requestId, { context: { serviceTag } }));
    socket.send(
      textMessage('response', requestId, {
        context: { serviceTag },
        audio: { type: 'inline', streamId },
      }),
    );
    // The SDK sends these flags as booleans or as "true"/"false".
    const wants = (option: string) => String(audio.metadataOptions?.[option]) === 'true';
    const boundaries: AzureBoundary[] = [];
    /** Sends one `audio.metadata` message of a word or punctuation boundary. */
    const boundary = (
      offset: number,
      duration: number,
      text: string,
      type: 'WordBoundary' | 'PunctuationBoundary',
    ) => {
      boundaries.push({ offset, text, type });
      socket.send(
        textMessage('audio.metadata', requestId, {
          Metadata: [
            {
              Type: 'WordBoundary',
              Data: {
                Offset: offset,
                Duration: duration,
                text: { Text: text, Length: text.length, BoundaryType: type },
              },
            },
          ],
        }),
      );
    };
    spoken.marks.forEach((mark, i) => {
      const offset = mark.time * TICKS_PER_MS;
      if (mark.type === 'ssml' && wants('bookmarkEnabled')) {
        boundaries.push({ offset, text: mark.value, type: 'Bookmark' });
        socket.send(
          textMessage('audio.metadata', requestId, {
            Metadata: [{ Type: 'Bookmark', Data: { Offset: offset, Bookmark: mark.value } }],
          }),
        );
      } else if (mark.type === 'word' && wants('wordBoundaryEnabled')) {
        const next = spoken.marks.slice(i + 1).find((m) => m.type === 'word');
        const duration = ((next?.time ?? mark.time + 300) - mark.time) * TICKS_PER_MS;
        boundary(offset, duration, mark.value, 'WordBoundary');
      }
    });
    // A sentence's closing punctuation is a boundary of its own, as Azure reports it.
    const last = spoken.marks.filter((m) => m.type === 'word').at(-1);
    if (
      last &&
      wants('punctuationBoundaryEnabled') &&
      /[.!?]\s*<\/speak>$/.test(spokenSsml(ssml))
    ) {
      boundary((last.time + 250) * TICKS_PER_MS, 0, '.', 'PunctuationBoundary');
    }
    call.boundaries = boundaries;
    for (let at = 0; at < spoken.pcm.length; at += AUDIO_CHUNK) {
      socket.send(audioMessage(requestId, streamId, spoken.pcm.subarray(at, at + AUDIO_CHUNK)));
    }
    const total = Math.round((spoken.pcm.length / 2 / 24_000) * 1000) * TICKS_PER_MS;
    socket.send(
      textMessage('audio.metadata', requestId, {
        Metadata: [{ Type: 'SessionEnd', Data: { Offset: total } }],
      }),
    );
    socket.send(textMessage('turn.end', requestId, {}));
  };

  const sockets = new WebSocketServer({ noServer: true });
  sockets.on('connection', (socket: WebSocket) => {
    let audio: { outputFormat?: string; metadataOptions?: Record<string, unknown> } = {};
    socket.on('message', (data, isBinary) => {
      if (isBinary) return;
      const { headers, body } = parseTextMessage(data.toString());
      const requestId = headers['x-requestid'] ?? '';
      const path = headers.path?.toLowerCase();
      if (path === 'synthesis.context') {
        audio =
          (JSON.parse(body) as { synthesis?: { audio?: typeof audio } }).synthesis?.audio ?? {};
      } else if (path === 'ssml') {
        synthesize(socket, requestId, body, audio).catch((error: unknown) =>
          socket.close(1011, String(error).slice(0, 100)),
        );
      }
    });
  });
  const refuseUpgrade = (socket: Socket, status: number, text: string) => {
    calls.push({ path: AZURE_SYNTHESIS_PATH, status });
    socket.end(`HTTP/1.1 ${status} ${text}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
  };
  const upgrade = (request: IncomingMessage, socket: Socket, head: Buffer) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== AZURE_SYNTHESIS_PATH) return refuseUpgrade(socket, 404, 'Not Found');
    if (request.headers['ocp-apim-subscription-key'] !== key) {
      return refuseUpgrade(socket, 401, 'Unauthorized');
    }
    if (failures > 0) {
      failures -= 1;
      return refuseUpgrade(socket, 429, 'Too Many Requests');
    }
    sockets.handleUpgrade(request, socket, head, (ws) => sockets.emit('connection', ws, request));
  };

  const server = await listen(
    async (request, response) => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      await readBody(request);
      const record = (status: number) => {
        calls.push({ path: url.pathname, status });
      };
      if (request.headers['ocp-apim-subscription-key'] !== key) {
        return record(answer(response, 401));
      }
      if (failures > 0) {
        failures -= 1;
        return record(answer(response, 429, 'Too many requests'));
      }
      if (request.method === 'GET' && url.pathname === '/cognitiveservices/voices/list') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(AZURE_TEST_VOICES));
        return record(200);
      }
      return record(answer(response, 404));
    },
    { upgrade },
  );
  const fake: FakeAzure = {
    url: server.url,
    key,
    calls,
    delayMs: 0,
    fail(count) {
      failures = count;
    },
    refuse(count) {
      refusals = count;
    },
    async close() {
      sockets.close();
      await server.close();
    },
  };
  return fake;
}
