import { createHash, createHmac } from 'node:crypto';
import { SignatureV4 } from '@smithy/signature-v4';
import { joinBytes } from '../../src/encode/bytes.js';
import { createStreamEncoder, pcm16ToSamples } from '../../src/encode/encoders.js';
import { listen, type ProviderRequest, type ProviderResponse, readBody, speak } from './speak.js';

/**
 * A local server that speaks Amazon Polly's API as its reference documents it, for tests:
 * DescribeVoices (GET /v1/voices, paged with NextToken) and SynthesizeSpeech (POST
 * /v1/speech, restJson1: pcm, mp3 and ogg_vorbis bodies, newline-delimited JSON speech marks),
 * requests signed with Signature Version 4 (checked against the test's secret), errors as Polly
 * answers them (`x-amzn-ErrorType` and `{"message"}`; throttling is HTTP 400
 * ThrottlingException), the 6,000-character and 3,000-billed-character limits, engines a voice
 * does not support and the SSML Polly's neural engine refuses. Every request is recorded.
 */

export interface FakePollyVoice {
  Id: string;
  Name: string;
  Gender: 'Female' | 'Male';
  LanguageCode: string;
  LanguageName: string;
  SupportedEngines: string[];
}

export const POLLY_TEST_VOICES: FakePollyVoice[] = [
  {
    Id: 'Joanna',
    Name: 'Joanna',
    Gender: 'Female',
    LanguageCode: 'en-US',
    LanguageName: 'US English',
    SupportedEngines: ['neural', 'standard'],
  },
  {
    Id: 'Matthew',
    Name: 'Matthew',
    Gender: 'Male',
    LanguageCode: 'en-US',
    LanguageName: 'US English',
    SupportedEngines: ['generative', 'neural', 'standard'],
  },
  {
    Id: 'Danielle',
    Name: 'Danielle',
    Gender: 'Female',
    LanguageCode: 'en-US',
    LanguageName: 'US English',
    SupportedEngines: ['long-form', 'neural'],
  },
  {
    Id: 'Lea',
    Name: 'Léa',
    Gender: 'Female',
    LanguageCode: 'fr-FR',
    LanguageName: 'French',
    SupportedEngines: ['neural', 'standard'],
  },
  {
    Id: 'Hans',
    Name: 'Hans',
    Gender: 'Male',
    LanguageCode: 'de-DE',
    LanguageName: 'German',
    SupportedEngines: ['standard'],
  },
];

export interface RecordedPollyCall {
  operation: 'DescribeVoices' | 'SynthesizeSpeech';
  body?: {
    Engine?: string;
    OutputFormat: string;
    SampleRate?: string;
    SpeechMarkTypes?: string[];
    Text: string;
    TextType?: string;
    VoiceId: string;
  };
  status: number;
}

export interface FakePolly {
  url: string;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  calls: RecordedPollyCall[];
  /** The next `count` calls answer this failure instead. */
  fail(count: number, kind: 'throttle' | 'service'): void;
  /** Calls wait this long before answering (a slow provider). */
  delayMs: number;
  close(): Promise<void>;
}

function bytes(data: string | ArrayBuffer | ArrayBufferView): Buffer {
  if (typeof data === 'string') return Buffer.from(data);
  if (data instanceof ArrayBuffer) return Buffer.from(data);
  return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}

/** SHA-256 and HMAC-SHA-256 as Signature V4's signer asks for them. */
class Sha256 {
  private hash: ReturnType<typeof createHash> | ReturnType<typeof createHmac>;
  constructor(private readonly secret?: string | ArrayBuffer | ArrayBufferView) {
    this.hash = this.fresh();
  }
  private fresh() {
    return this.secret === undefined
      ? createHash('sha256')
      : createHmac('sha256', bytes(this.secret));
  }
  update(data: string | ArrayBuffer | ArrayBufferView) {
    this.hash.update(bytes(data));
  }
  async digest() {
    return new Uint8Array(this.hash.digest());
  }
  reset() {
    this.hash = this.fresh();
  }
}

/** The billed characters of a text: SSML's tags are not billed. */
function billed(text: string, ssml: boolean): number {
  return (ssml ? text.replace(/<[^>]*>/g, '') : text).length;
}

