import fc from 'fast-check';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signedInUser, TEST_DATABASE_KIND } from '../test/test-app.js';
import { setRole } from './services/admin/administrators.js';

/*
 * Issue 13, "Tests and bad input": generated wrong types, missing fields, huge and deep bodies,
 * invalid UTF-8 and prototype keys (mostly as JSON, sometimes announced as multipart, text or a
 * form), with generated path parameters, query strings and headers (Idempotency-Key, API keys
 * that do not verify, Accept), sent to
 * every route of the OpenAPI document, anonymously and signed in. No answer may be a 5xx and
 * the database must be exactly as it was. Every generated body lacks at least one required
 * field, so no request is a valid one that would rightly change something.
 */
const app = await createTestApp({
  abuseLimits: { perIp: 1_000_000, perAddress: 1_000_000, timeWindowMs: 60_000 },
  conversionsPerMinute: 1_000_000,
});
beforeAll(() => app.ready());

type JsonSchema = { properties?: Record<string, unknown>; required?: string[] };
type OpenApiOperation = {
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  parameters?: Array<{ in: string; name: string }>;
};
type Operation = {
  method: string;
  path: string;
  body?: JsonSchema;
  pathParams: string[];
  hasQuery: boolean;
};

function operations(): Operation[] {
  const paths = app.swagger().paths as unknown as Record<string, Record<string, OpenApiOperation>>;
  return Object.entries(paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => {
      const body = operation.requestBody?.content?.['application/json']?.schema;
      const parameters = operation.parameters ?? [];
      return {
        method: method.toUpperCase(),
        path,
        ...(body && { body }),
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        hasQuery: parameters.some((p) => p.in === 'query'),
      };
    }),
  );
}

/** A string with a NUL character (U+0000), which PostgreSQL's text cannot hold. */
const withNul = fc
  .tuple(fc.string({ maxLength: 10 }), fc.string({ maxLength: 10 }))
  .map(([before, after]) => `${before}\u0000${after}`);

/** A value of any JSON type, often not the one a field wants. */
const anyJson = fc.oneof(
  fc.string(),
  withNul,
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }),
  fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
);

/** The schema's fields with values of any type, at least one required field left out. */
function wrongFields(schema: JsonSchema | undefined) {
  const fields = Object.keys(schema?.properties ?? {});
  const required = schema?.required ?? [];
  return fc
    .record(Object.fromEntries(fields.map((field) => [field, anyJson])), { requiredKeys: [] })
    .chain((record) =>
      required.length === 0
        ? fc.constant(record)
        : fc.constantFrom(...required).map((missing) => {
            const { [missing]: _left, ...rest } = record;
            return rest;
          }),
    )
    .map((record) => JSON.stringify(record));
}

const hugeBody = fc
  .integer({ min: 1024 * 1024 + 1, max: 1024 * 1024 + 4096 })
  .map((length) => JSON.stringify({ text: 'a'.repeat(length) }));

const deepBody = fc
  .tuple(fc.integer({ min: 100, max: 20_000 }), fc.boolean())
  .map(([depth, arrays]) =>
    arrays
      ? `${'['.repeat(depth)}${']'.repeat(depth)}`
      : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
  );

/** Bytes that are not UTF-8 inside the strings of an otherwise plausible body. */
const invalidUtf8Body = (schema: JsonSchema | undefined) =>
  fc
    .tuple(
      // High bytes, led by 0xFF, which no UTF-8 text contains (others alone may form a valid
      // character: 0xC3 0xA9 is "é", a one-character conversion that would rightly be charged).
      fc
        .uint8Array({ minLength: 0, maxLength: 15 })
        .map((bytes) => Uint8Array.from([0xff, ...bytes.map((b) => b | 0x80)])),
      fc.constantFrom(...(schema?.required?.slice(0, 1) ?? ['text'])),
    )
    .map(([bytes, field]) =>
      Buffer.concat([Buffer.from(`{"${field}":"`), Buffer.from(bytes), Buffer.from('"}')]),
    );

const prototypeBody = fc
  .tuple(
    fc.constantFrom('__proto__', 'constructor', 'prototype'),
    fc.jsonValue({ maxDepth: 1 }),
    fc.boolean(),
  )
  .map(([key, value, nested]) => {
    const poison =
      key === 'constructor'
        ? `{"constructor":{"prototype":{"polluted":${JSON.stringify(value)}}}}`
        : `{"${key}":{"polluted":${JSON.stringify(value)}}}`;
    return nested ? `{"outer":${poison}}` : poison;
  });

const bodyOf = (operation: Operation) =>
  fc.oneof(
    wrongFields(operation.body),
    hugeBody,
    deepBody,
    invalidUtf8Body(operation.body),
    prototypeBody,
  );

