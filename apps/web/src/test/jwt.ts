import { createHmac } from 'node:crypto';

/** A real HS256 JWT, signed the way the server signs them (the browser never checks it). */
export function signJwt(payload: Record<string, unknown>, secret = 'test-secret'): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(payload)}`;
  const signature = createHmac('sha256', secret).update(unsigned).digest('base64url');
  return `${unsigned}.${signature}`;
}