export async function startFakePolly(
  options: { voices?: FakePollyVoice[]; pageSize?: number } = {},
): Promise<FakePolly> {
  const voices = options.voices ?? POLLY_TEST_VOICES;
  const pageSize = options.pageSize ?? 2;
  const region = 'eu-west-1';
  const credentials = { accessKeyId: 'AKIAPARLATEST0001', secretAccessKey: 'parla-test-secret' };
  const calls: RecordedPollyCall[] = [];
  let failures: { count: number; kind: 'throttle' | 'service' } = { count: 0, kind: 'throttle' };

  const error = (response: ProviderResponse, status: number, type: string, message: string) => {
    response.writeHead(status, {
      'content-type': 'application/json',
      'x-amzn-ErrorType': `${type}:http://internal.amazon.com/coral/com.amazonaws.parrot.service/`,
      'x-amzn-RequestId': crypto.randomUUID(),
    });
    response.end(JSON.stringify({ message }));
    return status;
  };

  /** Checks the request's Signature Version 4 against our secret. */
  const signed = async (request: ProviderRequest, body: Buffer, url: URL) => {
    const authorization = String(request.headers.authorization ?? '');
    const match =
      /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/polly\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
        authorization,
      );
    if (!match) return 'missing';
    const [, keyId, , signedRegion, signedHeaders = '', signature] = match;
    if (keyId !== credentials.accessKeyId || signedRegion !== region) return 'unknown';
    const headers: Record<string, string> = {};
    for (const name of signedHeaders.split(';')) {
      // HTTP/2 carries the host as its `:authority`.
      const value = request.headers[name] ?? (name === 'host' ? request.headers[':authority'] : '');
      headers[name] = String(value ?? '');
    }
    const amzDate = headers['x-amz-date'] ?? '';
    const date = new Date(
      `${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 8)}T${amzDate.slice(9, 11)}:${amzDate.slice(11, 13)}:${amzDate.slice(13, 15)}Z`,
    );
    const signer = new SignatureV4({ credentials, region, service: 'polly', sha256: Sha256 });
    const query: Record<string, string> = {};
    for (const [key, value] of url.searchParams) query[key] = value;
    const again = await signer.sign(
      {
        method: request.method ?? 'GET',
        protocol: 'http:',
        hostname: url.hostname,
        port: Number(url.port),
        path: url.pathname,
        query,
        headers,
        body: body.length > 0 ? body.toString() : undefined,
      },
      { signingDate: date },
    );
    const expected = /Signature=([0-9a-f]{64})/.exec(String(again.headers.authorization))?.[1];
    return expected === signature ? 'ok' : 'mismatch';
  };

  const handle = async (request: ProviderRequest, response: ProviderResponse) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const body = await readBody(request);
    const operation = url.pathname === '/v1/voices' ? 'DescribeVoices' : 'SynthesizeSpeech';
    const parsed =
      operation === 'SynthesizeSpeech' && body.length > 0
        ? (JSON.parse(body.toString()) as RecordedPollyCall['body'])
        : undefined;
    const record = (status: number) => {
      calls.push({ operation, ...(parsed && { body: parsed }), status });
    };
    const signature = await signed(request, body, url);
    if (signature === 'missing' || signature === 'unknown') {
      return record(
        error(
          response,
          403,
          'UnrecognizedClientException',
          'The security token included in the request is invalid.',
        ),
      );
    }
    if (signature === 'mismatch') {
      return record(
        error(
          response,
          403,
          'InvalidSignatureException',
          'The request signature we calculated does not match the signature you provided.',
        ),
      );
    }
    if (fake.delayMs > 0) await new Promise((r) => setTimeout(r, fake.delayMs));
    if (failures.count > 0) {
      failures.count -= 1;
      return record(
        failures.kind === 'throttle'
          ? error(response, 400, 'ThrottlingException', 'Rate exceeded')
          : error(
              response,
              500,
              'ServiceFailureException',
              'An unknown condition has caused a service failure.',
            ),
      );
    }
    if (request.method === 'GET' && url.pathname === '/v1/voices') {
      const engine = url.searchParams.get('Engine');
      const chosen = voices.filter((v) => !engine || v.SupportedEngines.includes(engine));
      const start = Number(url.searchParams.get('NextToken') ?? 0);
      const page = chosen.slice(start, start + pageSize);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          Voices: page,
          ...(start + pageSize < chosen.length && { NextToken: String(start + pageSize) }),
        }),
      );
      return record(200);
    }
    if (request.method !== 'POST' || url.pathname !== '/v1/speech' || !parsed) {
      return record(error(response, 404, 'UnknownOperationException', 'Unknown operation'));
    }
    const voice = voices.find((v) => v.Id === parsed.VoiceId);
    if (!voice) {
      return record(
        error(
          response,
          400,
          'ValidationException',
          `1 validation error detected: Value '${parsed.VoiceId}' at 'voiceId' failed to satisfy constraint`,
        ),
      );
    }
    const engine = parsed.Engine ?? 'standard';
    if (!voice.SupportedEngines.includes(engine)) {
      return record(
        error(
          response,
          400,
          'EngineNotSupportedException',
          `This voice does not support the selected engine: ${engine}`,
        ),
      );
    }
    const ssml = parsed.TextType === 'ssml';
    if (parsed.Text.length > 6000 || billed(parsed.Text, ssml) > 3000) {
      return record(
        error(
          response,
          400,
          'TextLengthExceededException',
          'Maximum text length has been exceeded',
        ),
      );
    }
    if (
      ssml &&
      engine !== 'standard' &&
      /<amazon:(effect|auto-breaths)|<emphasis|pitch=/.test(parsed.Text)
    ) {
      return record(error(response, 400, 'InvalidSsmlException', 'Unsupported Neural feature'));
    }
    // Polly takes <phoneme> in ipa and x-sampa (and its own pinyin and cmu), with a ph; it
    // refuses any other as invalid SSML ("Supported SSML tags", phoneme).
    for (const phoneme of ssml ? parsed.Text.matchAll(/<phoneme\b([^>]*)>/g) : []) {
      const attributes = phoneme[1] ?? '';
      const alphabet = /\balphabet="([^"]*)"/.exec(attributes)?.[1];
      if (!/\bph="[^"]+"/.test(attributes) || !['ipa', 'x-sampa'].includes(alphabet ?? '')) {
        return record(error(response, 400, 'InvalidSsmlException', 'Invalid SSML request'));
      }
    }
    if (parsed.OutputFormat === 'json') {
      if (!parsed.SpeechMarkTypes?.length) {
        return record(
          error(response, 400, 'ValidationException', 'SpeechMarkTypes are required for json'),
        );
      }
    } else if (parsed.SpeechMarkTypes?.length) {
      return record(
        error(
          response,
          400,
          'MarksNotSupportedForFormatException',
          'Speech marks are only available for json',
        ),
      );
    }
    // SampleRate: pcm takes 8000 or 16000 (default 16000); mp3 and ogg_vorbis take 8000,
    // 16000, 22050 or 24000 (default 22050 for standard voices, 24000 for the other engines).
    const format = parsed.OutputFormat;
    if (format !== 'pcm' && format !== 'json' && format !== 'mp3' && format !== 'ogg_vorbis') {
      return record(
        error(response, 400, 'ValidationException', `Value '${format}' at 'outputFormat'`),
      );
    }
    const rates = format === 'pcm' ? [8000, 16000] : [8000, 16000, 22050, 24000];
    const fallback = format === 'pcm' ? 16000 : engine === 'standard' ? 22050 : 24000;
    const rate = Number(parsed.SampleRate ?? fallback);
    if (format !== 'json' && !rates.includes(rate)) {
      return record(
        error(
          response,
          400,
          'InvalidSampleRateException',
          'The specified sample rate is not valid.',
        ),
      );
    }
    const spoken = await speak(parsed.Text, voice.LanguageCode, format === 'json' ? 16000 : rate);
    const characters = String(billed(parsed.Text, ssml));
    if (parsed.OutputFormat === 'json') {
      const types = new Set(parsed.SpeechMarkTypes);
      response.writeHead(200, {
        'content-type': 'application/x-json-stream',
        'x-amzn-RequestCharacters': characters,
      });
      // `start` and `end`: byte offsets of the word (or the mark) in the request's text.
      const text = Buffer.from(parsed.Text);
      let from = 0;
      const lines = spoken.marks.flatMap((mark) => {
        const needle = mark.type === 'word' ? mark.value : `<mark name="${mark.value}"`;
        const at = text.indexOf(needle, from);
        if (at >= 0) from = at + Buffer.byteLength(needle);
        const start = Math.max(0, at);
        const end = at >= 0 ? start + Buffer.byteLength(needle) : start;
        return types.has(mark.type) ? [JSON.stringify({ ...mark, start, end })] : [];
      });
      response.end(lines.join('\n'));
      return record(200);
    }
    let audio: Uint8Array = spoken.pcm;
    if (format !== 'pcm') {
      const encoder = await createStreamEncoder(format === 'mp3' ? 'mp3' : 'ogg', rate);
      audio = joinBytes(encoder.encode(pcm16ToSamples(spoken.pcm)), encoder.finish());
    }
    response.writeHead(200, {
      'content-type':
        format === 'pcm' ? 'audio/pcm' : format === 'mp3' ? 'audio/mpeg' : 'audio/ogg',
      'x-amzn-RequestCharacters': characters,
    });
    response.end(audio);
    return record(200);
  };

  const server = await listen(handle, { http2: true });
  const fake: FakePolly = {
    url: server.url,
    region,
    credentials,
    calls,
    delayMs: 0,
    fail(count, kind) {
      failures = { count, kind };
    },
    close: server.close,
  };
  return fake;
}
