import { randomInt } from 'node:crypto';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createTestApp, TEST_DATABASE_KIND, testConfig } from '../../test/test-app.js';
import { voiceSettings } from '../../test/voice-settings.js';
import { ConfigError, loadConfig } from '../config.js';

/*
 * Issue 28 item 6: behind a proxy every visitor was one address (one allowance, one login
 * lock-out, never a Secure cookie), and idle connections could fill the server unseen.
 */

/** Anonymous conversions of "Hello there." (12 characters): room for one per address. */
const visitorLimits = { perVisitor: 1000, perIp: 15 };
const abuseLimits = { perIp: 2, perAddress: 100, timeWindowMs: 60_000 };

/**
 * The test's own peer address (an IPv6 /64 of its own): on PostgreSQL the test files share a
 * database, and the allowance of inject's default 127.0.0.1 is other files' too.
 */
const PEER = `2001:db8:${randomInt(0x10000).toString(16)}::7`;

const convertFrom = (app: Awaited<ReturnType<typeof createTestApp>>, forwardedFor?: string) =>
  app.inject({
    method: 'POST',
    url: '/api/convertor',
    headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
    remoteAddress: PEER,
    payload: voiceSettings(),
  });

const badLogin = (app: Awaited<ReturnType<typeof createTestApp>>, forwardedFor: string) =>
  app.inject({
    method: 'POST',
    url: '/api/auth/login',
    headers: { 'x-forwarded-for': forwardedFor },
    remoteAddress: PEER,
    payload: { email: `nobody-${forwardedFor}@example.com`, password: 'not the password' },
  });

// Real conversions and password hashes: slow on a busy machine.
describe(`TRUST_PROXY=1 (${TEST_DATABASE_KIND})`, { timeout: 60_000 }, async () => {
  const app = await createTestApp({
    config: testConfig({ TRUST_PROXY: '1' }),
    visitorLimits,
    abuseLimits,
  });

  it('gives each forwarded client its own allowance', async () => {
    expect((await convertFrom(app, '203.0.113.10')).statusCode).toBe(200);
    expect((await convertFrom(app, '203.0.113.10')).statusCode).toBe(402);
    expect((await convertFrom(app, '203.0.113.11')).statusCode).toBe(200);
  });

  it('counts a forwarded IPv6 client by its /64 for the allowance', async () => {
    expect((await convertFrom(app, '2001:db8:28:1::1')).statusCode).toBe(200);
    expect((await convertFrom(app, '2001:db8:28:1::2')).statusCode).toBe(402);
  });

  it('locks out the client that fails logins, not the others', async () => {
    expect((await badLogin(app, '203.0.113.20')).statusCode).toBe(401);
    expect((await badLogin(app, '203.0.113.20')).statusCode).toBe(401);
    expect((await badLogin(app, '203.0.113.20')).statusCode).toBe(429);
    expect((await badLogin(app, '203.0.113.21')).statusCode).toBe(401);
  });

  it('sets a Secure visitor cookie when the proxy says the request came over HTTPS', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/convertor',
      headers: { 'x-forwarded-for': '203.0.113.30', 'x-forwarded-proto': 'https' },
      payload: voiceSettings(),
    });
    expect(response.statusCode).toBe(200);
    expect(String(response.headers['set-cookie'])).toMatch(/parla_visitor=.*; Secure/);
  });
});

describe(`without TRUST_PROXY (${TEST_DATABASE_KIND})`, { timeout: 60_000 }, async () => {
  const app = await createTestApp({ visitorLimits, abuseLimits });

  it('ignores X-Forwarded-For: a made-up header is not a new client', async () => {
    expect((await convertFrom(app, '203.0.113.40')).statusCode).toBe(200);
    expect((await convertFrom(app, '203.0.113.41')).statusCode).toBe(402);
    expect((await badLogin(app, '203.0.113.50')).statusCode).toBe(401);
    expect((await badLogin(app, '203.0.113.51')).statusCode).toBe(401);
    expect((await badLogin(app, '203.0.113.52')).statusCode).toBe(429);
  });

  it('keeps the visitor cookie without Secure over plain HTTP, whatever the header says', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/convertor',
      headers: { 'x-forwarded-proto': 'https' },
      remoteAddress: '198.51.100.60',
      payload: voiceSettings(),
    });
    expect(response.statusCode).toBe(200);
    expect(String(response.headers['set-cookie'])).not.toMatch(/Secure/);
  });
});

