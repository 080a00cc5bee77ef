import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ANTI_FORGERY_HEADER,
  ApiError,
  apiRequest,
  buildHeaders,
  GENERIC_ERROR_MESSAGE,
  NETWORK_ERROR_MESSAGE,
  onUnauthorized,
  resolveUrl,
} from './api-client';
import { deleteCookie, setCookie } from './cookies';

/** The cookie's own expiry; the token's exp claim is what the tests vary. */
const IN_AN_HOUR = new Date(Date.now() + 3_600_000);

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

describe('resolveUrl', () => {
  it('puts API paths under /api and keeps absolute URLs', () => {
    expect(resolveUrl('/account/profile')).toBe('/api/account/profile');
    expect(resolveUrl('/api/health')).toBe('/api/health');
    expect(resolveUrl('https://cdn.example.com/a.mp3')).toBe('https://cdn.example.com/a.mp3');
  });

  it('appends the defined query parameters', () => {
    expect(
      resolveUrl('/seo/meta', { type: 'pages', language: 'default', path: '/a b', x: null }),
    ).toBe('/api/seo/meta?type=pages&language=default&path=%2Fa+b');
  });
});

describe('buildHeaders', () => {
  it('sends the bearer token and JSON to our API', () => {
    const headers = buildHeaders('/api/account/profile', 'GET', undefined, 'abc');
    expect(headers.get('Authorization')).toBe('Bearer abc');
    expect(headers.get('Accept')).toBe('application/json');
  });

  it('adds the anti-forgery header only on relative requests that are not GET or HEAD', () => {
    expect(buildHeaders('/api/x', 'POST', {}, undefined).get(ANTI_FORGERY_HEADER)).toBe('parla');
    expect(buildHeaders('/api/x', 'DELETE', undefined, undefined).get(ANTI_FORGERY_HEADER)).toBe(
      'parla',
    );
    expect(buildHeaders('/api/x', 'GET', undefined, undefined).has(ANTI_FORGERY_HEADER)).toBe(
      false,
    );
    expect(buildHeaders('/api/x', 'HEAD', undefined, undefined).has(ANTI_FORGERY_HEADER)).toBe(
      false,
    );
    expect(
      buildHeaders('https://other.example/x', 'POST', {}, undefined).has(ANTI_FORGERY_HEADER),
    ).toBe(false);
  });

  it('never sends the token to another origin', () => {
    expect(
      buildHeaders('https://other.example/a.mp3', 'GET', undefined, 'abc').has('Authorization'),
    ).toBe(false);
  });

  it('lets the browser set the multipart content type', () => {
    expect(buildHeaders('/api/file/media', 'POST', new FormData(), 'abc').has('Content-Type')).toBe(
      false,
    );
    expect(buildHeaders('/api/x', 'POST', { a: 1 }, 'abc').get('Content-Type')).toBe(
      'application/json',
    );
  });
});

describe('apiRequest', () => {
  const fetchMock = vi.fn<typeof fetch>();

  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    fetchMock.mockReset();
  });

  afterEach(() => {
    vi.unstubAllGlobals();
    deleteCookie('token');
  });

  it('sends JSON with the token cookie and answers the parsed body', async () => {
    setCookie('token', 'tok123', IN_AN_HOUR);
    fetchMock.mockResolvedValue(jsonResponse(200, { ok: true }));
    const answer = await apiRequest<{ ok: boolean }>('/mail/contact', {
      method: 'POST',
      body: { name: 'Ann' },
    });
    expect(answer).toEqual({ ok: true });
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/mail/contact');
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe('{"name":"Ann"}');
    const headers = new Headers(init?.headers);
    expect(headers.get('Authorization')).toBe('Bearer tok123');
    expect(headers.get(ANTI_FORGERY_HEADER)).toBe('parla');
  });

  it("turns a failure into the server's message", async () => {
    fetchMock.mockResolvedValue(jsonResponse(400, { message: 'Incorect email address.' }));
    await expect(apiRequest('/auth/login', { method: 'POST', body: {} })).rejects.toEqual(
      new ApiError('Incorect email address.', 400),
    );
  });

  it('uses the fallback message when the server gives none', async () => {
    fetchMock.mockResolvedValue(new Response('<html>Bad gateway</html>', { status: 502 }));
    await expect(
      apiRequest('/auth/login', { method: 'POST', fallbackMessage: 'Failed login!' }),
    ).rejects.toMatchObject({ message: 'Failed login!', status: 502 });
    fetchMock.mockResolvedValue(jsonResponse(500, {}));
    await expect(apiRequest('/x')).rejects.toMatchObject({ message: GENERIC_ERROR_MESSAGE });
  });

  it('reports a network failure with status 0', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    await expect(apiRequest('/x')).rejects.toMatchObject({
      status: 0,
      message: NETWORK_ERROR_MESSAGE,
    });
  });

  it('tells the session layer about a 401', async () => {
    const listener = vi.fn();
    const stop = onUnauthorized(listener);
    fetchMock.mockResolvedValue(jsonResponse(401, { message: 'Unauthorized' }));
    const error = await apiRequest('/account/profile').catch((e: unknown) => e);
    stop();
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).isUnauthorized).toBe(true);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('reads on without a session the server refused, but never writes as a visitor', async () => {
    setCookie('token', 'expired', IN_AN_HOUR);
    const stop = onUnauthorized(() => deleteCookie('token'));
    fetchMock
      .mockResolvedValueOnce(jsonResponse(401, { message: 'Your session has expired.' }))
      .mockResolvedValueOnce(jsonResponse(200, { voices: 3 }));
    expect(await apiRequest('/convertor/voices')).toEqual({ voices: 3 });
    const [first, second] = fetchMock.mock.calls.map(([, init]) => new Headers(init?.headers));
    expect(first?.get('Authorization')).toBe('Bearer expired');
    expect(second?.has('Authorization')).toBe(false);

    setCookie('token', 'expired', IN_AN_HOUR);
    fetchMock.mockReset();
    fetchMock.mockResolvedValue(jsonResponse(401, { message: 'Your session has expired.' }));
    const error = await apiRequest('/convertor', { method: 'POST', body: {} }).catch(
      (e: unknown) => e,
    );
    stop();
    expect(error).toEqual(new ApiError('Your session has expired.', 401));
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('validates the answer with the given schema', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { count: 'three' }));
    const schema = {
      parse(data: unknown) {
        if (typeof (data as { count?: unknown }).count !== 'number') throw new Error('bad');
        return data as { count: number };
      },
    };
    await expect(apiRequest('/x', { schema })).rejects.toBeInstanceOf(ApiError);
  });

  it('reads binary answers as a Blob', async () => {
    fetchMock.mockResolvedValue(new Response(new Uint8Array([1, 2, 3]), { status: 200 }));
    const blob = await apiRequest<Blob>('/file/media/1', { responseType: 'blob' });
    expect(blob.size).toBe(3);
  });
});
