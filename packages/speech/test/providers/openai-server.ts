import { listen, type ProviderResponse, readBody, speak, wavOf } from './speak.js';

/**
 * A local server that speaks OpenAI's speech endpoint as its API reference documents it, for
 * tests: `POST /v1/audio/speech` (`model`, `input` of at most 4,096 characters, `voice`,
 * `response_format` wav or pcm at 24 kHz, `speed` 0.25 to 4), `Authorization: Bearer` keys,
 * errors in OpenAI's shape (`{"error": {message, type, param, code}}`, 401 for a bad key, 429
 * with `retry-after` when rate limited), `GET /v1/models`; and, like the local servers that
 * copy the API, `GET /v1/audio/voices` when `listsVoices`. Every request is recorded.
 */

export interface RecordedOpenAiCall {
  path: string;
  body?: {
    model?: string;
    input?: string;
    voice?: string;
    response_format?: string;
    speed?: number;
  };
  status: number;
}

export interface FakeOpenAi {
  url: string;
  key: string;
  voices: string[];
  calls: RecordedOpenAiCall[];
  fail(count: number): void;
  close(): Promise<void>;
}

const RATE = 24_000;

export async function startFakeOpenAi(
  options: { listsVoices?: boolean; voices?: string[] } = {},
): Promise<FakeOpenAi> {
  const key = 'sk-parla-test-0001';
  const voices = options.voices ?? ['alloy', 'nova', 'onyx'];
  const calls: RecordedOpenAiCall[] = [];
  let failures = 0;

  const error = (
    response: ProviderResponse,
    status: number,
    fields: { message: string; type: string; param?: string | null; code?: string | null },
    headers: Record<string, string> = {},
  ) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify({ error: { param: null, code: null, ...fields } }));
    return status;
  };

  const server = await listen(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const raw = await readBody(request);
    let body: RecordedOpenAiCall['body'];
    const record = (status: number) => {
      calls.push({ path: url.pathname, ...(body && { body }), status });
    };
    if (request.headers.authorization !== `Bearer ${key}`) {
      return record(
        error(response, 401, {
          message:
            'Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.',
          type: 'invalid_request_error',
          code: 'invalid_api_key',
        }),
      );
    }
    if (failures > 0) {
      failures -= 1;
      return record(
        error(
          response,
          429,
          {
            message: 'Rate limit reached for requests',
            type: 'requests',
            code: 'rate_limit_exceeded',
          },
          { 'retry-after': '1' },
        ),
      );
    }
    if (request.method === 'GET' && url.pathname === '/v1/models') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          object: 'list',
          data: ['tts-1', 'tts-1-hd'].map((id) => ({
            id,
            object: 'model',
            created: 0,
            owned_by: 'test',
          })),
        }),
      );
      return record(200);
    }
    if (request.method === 'GET' && url.pathname === '/v1/audio/voices' && options.listsVoices) {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ voices }));
      return record(200);
    }
    if (request.method !== 'POST' || url.pathname !== '/v1/audio/speech') {
      return record(
        error(response, 404, {
          message: `Invalid URL (${request.method} ${url.pathname})`,
          type: 'invalid_request_error',
        }),
      );
    }
    try {
      body = JSON.parse(raw.toString()) as RecordedOpenAiCall['body'];
    } catch {
      return record(
        error(response, 400, {
          message: 'We could not parse the JSON body of your request.',
          type: 'invalid_request_error',
        }),
      );
    }
    const input = body?.input;
    if (typeof input !== 'string' || input.length === 0) {
      return record(
        error(response, 400, {
          message: "Missing required parameter: 'input'.",
          type: 'invalid_request_error',
          param: 'input',
          code: 'missing_required_parameter',
        }),
      );
    }
    if (input.length > 4096) {
      return record(
        error(response, 400, {
          message: `'input' is too long: ${input.length} characters; the maximum is 4096.`,
          type: 'invalid_request_error',
          param: 'input',
          code: 'string_above_max_length',
        }),
      );
    }
    if (!body?.voice || !voices.includes(body.voice)) {
      return record(
        error(response, 400, {
          message: `Invalid value for 'voice': '${body?.voice}'.`,
          type: 'invalid_request_error',
          param: 'voice',
          code: 'invalid_value',
        }),
      );
    }
    const speed = body.speed ?? 1;
    if (typeof speed !== 'number' || speed < 0.25 || speed > 4) {
      return record(
        error(response, 400, {
          message: `${speed} is not between 0.25 and 4 - 'speed'`,
          type: 'invalid_request_error',
          param: 'speed',
          code: 'invalid_value',
        }),
      );
    }
    const format = body.response_format ?? 'mp3';
    if (format !== 'wav' && format !== 'pcm') {
      return record(
        error(response, 400, {
          message: `This test server answers wav and pcm, not ${format}.`,
          type: 'invalid_request_error',
          param: 'response_format',
        }),
      );
    }
    const spoken = await speak(input, 'en-us', RATE);
    response.writeHead(200, { 'content-type': format === 'wav' ? 'audio/wav' : 'audio/pcm' });
    response.end(format === 'wav' ? wavOf(spoken.pcm, RATE) : spoken.pcm);
    return record(200);
  });

  return {
    url: server.url,
    key,
    voices,
    calls,
    fail(count) {
      failures = count;
    },
    close: server.close,
  };
}
