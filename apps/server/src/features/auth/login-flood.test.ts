import { describe, expect, it } from 'vitest';
import { createTestApp, signedInUser, TEST_DATABASE_KIND } from '../../../test/test-app.js';
import { PASSWORD_HASHING } from '../../lib/limits.js';

/*
 * Issue 28 item 7: 60 concurrent bad logins from 60 addresses answered 503 to everyone. A device
 * that signed in to an address before keeps a way in: its login is served ahead of the flood.
 */
const app = await createTestApp();

const login = (email: string, password: string, remoteAddress: string, cookie?: string) =>
  app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress,
    headers: cookie ? { cookie } : {},
    payload: { email, password },
  });

describe(`logins under a flood (${TEST_DATABASE_KIND})`, () => {
  it('lets a device that signed in before through while bad logins fill the queue', async () => {
    const { user, password } = await signedInUser(app);
    const first = await login(user.email, password, '198.51.100.1');
    expect(first.statusCode).toBe(200);
    const device = first.cookies.find((cookie) => cookie.name === 'parla_device');
    expect(device?.httpOnly).toBe(true);
    const cookie = `parla_device=${device?.value}`;

    // More bad logins than the queue holds, from many addresses.
    const flood = Array.from(
      { length: PASSWORD_HASHING.concurrency + PASSWORD_HASHING.queued + 6 },
      (_, i) => login(`flood-${i}@example.com`, 'not the password', `203.0.113.${i + 1}`),
    );
    const busy = await Promise.race(
      flood.map(async (response) =>
        (await response).statusCode === 503 ? 503 : new Promise(() => undefined),
      ),
    );
    expect(busy).toBe(503);

    // The queue is full: a login from an unknown device is turned away, the known one is not.
    const stranger = await login(user.email, password, '198.51.100.2');
    expect(stranger.statusCode).toBe(503);
    const known = await login(user.email, password, '198.51.100.1', cookie);
    expect(known.statusCode).toBe(200);
    await Promise.all(flood);
  }, 180_000);
});
