import { ErrorResponseSchema, errorMessage, type FieldError } from '@parla/contract';
import { getToken } from './auth-token';

/**
 * The one API client of the web app (CONVENTIONS §11): every call to the server goes through
 * `apiRequest`. It prefixes the API base, sends and reads JSON, adds the bearer token, adds the
 * anti-forgery header where SPEC §7 asks for it, and turns every failure into an `ApiError`
 * carrying the message the screen shows. A 401 means the visitor is signed out.
 */

export const API_BASE = '/api';

/** SPEC §7: sent only on relative-URL requests that are not GET or HEAD. */
export const ANTI_FORGERY_HEADER = 'X-Requested-With';
export const ANTI_FORGERY_VALUE = 'parla';

/** Message shown when the server cannot be reached or answers without a message. */
export const NETWORK_ERROR_MESSAGE =
  'Could not reach the server. Check your connection and try again.';
export const UNEXPECTED_ANSWER_MESSAGE = 'The server sent an unexpected answer. Please try again.';
export const GENERIC_ERROR_MESSAGE = 'Something went wrong. Please try again.';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** HTTP status, or 0 when the request never got an answer. */
  readonly status: number;
  /** The server's field messages (a schema failure), for a form to show beside its fields. */
  readonly fields: FieldError[];

  constructor(message: string, status: number, fields: FieldError[] = []) {
    super(message);
    this.status = status;
    this.fields = fields;
  }

  get isUnauthorized(): boolean {
    return this.status === 401;
  }
}

/** Anything with a zod-like `parse` (every schema of @parla/contract). */
export interface Parser<T> {
  parse(data: unknown): T;
}

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions<T> {
  method?: HttpMethod;
  /** A plain value is sent as JSON; FormData and Blob are sent as they are. */
  body?: unknown;
  query?: Record<string, string | number | boolean | null | undefined>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Validates (and types) the JSON answer. */
  schema?: Parser<T>;
  /** How to read the answer: JSON (default), a Blob (audio) or text (SSML). */
  responseType?: 'json' | 'blob' | 'text';
  /** Message when the server gives none (SPEC §8 fallbacks such as 'Failed login!'). */
  fallbackMessage?: string;
}

type UnauthorizedListener = () => void;
const unauthorizedListeners = new Set<UnauthorizedListener>();

/** Called whenever the API answers 401; the session layer uses it to drop the signed-in state. */
export function onUnauthorized(listener: UnauthorizedListener): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

/** A path under the API base (`/account/profile`) or an absolute URL used as it is. */
export function resolveUrl(path: string, query?: RequestOptions<unknown>['query']): string {
  const isAbsolute = /^[a-z][a-z0-9+.-]*:/i.test(path) || path.startsWith('//');
  let url = isAbsolute || path.startsWith(`${API_BASE}/`) ? path : `${API_BASE}${path}`;
  if (query) {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined && value !== null) params.append(key, String(value));
    }
    const search = params.toString();
    if (search) url += `${url.includes('?') ? '&' : '?'}${search}`;
  }
  return url;
}

export function isRelativeUrl(url: string): boolean {
  return !/^[a-z][a-z0-9+.-]*:/i.test(url) && !url.startsWith('//');
}

/** The headers of one request: JSON, bearer token and anti-forgery header only for our API. */
export function buildHeaders(
  url: string,
  method: HttpMethod,
  body: unknown,
  token: string | undefined,
  extra: Record<string, string> = {},
): Headers {
  const headers = new Headers({ Accept: 'application/json' });
  const relative = isRelativeUrl(url);
  if (body !== undefined && !(body instanceof FormData) && !(body instanceof Blob)) {
    headers.set('Content-Type', 'application/json');
  }
  // The token never leaves our origin.
  if (relative && token) headers.set('Authorization', `Bearer ${token}`);
  if (relative && method !== 'GET' && method !== 'HEAD') {
    headers.set(ANTI_FORGERY_HEADER, ANTI_FORGERY_VALUE);
  }
  for (const [key, value] of Object.entries(extra)) headers.set(key, value);
  return headers;
}

/** The server's `message` and field messages (ErrorResponse of @parla/contract), else the fallback. */
async function readError(
  response: Response,
  fallback: string,
): Promise<{ message: string; fields: FieldError[] }> {
  try {
    const body: unknown = await response.json();
    const parsed = ErrorResponseSchema.safeParse(body);
    return { message: errorMessage(body, fallback), fields: parsed.data?.errors ?? [] };
  } catch {
    // Not JSON (a proxy's HTML error page): the fallback.
    return { message: fallback, fields: [] };
  }
}

/**
 * Calls that may go on without the session when the server refuses its token (an expired
 * "remember me"): reading, and signing in again. Anything else is answered with the refusal,
 * so that nothing is done as a visitor that the person meant to do signed in.
 */
const goesOnSignedOut = (path: string, method: HttpMethod) =>
  method === 'GET' || method === 'HEAD' || /^(\/api)?\/auth\//.test(path);

export async function apiRequest<T = unknown>(
  path: string,
  options: RequestOptions<T> = {},
): Promise<T> {
  const method = options.method ?? 'GET';
  const url = resolveUrl(path, options.query);
  const token = getToken();
  const headers = buildHeaders(url, method, options.body, token, options.headers);
  let body: BodyInit | undefined;
  if (options.body instanceof FormData || options.body instanceof Blob) body = options.body;
  else if (options.body !== undefined) body = JSON.stringify(options.body);

  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers,
      body,
      signal: options.signal,
      credentials: 'same-origin',
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(options.fallbackMessage ?? NETWORK_ERROR_MESSAGE, 0);
  }

  if (!response.ok) {
    const { message, fields } = await readError(
      response,
      options.fallbackMessage ?? GENERIC_ERROR_MESSAGE,
    );
    if (response.status === 401) {
      for (const listener of unauthorizedListeners) listener();
      // The server refuses credentials that do not verify on every call (it never reads them
      // as a visitor's): once the session is dropped, a read or a sign-in goes on without it.
      if (headers.has('Authorization') && !getToken() && goesOnSignedOut(path, method)) {
        return apiRequest(path, options);
      }
    }
    throw new ApiError(message, response.status, fields);
  }

  if (options.responseType === 'blob') return (await response.blob()) as T;
  if (options.responseType === 'text') return (await response.text()) as T;
  if (response.status === 204 || method === 'HEAD') return undefined as T;
  try {
    const text = await response.text();
    const data: unknown = text ? JSON.parse(text) : undefined;
    return options.schema ? options.schema.parse(data) : (data as T);
  } catch {
    // Malformed JSON or an answer that does not match the contract.
    throw new ApiError(options.fallbackMessage ?? UNEXPECTED_ANSWER_MESSAGE, response.status);
  }
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions<T>, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions<T>, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options?: Omit<RequestOptions<T>, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'PUT', body }),
  delete: <T>(path: string, options?: Omit<RequestOptions<T>, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'DELETE' }),
};
