import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, TEST_DATABASE_KIND, testConfig } from '../test/test-app.js';

const webRoot = mkdtempSync(path.join(tmpdir(), 'parla-web-'));
mkdirSync(path.join(webRoot, 'assets'));
writeFileSync(
  path.join(webRoot, 'index.html'),
  '<!doctype html><title>Parla</title><div id="root"></div>',
);
writeFileSync(path.join(webRoot, 'assets', 'app-abc123.js'), 'console.log("parla")');
// The build's compressed copies of a larger bundle (apps/web/vite.config.ts writes them).
const BUNDLE = `export const words = ${JSON.stringify('parla '.repeat(2000))};`;
writeFileSync(path.join(webRoot, 'assets', 'big-def456.js'), BUNDLE);
writeFileSync(path.join(webRoot, 'assets', 'big-def456.js.br'), brotliCompressSync(BUNDLE));
writeFileSync(path.join(webRoot, 'assets', 'big-def456.js.gz'), gzipSync(BUNDLE));

const app = await createTestApp({ webRoot });

// Routes that exist only to drive the error handler from outside, as a client would.
const EchoSchema = z.object({
  email: z.email({ error: 'Incorect email address.' }),
  name: z.string().min(3, { error: 'Name must be at least 3 characters long.' }),
});
app.post('/api/test/echo', { schema: { body: EchoSchema } }, async (request) => request.body);
app.get('/api/test/boom', async () => {
  throw new Error('secret database password in a stack trace');
});
beforeAll(() => app.ready());

describe(`the API skeleton (${TEST_DATABASE_KIND})`, () => {
  it('answers health and readiness with the database reachable', async () => {
    const health = await app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    const ready = await app.inject({ method: 'GET', url: '/api/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', database: true });
  });

  it('answers schema failures with 400 and every field message', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/test/echo',
      payload: { email: 'nope', name: 'Al' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: 'Incorect email address.',
      errors: [
        { path: 'email', message: 'Incorect email address.' },
        { path: 'name', message: 'Name must be at least 3 characters long.' },
      ],
    });
  });

  it('answers malformed JSON with 400 and a clear message', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: 'The request body is not valid JSON.' });
  });

  it('answers an unsupported content type with 415', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/test/echo',
      headers: { 'content-type': 'application/xml' },
      payload: '<email/>',
    });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({ message: 'This content type is not accepted here.' });
  });

  it('answers an oversized body with 413', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a@b.co', name: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ message: 'The request body is too large.' });
  });

  it('answers an unknown API path with a JSON 404', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/nothing/here' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/application\/json/);
    expect(response.json()).toEqual({ message: 'No such API route: GET /api/nothing/here' });
  });

  it('logs unexpected errors and answers a generic 500 that reveals nothing', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/test/boom',
      headers: { 'x-request-id': 'req-boom-1' },
    });
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('secret');
    expect(response.json()).toEqual({
      message: 'Something went wrong on our side. Please try again.',
    });
    expect(response.headers['x-request-id']).toBe('req-boom-1');
  });

  it('sends security headers with a Content-Security-Policy', async () => {
    const response = await app.inject({ method: 'GET', url: '/pricing' });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    // Without a Stripe publishable key the card field is our own: nothing of Stripe's may load.
    expect(csp).not.toContain('stripe.com');
  });

  it("lets Stripe.js load its script, card frames and API when Stripe's card field is used", async () => {
    const stripeApp = await createTestApp({
      webRoot,
      config: testConfig({ STRIPE_PUBLISHABLE_KEY: 'pk_test_parla' }),
    });
    const response = await stripeApp.inject({ method: 'GET', url: '/account/checkout' });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self' https://js.stripe.com");
    expect(csp).toContain("frame-src 'self' https://js.stripe.com https://hooks.stripe.com");
    expect(csp).toContain("connect-src 'self' blob: https://api.stripe.com");
  });

  it('serves the web app: files as they are, and index.html for every other path', async () => {
    for (const url of ['/', '/convertor', '/fr/pricing', '/some/unknown/path']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toContain('<div id="root"></div>');
      expect(response.headers['cache-control'], url).toBe('no-cache');
    }
    const asset = await app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe('console.log("parla")');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // The build's brotli copy when the browser takes it, else gzip, else the file itself.
    const url = '/assets/big-def456.js';
    const br = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.rawPayload.length).toBeLessThan(BUNDLE.length / 10);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(BUNDLE);
    const gz = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(BUNDLE);
    const plain = await app.inject({
      method: 'GET',
      url,
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(BUNDLE);
    // A bundle of another build is missing, not a page.
    const gone = await app.inject({ method: 'GET', url: '/assets/app-old999.js' });
    expect(gone.statusCode).toBe(404);
    expect(gone.headers['content-type']).toMatch(/^application\/json/);
  });

  it('publishes an OpenAPI document generated from the schemas', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const doc = response.json() as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/health',
        '/api/ready',
        '/api/account/profile',
        '/api/plan/info',
      ]),
    );
    // Every operation has a unique id and a summary (generated clients name calls by them).
    const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item as Record<string, { operationId?: string; summary?: string }>).map(
        ([method, operation]) => ({ at: `${method} ${path}`, ...operation }),
      ),
    );
    expect(operations.length).toBeGreaterThan(40);
    // (This file's own test routes aside.)
    for (const operation of operations.filter((o) => !o.at.includes('/api/test/'))) {
      expect(operation.operationId, operation.at).toMatch(/^[a-z]\w+$/);
      expect(operation.summary, operation.at).toBeTruthy();
    }
    const ids = operations.map((operation) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expect.arrayContaining(['speak', 'createSpeech', 'createApiKey']));
    expect(JSON.stringify(doc)).toContain('X-API-Key');
    // The public API's bodies carry examples; its audio is typed as bytes.
    const speak = JSON.stringify(doc.paths['/api/v1/speech']);
    expect(speak).toContain('Hello from Parla.');
    expect(JSON.stringify(doc.paths['/api/convertor/audio/{file}'])).toContain('"format":"binary"');
    // Error answers are JSON on every route, those answering audio included.
    type Operations = Record<string, { responses: Record<string, { content?: object }> }>;
    const responses = Object.values(doc.paths as Record<string, Operations>).flatMap((item) =>
      Object.values(item).flatMap((op) => Object.entries(op.responses)),
    );
    const errors = responses.filter(([status, answer]) => /^[45]/.test(status) && answer.content);
    expect(errors.length).toBeGreaterThan(40);
    for (const [status, answer] of errors) {
      expect(Object.keys(answer.content ?? {}), status).toEqual(['application/json']);
    }
    const audioErrors = doc.paths['/api/v1/speech'] as {
      post: { responses: Record<string, { content: object }> };
    };
    expect(Object.keys(audioErrors.post.responses['4XX']?.content ?? {})).toEqual([
      'application/json',
    ]);
    const ui = await app.inject({ method: 'GET', url: '/api/docs/' });
    expect(ui.statusCode).toBe(200);
    expect(ui.body).toContain('swagger');
  });
});