const pathValue = fc.oneof(
  fc.string({ minLength: 1, maxLength: 80 }),
  withNul,
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }),
  fc.constantFrom('..', '%00', '../../etc/passwd', 'a'.repeat(5000), '__proto__'),
);

const queryOf = fc.dictionary(
  fc.oneof(fc.string({ minLength: 1, maxLength: 12 }), fc.constantFrom('__proto__', 'engine')),
  fc.oneof(fc.string({ maxLength: 40 }), withNul, fc.constant('a'.repeat(3000))),
  { maxKeys: 5 },
);

/** Mostly JSON; the same bytes announced as other types reach the other parsers. */
const contentType = fc.oneof(
  { weight: 6, arbitrary: fc.constant('application/json') },
  fc.constantFrom(
    'multipart/form-data; boundary=fuzz',
    'multipart/form-data',
    'text/plain',
    'application/x-www-form-urlencoded',
    'application/json; charset=latin1',
  ),
);

/**
 * Mostly none; sometimes the headers that change how a request is answered, with bad values:
 * Idempotency-Key (too long, empty, odd characters), credentials that do not verify, Accept.
 */
const extraHeaders = fc.oneof(
  { weight: 4, arbitrary: fc.constant({}) },
  fc.record(
    {
      'idempotency-key': fc.oneof(
        fc.string({ maxLength: 40 }),
        fc.constant('k'.repeat(300)),
        fc.constant(''),
      ),
      'x-api-key': fc.oneof(fc.string({ minLength: 1, maxLength: 40 }), fc.constant('parla_x')),
      accept: fc.constantFrom('application/json', 'text/event-stream', 'audio/*', '*/*'),
    },
    { requiredKeys: [] },
  ),
);

/** Every row of every table, as sorted JSON lines: equal means the database did not change. */
async function snapshot(): Promise<Record<string, string[]>> {
  const tables = await app.db.introspection.getTables();
  const result: Record<string, string[]> = {};
  for (const table of tables) {
    const { rows } = await sql<
      Record<string, unknown>
    >`select * from ${sql.table(table.name)}`.execute(app.db);
    result[table.name] = rows.map((row) => JSON.stringify(row)).sort();
  }
  return result;
}

describe(`fuzzing every route (${TEST_DATABASE_KIND})`, () => {
  it('answers generated bad input with 4xx or a harmless 2xx, never 5xx, changing nothing', async () => {
    const { authorization } = await signedInUser(app, { plan: 'BUSINESS', billing: true });
    // The console's routes (/api/admin) are fuzzed signed in as an administrator: a USER's
    // token is refused before its input is read.
    const admin = await signedInUser(app);
    await setRole(app.db, { id: admin.user.id }, 'ADMIN', null);
    const before = await snapshot();
    for (const operation of operations()) {
      const token = operation.path.startsWith('/api/admin/') ? admin.authorization : authorization;
      // A signed-in DELETE /account/delete has nothing that could be invalid: any request
      // deletes the account, as it should. It is fuzzed anonymously only.
      const nothingToBreak =
        operation.method !== 'GET' && !operation.body && operation.pathParams.length === 0;
      const signedIn = nothingToBreak && !operation.hasQuery ? [false] : [false, true];
      await fc.assert(
        fc.asyncProperty(
          bodyOf(operation),
          fc.tuple(...operation.pathParams.map(() => pathValue)),
          queryOf,
          fc.constantFrom(...signedIn),
          contentType,
          extraHeaders,
          async (body, params, query, withToken, type, extra) => {
            let url = operation.path;
            operation.pathParams.forEach((name, i) => {
              url = url.replace(`{${name}}`, encodeURIComponent(params[i] ?? ''));
            });
            const search = new URLSearchParams(query).toString();
            const response = await app.inject({
              method: operation.method as 'POST',
              url: search ? `${url}?${search}` : url,
              headers: {
                'content-type': type,
                ...(withToken && { authorization: token }),
                ...extra,
              },
              payload: body,
            });
            expect(
              response.statusCode,
              `${operation.method} ${url} → ${response.body.slice(0, 200)}`,
            ).toBeLessThan(500);
          },
        ),
        // No shrinking: a counterexample of a megabyte shrinks slowly and reads no better.
        { numRuns: 15, endOnFailure: true },
      );
    }
    expect(await snapshot()).toEqual(before);
  }, 180_000);
});

