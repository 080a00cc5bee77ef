import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createTestApp, TEST_DATABASE_KIND, testConfig } from '../../test/test-app.js';
import { redactedUrl } from './request-log.js';

/*
 * Issue 28 item 7: the keys of reset and validation links were written to the request log,
 * so anyone reading the logs could reset a password.
 */
const lines: string[] = [];
const stream = new PassThrough();
stream.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
const app = await createTestApp({ config: testConfig({ LOG_LEVEL: 'info' }), logStream: stream });

describe(`request logs (${TEST_DATABASE_KIND})`, () => {
  it('never show the key of a reset or validation link', async () => {
    const key = `Secret${'k'.repeat(37)}`;
    await app.inject({
      method: 'PUT',
      url: `/api/auth/reset_password/${key}`,
      payload: { password: 'a new password', confirm_password: 'a new password' },
    });
    await app.inject({ method: 'GET', url: `/api/auth/validate_email_address/${key}` });
    await app.inject({ method: 'GET', url: `/auth/reset-password/${key}?key=${key}` });
    await app.inject({ method: 'GET', url: `/auth/validate-email-address/${key}` });
    const logged = lines.map((line) => JSON.parse(line) as { req?: { url?: string } });
    const urls = logged.flatMap((line) => (line.req?.url ? [line.req.url] : []));
    expect(urls).toContain('/api/auth/reset_password/[redacted]');
    expect(urls).toContain('/api/auth/validate_email_address/[redacted]');
    expect(urls).toContain('/auth/reset-password/[redacted]?key=[redacted]');
    expect(lines.join('\n')).not.toContain(key);
  });

  it('keeps the rest of a URL as it was', () => {
    expect(redactedUrl('/api/convertor/voices?language=en-us')).toBe(
      '/api/convertor/voices?language=en-us',
    );
    expect(redactedUrl('/api/file/list?page=2&token=abc')).toBe(
      '/api/file/list?page=2&token=[redacted]',
    );
  });
});