describe('TRUST_PROXY values', () => {
  const config = (value: string) =>
    loadConfig({ DATA_DIR: testConfig().dataDir, TRUST_PROXY: value });

  it('reads hop counts, true and address lists', () => {
    expect(config('2').connections.trustProxy).toBe(2);
    expect(config('true').connections.trustProxy).toBe(true);
    expect(config('10.0.0.0/8, 192.168.1.1,fd00::/8').connections.trustProxy).toEqual([
      '10.0.0.0/8',
      '192.168.1.1',
      'fd00::/8',
    ]);
    // Behind a proxy the sockets are the proxy's: no per-address cap unless asked for.
    expect(config('1').connections.perAddress).toBe(0);
  });

  it('refuses a headers timeout longer than the request timeout, naming it', () => {
    expect(() =>
      loadConfig({
        DATA_DIR: testConfig().dataDir,
        HEADERS_TIMEOUT_SECONDS: '30',
        REQUEST_TIMEOUT_SECONDS: '20',
      }),
    ).toThrowError(/HEADERS_TIMEOUT_SECONDS: must not be longer than REQUEST_TIMEOUT_SECONDS/);
  });

  it('stops the start naming the variable on a bad value', () => {
    for (const bad of ['yes', '10.0.0.0/33', 'proxy.example.com', '-1']) {
      expect(() => config(bad)).toThrowError(ConfigError);
      expect(() => config(bad)).toThrowError(/TRUST_PROXY: must be a number of proxies/);
    }
  });
});

/** Lines the app logged, parsed. */
function logLines() {
  const stream = new PassThrough();
  const lines: Array<Record<string, unknown>> = [];
  stream.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
  });
  return { stream, lines };
}

async function openSocket(port: number): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  return socket;
}

/** Resolves when the server closed the socket (an end or a reset). */
const closed = (socket: Socket) =>
  new Promise<void>((resolve) => {
    socket.on('error', () => resolve());
    socket.on('close', () => resolve());
    socket.resume();
  });

describe('connection limits', () => {
  it('closes a connection whose headers never finish (slowloris)', async () => {
    const app = await createTestApp({
      config: testConfig({ HEADERS_TIMEOUT_SECONDS: '1', REQUEST_TIMEOUT_SECONDS: '2' }),
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    const socket = await openSocket(port);
    socket.write('GET /api/health HTTP/1.1\r\nHost: localhost\r\nX-Slow: ');
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    await closed(socket);
    // Node answers 408 before closing a request whose headers timed out.
    expect(Buffer.concat(received).toString()).toMatch(/^HTTP\/1\.1 408/);
  });

  it('caps connections per address and logs the refusals', async () => {
    const log = logLines();
    const app = await createTestApp({
      config: testConfig({ MAX_CONNECTIONS_PER_ADDRESS: '2', LOG_LEVEL: 'warn' }),
      logStream: log.stream,
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    const held = [await openSocket(port), await openSocket(port)];
    const third = await openSocket(port);
    await closed(third);
    expect(log.lines.some((line) => line.refusedPerAddress === 1)).toBe(true);
    for (const socket of held) socket.destroy();
  });

  it('logs connections dropped at MAX_CONNECTIONS', async () => {
    const log = logLines();
    const app = await createTestApp({
      config: testConfig({ MAX_CONNECTIONS: '2', LOG_LEVEL: 'warn' }),
      logStream: log.stream,
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    const held = [await openSocket(port), await openSocket(port)];
    const third = await openSocket(port);
    await closed(third);
    expect(log.lines.some((line) => line.refusedAtMaxConnections === 1)).toBe(true);
    for (const socket of held) socket.destroy();
  });
});
