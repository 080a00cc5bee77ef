import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { SpeechError } from '../../errors.js';

/**
 * Downloads a model file so that an interrupted download is never used and never started over:
 * the bytes go to `<file>.part` (with `<file>.part.json` naming the URL and the validator the
 * host gave), a later attempt asks for the rest with `Range` / `If-Range` (RFC 9110 §14), and
 * only a complete file whose size and checksum match is renamed to `<file>`.
 *
 * Redirects are followed by hand because the checksum is on the redirect itself: Hugging Face's
 * `resolve/` answers 302 with `X-Linked-Etag` (the LFS object's SHA-256) and `X-Linked-Size`
 * before sending the client to its content host (huggingface_hub's file_download.py reads the
 * same headers); GitHub release downloads answer 302 to their objects host, which gives the
 * size (Content-Length / Content-Range) and no checksum.
 */

export interface Expected {
  size?: number | undefined;
  md5?: string | undefined;
  sha256?: string | undefined;
}

export interface DownloadOptions {
  expected?: Expected;
  /** Called as bytes arrive (`total` when known). */
  onProgress?: (bytes: number, total: number | undefined) => void;
  /** Attempts after the first one (default 5), waiting `backoffMs` × 2^n in between. */
  retries?: number;
  backoffMs?: number;
  signal?: AbortSignal;
}

/** The download failed because the host could not be reached at all (no network, refused). */
export class UnreachableError extends SpeechError {
  constructor(url: string, cause: string) {
    super('engine_unavailable', `Cannot reach ${new URL(url).host}: ${cause}`);
    this.name = 'UnreachableError';
  }
}

interface PartInfo {
  url: string;
  validator?: string;
}

interface Hop {
  response: Response;
  linkedEtag?: string;
  linkedSize?: number;
}

const MAX_REDIRECTS = 8;

/** The unquoted value of an ETag (`W/"abc"` → `abc`). */
function unquote(etag: string): string {
  return etag.replace(/^W\//, '').replace(/^"|"$/g, '');
}

async function request(url: string, headers: Record<string, string>, signal?: AbortSignal) {
  let current = url;
  let linkedEtag: string | undefined;
  let linkedSize: number | undefined;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop += 1) {
    let response: Response;
    try {
      response = await fetch(current, {
        headers,
        redirect: 'manual',
        ...(signal && { signal }),
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new UnreachableError(current, cause?.code ?? cause?.message ?? String(error));
    }
    const etag = response.headers.get('x-linked-etag');
    if (etag) linkedEtag = unquote(etag);
    const size = Number(response.headers.get('x-linked-size'));
    if (Number.isSafeInteger(size) && size > 0) linkedSize = size;
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      current = new URL(location, current).href;
      continue;
    }
    return {
      response,
      ...(linkedEtag && { linkedEtag }),
      ...(linkedSize && { linkedSize }),
    } satisfies Hop;
  }
  throw new SpeechError('engine_unavailable', `${url}: too many redirects.`);
}

/** Statuses worth another attempt: the host is busy or failing, not refusing us. */
function retryable(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

async function sizeOf(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch {
    return 0;
  }
}

async function readPartInfo(path: string): Promise<PartInfo | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as PartInfo;
  } catch {
    return undefined;
  }
}

function hashFile(path: string, algorithm: 'md5' | 'sha256'): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash(algorithm);
    createReadStream(path)
      .on('data', (chunk) => hash.update(chunk))
      .on('end', () => resolve(hash.digest('hex')))
      .on('error', reject);
  });
}

/** A 64-hex ETag is a SHA-256 (Hugging Face's LFS objects); other ETags are opaque. */
function sha256From(hop: Hop): string | undefined {
  const candidate = hop.linkedEtag;
  return candidate && /^[0-9a-f]{64}$/i.test(candidate) ? candidate.toLowerCase() : undefined;
}

const wait = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });

/**
 * Downloads `url` to `file` (see above). Answers what was checked: the size, and the checksums
 * the caller or the host gave. Throws `UnreachableError` when no attempt reached the host.
 */
