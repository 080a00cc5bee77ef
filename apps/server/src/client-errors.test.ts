import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signedInUser, TEST_DATABASE_KIND } from '../test/test-app.js';
import { HashingBusyError } from './lib/password.js';

/*
 * Issue 13, item 1: a client's mistake is never a 5xx. Every route of the OpenAPI document is
 * sent each malformed body, anonymously and as a signed-in BUSINESS user (whose routes parse
 * the body after the token is checked), and must answer 4xx with a JSON message.
 */
const app = await createTestApp({
  abuseLimits: { perIp: 100_000, perAddress: 100_000, timeWindowMs: 60_000 },
  conversionsPerMinute: 100_000,
});
// A route that meets a full password-hashing queue, as a login does under a flood.
app.get('/api/test/busy', { schema: { hide: true } }, async () => {
  throw new HashingBusyError(7);
});
beforeAll(() => app.ready());

type Operation = { method: string; url: string };
type Paths = Record<string, Record<string, { responses: Record<string, unknown> }>>;
const openApiPaths = () => app.swagger().paths as unknown as Paths;

/** Every operation of the OpenAPI document, its path parameters filled with a plausible word. */
function operations(): Operation[] {
  return Object.entries(openApiPaths()).flatMap(([path, methods]) =>
    Object.keys(methods).map((method) => ({
      method: method.toUpperCase(),
      url: path.replace(/\{[^}]+\}/g, 'abcdefghijklmnopqrstuv'),
    })),
  );
}

const MALFORMED: Array<{ name: string; contentType: string; payload: string }> = [
  { name: 'malformed JSON', contentType: 'application/json', payload: '{"text": ' },
  { name: 'an empty JSON body', contentType: 'application/json', payload: '' },
  { name: 'a prototype key', contentType: 'application/json', payload: '{"__proto__":{}}' },
  {
    name: 'a constructor prototype key',
    contentType: 'application/json',
    payload: '{"constructor":{"prototype":{"polluted":true}}}',
  },
  {
    name: 'malformed multipart',
    contentType: 'multipart/form-data; boundary=xyz',
    payload: '--xyz\r\nContent-Disposition: form-data; name="media"; filename="a.mp3"\r\n\r\nab',
  },
  { name: 'multipart without a boundary', contentType: 'multipart/form-data', payload: 'junk' },
  { name: 'an unknown content type', contentType: 'application/x-parla', payload: 'junk' },
];

/** Methods whose body the server reads: a malformed one must be refused. */
const WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

describe(`client mistakes on every route (${TEST_DATABASE_KIND})`, () => {
  it('finds the routes in the OpenAPI document', () => {
    const urls = operations().map((operation) => `${operation.method} ${operation.url}`);
    expect(urls).toContain('POST /api/convertor/');
    expect(urls).toContain('POST /api/file/media');
    expect(urls.length).toBeGreaterThan(30);
  });

  it('answers every malformed body with 4xx and a JSON message, signed in or not', async () => {
    const { authorization } = await signedInUser(app, { plan: 'BUSINESS', billing: true });
    const failures: string[] = [];
    for (const operation of operations()) {
      for (const headers of [{}, { authorization }]) {
        for (const bad of MALFORMED) {
          const response = await app.inject({
            method: operation.method as 'POST',
            url: operation.url,
            headers: { ...headers, 'content-type': bad.contentType },
            payload: bad.payload,
          });
          const where = `${operation.method} ${operation.url} (${bad.name}, ${
            'authorization' in headers ? 'signed in' : 'anonymous'
          }): ${response.statusCode} ${response.body.slice(0, 200)}`;
          const refused = response.statusCode >= 400 && response.statusCode < 500;
          // A GET or HEAD ignores a body; it must still not fail.
          if (WITH_BODY.has(operation.method) ? !refused : response.statusCode >= 500) {
            failures.push(where);
            continue;
          }
          if (refused && !response.headers['content-type']?.toString().includes('json')) {
            failures.push(where);
            continue;
          }
          if (!refused) continue;
          // OpenAI's endpoint answers in OpenAI's shape ({error: {message}}), for its SDKs.
          const body = response.json();
          const message = operation.url.startsWith('/v1/') ? body.error?.message : body.message;
          if (typeof message !== 'string') failures.push(where);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('refuses a JSON body that is not UTF-8, instead of reading it as replacement characters', async () => {
    const { authorization } = await signedInUser(app);
    const response = await app.inject({
      method: 'POST',
      url: '/api/account/api_keys',
      headers: { authorization, 'content-type': 'application/json' },
      payload: Buffer.concat([
        Buffer.from('{"name":"'),
        Buffer.from([0xff, 0xfe]),
        Buffer.from('"}'),
      ]),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ message: 'The request body is not valid UTF-8.' });
  });

  it('names each bad field of a conversion in errors', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/convertor',
      payload: { text: 42, engine: 'loud' },
    });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body).toMatchObject({ success: false, path: null, duration: null });
    expect(typeof body.message).toBe('string');
    const paths = (body.errors as Array<{ path: string; message: string }>).map((e) => e.path);
    expect(paths).toEqual(expect.arrayContaining(['text', 'engine']));
    for (const error of body.errors) expect(error.message).not.toBe('');
  });

  it('names the bad fields of any other route in errors', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { email: 'nope', password: 1 },
    });
    expect(response.statusCode).toBe(400);
    const paths = (response.json().errors as Array<{ path: string }>).map((e) => e.path);
    expect(paths).toEqual(expect.arrayContaining(['email', 'password']));
  });

  it('answers a full password-hashing queue with 503 and Retry-After', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/test/busy' });
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('7');
    expect(response.json().message).toMatch(/try again in 7 seconds/);
  });

  it('documents the error answers of every route in the OpenAPI document', () => {
    for (const [path, methods] of Object.entries(openApiPaths())) {
      for (const [method, operation] of Object.entries(methods)) {
        expect(Object.keys(operation.responses), `${method} ${path}`).toContain('4XX');
      }
    }
  });
});

describe(`too many conversions (${TEST_DATABASE_KIND})`, async () => {
  const limited = await createTestApp();

  it('answers the 31st conversion in a minute with 429 in the convertor shape', async () => {
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof limited.inject>> | undefined;
    for (let i = 0; i < 31; i += 1) {
      // Invalid bodies: the limit counts attempts, and no speech is rendered.
      last = await limited.inject({
        method: 'POST',
        url: '/api/convertor',
        remoteAddress: '203.0.113.31',
        payload: {},
      });
      statuses.push(last.statusCode);
    }
    expect(statuses.slice(0, 30).every((status) => status === 400)).toBe(true);
    expect(last?.statusCode).toBe(429);
    expect(last?.headers['retry-after']).toBeDefined();
    expect(last?.json()).toMatchObject({ success: false, path: null, duration: null });
    expect(last?.json().message).toMatch(/Too many requests/);
  });
});