describe(`a NUL character (${TEST_DATABASE_KIND})`, () => {
  it('is refused with a 400 naming the field, in stored strings and path parameters', async () => {
    const { authorization } = await signedInUser(app, { plan: 'BUSINESS', billing: true });
    const before = await snapshot();
    const cases: [string, string, object | undefined, string][] = [
      ['POST', '/api/jobs', { title: 'A\u0000B', text: 'Hello.' }, 'title'],
      ['POST', '/api/jobs', { text: 'Hello\u0000.' }, 'text'],
      ['POST', '/api/jobs', { chapters: [{ title: 'One', text: 'Hi\u0000.' }] }, 'chapters.0.text'],
      ['POST', '/api/account/api_keys', { name: 'Home\u0000' }, 'name'],
      ['POST', '/api/v1/speech', { text: 'Hello\u0000.' }, 'text'],
      ['GET', '/api/file/a%00b', undefined, 'id'],
      ['GET', '/api/content/pages/ab%00', undefined, 'language'],
      ['GET', '/api/content/blog/article/en/a%00', undefined, 'article'],
      ['DELETE', '/api/file/a%00b', undefined, 'id'],
      ['GET', '/api/file/media/a%00b', undefined, 'id'],
      ['GET', '/api/auth/validate_email_address/a%00b', undefined, 'key'],
      [
        'PUT',
        '/api/auth/reset_password/a%00b',
        { password: 'secret1', confirm_password: 'secret1' },
        'key',
      ],
    ];
    for (const [method, url, payload, field] of cases) {
      const response = await app.inject({
        method: method as 'POST',
        url,
        headers: { authorization },
        ...(payload && { payload }),
      });
      const label = `${method} ${url} ${JSON.stringify(payload)}`;
      expect(response.statusCode, `${label} → ${response.body.slice(0, 200)}`).toBe(400);
      const body = response.json() as { message: string; errors?: { path: string }[] };
      expect(body.message, label).toBe(`${field} must not contain a NUL character (\\u0000).`);
      if (body.errors) expect(body.errors[0]?.path, label).toBe(field);
    }
    expect(await snapshot()).toEqual(before);
  });
});

/** A valid PLS file, cut short, spliced with generated text, or announced with odd types. */
const PLS_FILE = `<?xml version="1.0" encoding="UTF-8"?>
<lexicon version="1.0" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon" alphabet="ipa" xml:lang="en-US">
  <lexeme><grapheme>Nguyen</grapheme><phoneme>wɪn</phoneme></lexeme>
  <lexeme><grapheme>W3C</grapheme><alias>World Wide Web Consortium</alias></lexeme>
</lexicon>`;

const brokenPls = fc.oneof(
  fc.integer({ min: 0, max: PLS_FILE.length - 2 }).map((cut) => PLS_FILE.slice(0, cut)),
  fc
    .tuple(fc.integer({ min: 0, max: PLS_FILE.length }), fc.string({ minLength: 1, maxLength: 30 }))
    .map(([at, text]) => `${PLS_FILE.slice(0, at)}<${text}${PLS_FILE.slice(at)}`),
  fc.constantFrom(
    PLS_FILE.replace('alphabet="ipa"', 'alphabet="cmu-arpabet"'),
    PLS_FILE.replace('<phoneme>wɪn</phoneme>', ''),
    PLS_FILE.replace('<alias>', `<alias>${'x'.repeat(101)}`),
    `<!DOCTYPE lexicon [<!ENTITY a "aaaa">]>${PLS_FILE}`,
    PLS_FILE.replace(
      '</lexicon>',
      `${'<lexeme><grapheme>a</grapheme><alias>b</alias></lexeme>'.repeat(2000)}</lexicon>`,
    ),
  ),
);

describe(`fuzzing PLS lexicon uploads (${TEST_DATABASE_KIND})`, () => {
  it('answers a broken PLS file with 4xx and a message, storing nothing', async () => {
    const { authorization } = await signedInUser(app, { plan: 'FREE' });
    const before = await snapshot();
    await fc.assert(
      fc.asyncProperty(
        brokenPls,
        fc.constantFrom('application/pls+xml', 'application/xml', 'text/xml; charset=utf-8'),
        async (body, type) => {
          const response = await app.inject({
            method: 'PUT',
            url: '/api/lexicons/Fuzzed',
            headers: { authorization, 'content-type': type },
            payload: body,
          });
          expect(
            response.statusCode,
            `${response.body.slice(0, 200)} ← ${body.slice(0, 200)}`,
          ).toBeGreaterThanOrEqual(400);
          expect(response.statusCode).toBeLessThan(500);
          expect(typeof response.json().message).toBe('string');
        },
      ),
      { numRuns: 60, endOnFailure: true },
    );
    expect(await snapshot()).toEqual(before);
  }, 120_000);
});