export async function downloadFile(
  url: string,
  file: string,
  options: DownloadOptions = {},
): Promise<{ size: number; sha256: string; md5: string; checked: string[] }> {
  const part = `${file}.part`;
  const infoFile = `${file}.part.json`;
  const retries = options.retries ?? 5;
  const backoffMs = options.backoffMs ?? 1000;
  await mkdir(dirname(file), { recursive: true });
  let info = await readPartInfo(infoFile);
  if (info?.url !== url) {
    // Bytes of another address are not the start of this one.
    await rm(part, { force: true });
    info = { url };
  }
  let lastError: Error | undefined;
  let reached = false;
  let hostSha256: string | undefined;
  let total: number | undefined;
  for (let attempt = 0; attempt <= retries; attempt += 1) {
    if (attempt > 0) await wait(backoffMs * 2 ** (attempt - 1), options.signal);
    const have = await sizeOf(part);
    const headers: Record<string, string> = { 'accept-encoding': 'identity' };
    if (have > 0) {
      headers.range = `bytes=${have}-`;
      if (info.validator) headers['if-range'] = info.validator;
    }
    let hop: Hop;
    try {
      hop = await request(url, headers, options.signal);
    } catch (error) {
      if (!(error instanceof UnreachableError)) throw error;
      lastError = error;
      continue;
    }
    reached = true;
    const { response } = hop;
    hostSha256 = sha256From(hop) ?? hostSha256;
    if (response.status === 416) {
      // The part is already whole (or longer than the file): start again, checked below.
      await response.body?.cancel();
      await rm(part, { force: true });
      lastError = new SpeechError('engine_unavailable', `${url} refused the range.`);
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel();
      const error = new SpeechError('engine_unavailable', `${url} answered ${response.status}.`);
      if (!retryable(response.status)) throw error;
      lastError = error;
      continue;
    }
    const resumed = response.status === 206;
    let offset = 0;
    if (resumed) {
      const range = /bytes (\d+)-(\d+)\/(\d+|\*)/.exec(response.headers.get('content-range') ?? '');
      offset = Number(range?.[1] ?? -1);
      if (offset !== have) {
        // Not the bytes asked for: begin again from nothing.
        await response.body?.cancel();
        await rm(part, { force: true });
        lastError = new SpeechError('engine_unavailable', `${url} answered another range.`);
        continue;
      }
      if (range?.[3] && range[3] !== '*') total = Number(range[3]);
    } else {
      const length = Number(response.headers.get('content-length'));
      total = Number.isSafeInteger(length) && length > 0 ? length : undefined;
    }
    total = hop.linkedSize ?? total;
    const validator = response.headers.get('etag') ?? response.headers.get('last-modified');
    info = { url, ...(validator && { validator }) };
    await writeFile(infoFile, JSON.stringify(info));
    if (!response.body) {
      lastError = new SpeechError('engine_unavailable', `${url} sent no body.`);
      continue;
    }
    let received = offset;
    // Each chunk is written before the next is read: whatever arrived before a cut is on disk.
    const handle = await open(part, resumed ? 'a' : 'w');
    try {
      for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
        await handle.write(chunk);
        received += chunk.length;
        options.onProgress?.(received, total);
      }
    } catch (error) {
      if (options.signal?.aborted) throw error;
      // Cut in the middle: what arrived stays in the part for the next attempt.
      lastError = new SpeechError(
        'engine_unavailable',
        `${url}: the download was cut at ${received} bytes (${(error as Error).message}).`,
      );
      continue;
    } finally {
      await handle.close();
    }
    const size = await sizeOf(part);
    if (total !== undefined && size < total) {
      lastError = new SpeechError(
        'engine_unavailable',
        `${url}: received ${size} of ${total} bytes.`,
      );
      continue;
    }
    return verify(url, file, part, infoFile, {
      ...options.expected,
      size: options.expected?.size ?? total,
      sha256: options.expected?.sha256 ?? hostSha256,
    });
  }
  if (!reached && lastError instanceof UnreachableError) throw lastError;
  throw lastError ?? new SpeechError('engine_unavailable', `${url} could not be downloaded.`);
}

/** Checks a complete part against what is known of the file, then puts it in place. */
async function verify(
  url: string,
  file: string,
  part: string,
  infoFile: string,
  expected: Expected,
): Promise<{ size: number; sha256: string; md5: string; checked: string[] }> {
  const size = await sizeOf(part);
  const refuse = async (why: string) => {
    // A wrong file is not resumed either: the next attempt starts from nothing.
    await rm(part, { force: true });
    await rm(infoFile, { force: true });
    return new SpeechError('engine_unavailable', `${url}: ${why}`);
  };
  const checked: string[] = [];
  if (expected.size !== undefined) {
    if (size !== expected.size)
      throw await refuse(`expected ${expected.size} bytes, received ${size}.`);
    checked.push('size');
  }
  const [sha256, md5] = await Promise.all([hashFile(part, 'sha256'), hashFile(part, 'md5')]);
  if (expected.sha256) {
    if (sha256 !== expected.sha256.toLowerCase())
      throw await refuse(`checksum (SHA-256) ${sha256} does not match ${expected.sha256}.`);
    checked.push('sha256');
  }
  if (expected.md5) {
    if (md5 !== expected.md5.toLowerCase())
      throw await refuse(`checksum (MD5) ${md5} does not match ${expected.md5}.`);
    checked.push('md5');
  }
  await rename(part, file);
  await rm(infoFile, { force: true });
  return { size, sha256, md5, checked };
}
