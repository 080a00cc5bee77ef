import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { zipSync } from 'fflate';
import { create as createTar } from 'tar';
import {
  testKokoroModel,
  testKokoroStyles,
  testVoiceModel,
  testVoicePiperConfig,
  testVoiceTokens,
} from '../test-voice.js';

/**
 * One loopback server that answers as the hosts of voice models do, for tests (no model can be
 * downloaded on the machines that run them). Real hosts differ by name; here by path prefix:
 *
 * - `/hf/rhasspy/piper-voices/resolve/v1.0.0/…`: Hugging Face's `resolve/` addresses. Small
 *   files (voices.json, .onnx.json, MODEL_CARD) come straight back; LFS files (.onnx) answer
 *   302 to the content host with `X-Linked-Etag` (the object's SHA-256, quoted) and
 *   `X-Linked-Size`, as huggingface_hub's file_download.py reads them;
 * - `/cdn/<sha256>`: the content host, with `ETag`, `Accept-Ranges` and `Range` (206);
 * - `/github/k2-fsa/sherpa-onnx/releases/download/tts-models/<name>.tar.bz2`: a release
 *   download, 302 to the objects host;
 * - `/objects/<n>`: the objects host: `Content-Length`, `ETag`, `Last-Modified`, `Range`.
 *
 * The voices are the generated test models (test-voice.ts), packed as the real ones are:
 * Piper's files one by one with their MD5 in voices.json; Kokoro v1 as sherpa-onnx's
 * `tar cjf` of a folder named as the model (model.int8.onnx, voices.bin, tokens.txt,
 * lexicon-*.txt, espeak-ng-data/). Faults are set per test: a connection cut after some bytes,
 * a wrong checksum, a truncated archive.
 */

export interface VoiceHostRequest {
  path: string;
  range?: string;
  ifRange?: string;
  status: number;
}

export interface VoiceHosts {
  /** http://127.0.0.1:port */
  origin: string;
  /** PIPER_VOICES_URL of the catalogue. */
  piperBase: string;
  /** KOKORO_MODELS_URL of the releases. */
  kokoroBase: string;
  requests: VoiceHostRequest[];
  /** The next `times` answers of a resource (path part) stop after `bytes` bytes. */
  cut(pathEnding: string, bytes: number, times?: number): void;
  /** Answers a resource (path ending) from now on with these bytes instead (same headers). */
  replace(pathEnding: string, bytes: Uint8Array, options?: { linkedEtag?: string }): void;
  /** Delays every body by this many ms per 64 KiB (to watch progress). */
  slow(msPerChunk: number): void;
  /** Bytes of a served file by path ending (to check what was installed). */
  bytes(pathEnding: string): Uint8Array | undefined;
  close(): Promise<void>;
}

const PIPER_PREFIX = '/hf/rhasspy/piper-voices/resolve/v1.0.0/';
const RELEASE_PREFIX = '/github/k2-fsa/sherpa-onnx/releases/download/tts-models/';

interface Served {
  bytes: Uint8Array;
  /** Answered by a redirect to a content host first. */
  redirect?: 'hf' | 'github';
  linkedEtag?: string;
}

const md5 = (b: Uint8Array) => createHash('md5').update(b).digest('hex');
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const text = (s: string) => new TextEncoder().encode(s);
const run = promisify(execFile);

/** Bytes that do not compress (a linear congruential sequence), the same every run. */
function noise(length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let state = 12345;
  for (let i = 0; i < length; i++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    bytes[i] = state >>> 24;
  }
  return bytes;
}

/** A Kokoro v1 folder as sherpa-onnx's archive holds it, packed with `tar cjf`. */
export async function kokoroArchive(
  name: string,
  speakerNames: string[],
  format: 'tar.bz2' | 'tar.gz' | 'zip' = 'tar.bz2',
): Promise<Uint8Array> {
  const work = await mkdtemp(join(tmpdir(), 'parla-kokoro-archive-'));
  try {
    const folder = join(work, name);
    await mkdir(join(folder, 'espeak-ng-data'), { recursive: true });
    const files: Record<string, Uint8Array> = {
      'model.int8.onnx': testKokoroModel({ version: 2, speakerNames }),
      'voices.bin': testKokoroStyles(speakerNames.length),
      'tokens.txt': text(testVoiceTokens()),
      'lexicon-us-en.txt': text('hello h e l o\n'),
      'lexicon-zh.txt': text('你 n i\n好 h a o\n'),
      // espeak-ng's phoneme data does not compress much: 256 KiB of it makes the archive
      // big enough to be cut in the middle.
      'espeak-ng-data/phondata': noise(256 * 1024),
    };
    for (const [path, bytes] of Object.entries(files)) await writeFile(join(folder, path), bytes);
    if (format === 'zip') {
      return zipSync(
        Object.fromEntries(Object.entries(files).map(([path, b]) => [`${name}/${path}`, b])),
      );
    }
    const archive = join(work, `${name}.${format}`);
    if (format === 'tar.gz') await createTar({ gzip: true, file: archive, cwd: work }, [name]);
    // sherpa-onnx packs with tar and bzip2 (its scripts' `tar cjf`); so do we.
    else await run('tar', ['-cjf', archive, '-C', work, name]);
    return new Uint8Array(await readFile(archive));
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** Piper's voices.json entry and files for a test voice. */
function piperVoice(key: string, sampleRate: number) {
  const [locale = 'en_US', name = 'test', quality = 'x_low'] = key.split('-');
  const folder = `${locale.split('_')[0]}/${locale}/${name}/${quality}`;
  const files: Record<string, Uint8Array> = {
    [`${folder}/${key}.onnx`]: testVoiceModel({ bare: true, sampleRate }),
    [`${folder}/${key}.onnx.json`]: text(
      JSON.stringify(testVoicePiperConfig({ sampleRate, language: locale })),
    ),
    [`${folder}/MODEL_CARD`]: text(`# Model card for ${name} (${quality})\n\n* License: CC0-1.0\n`),
  };
  const entry = {
    key,
    name,
    language: { code: locale, family: locale.split('_')[0], region: locale.split('_')[1] },
    quality,
    num_speakers: 1,
    speaker_id_map: {},
    files: Object.fromEntries(
      Object.entries(files).map(([path, b]) => [
        path,
        { size_bytes: b.length, md5_digest: md5(b) },
      ]),
    ),
    aliases: [],
  };
  return { files, entry };
}

export async function startVoiceHosts(
  options: { kokoro?: Record<string, string[]>; piper?: string[] } = {},
): Promise<VoiceHosts> {
  const served = new Map<string, Served>();
  const byHash = new Map<string, Served>();
  const objects = new Map<string, Served>();
  const requests: VoiceHostRequest[] = [];
  const cuts: { ending: string; bytes: number; times: number }[] = [];
  let msPerChunk = 0;

  const catalogue: Record<string, unknown> = {};
  for (const key of options.piper ?? ['en_US-test-x_low']) {
    const voice = piperVoice(key, 22050);
    catalogue[key] = voice.entry;
    for (const [path, bytes] of Object.entries(voice.files)) {
      served.set(`${PIPER_PREFIX}${path}`, {
        bytes,
        ...(path.endsWith('.onnx') && { redirect: 'hf' as const, linkedEtag: sha256(bytes) }),
      });
    }
  }
  served.set(`${PIPER_PREFIX}voices.json`, { bytes: text(JSON.stringify(catalogue)) });
  const kokoro = options.kokoro ?? {
    'kokoro-int8-multi-lang-v1_0': ['af_heart', 'bm_george', 'ff_siwis', 'jf_alpha', 'zf_xiaobei'],
  };
  for (const [name, speakers] of Object.entries(kokoro)) {
    served.set(`${RELEASE_PREFIX}${name}.tar.bz2`, {
      bytes: await kokoroArchive(name, speakers),
      redirect: 'github',
    });
  }

  const find = (ending: string) => [...served.entries()].find(([path]) => path.endsWith(ending));

  /** A body with Range support, cut or slowed as the test asked. */
  async function send(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    file: Served,
    etag: string,
  ) {
    const total = file.bytes.length;
    let start = 0;
    let end = total - 1;
    let status = 200;
    const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    const ifRange = req.headers['if-range'];
    if (range && (!ifRange || ifRange === etag)) {
      start = Number(range[1]);
      end = range[2] ? Math.min(Number(range[2]), total - 1) : total - 1;
      if (start >= total) {
        requests.push({ path, range: req.headers.range ?? '', status: 416 });
        res.writeHead(416, { 'content-range': `bytes */${total}` }).end();
        return;
      }
      status = 206;
    }
    requests.push({
      path,
      ...(req.headers.range && { range: req.headers.range }),
      ...(typeof ifRange === 'string' && { ifRange }),
      status,
    });
    res.writeHead(status, {
      'content-type': 'application/octet-stream',
      'content-length': end - start + 1,
      'accept-ranges': 'bytes',
      etag,
      'last-modified': 'Wed, 05 Feb 2025 10:00:00 GMT',
      ...(status === 206 && { 'content-range': `bytes ${start}-${end}/${total}` }),
    });
    const cut = cuts.find((c) => path.includes(c.ending) && c.times > 0);
    const stopAt = cut ? Math.min(end + 1, start + cut.bytes) : end + 1;
    if (cut) cut.times -= 1;
    for (let at = start; at < stopAt; at += 65536) {
      if (msPerChunk) await new Promise((resolve) => setTimeout(resolve, msPerChunk));
      const chunk = file.bytes.subarray(at, Math.min(stopAt, at + 65536));
      if (!res.write(chunk)) await new Promise((resolve) => res.once('drain', resolve));
    }
    if (cut) {
      // The connection drops mid-body, as a flaky network does, once what was sent is out.
      await new Promise((resolve) => setTimeout(resolve, 50));
      res.socket?.destroy();
      return;
    }
    res.end();
  }

  const server = createServer((req, res) => {
    const path = decodeURI(new URL(req.url ?? '/', 'http://x').pathname);
    const direct = served.get(path);
    if (direct?.redirect === 'hf') {
      const hash = sha256(direct.bytes);
      byHash.set(hash, direct);
      requests.push({ path, status: 302 });
      res
        .writeHead(302, {
          location: `/cdn/${hash}`,
          'x-linked-etag': `"${direct.linkedEtag ?? hash}"`,
          'x-linked-size': String(direct.bytes.length),
          etag: `"${direct.linkedEtag ?? hash}"`,
          'x-repo-commit': '0'.repeat(40),
        })
        .end();
      return;
    }
    if (direct?.redirect === 'github') {
      const id = String(objects.size + 1);
      objects.set(id, direct);
      requests.push({ path, status: 302 });
      res.writeHead(302, { location: `/objects/${id}?sp=r&sig=test` }).end();
      return;
    }
    if (direct) {
      void send(req, res, path, direct, `"${sha256(direct.bytes).slice(0, 40)}"`);
      return;
    }
    const cdn = /^\/cdn\/([0-9a-f]{64})$/.exec(path);
    const viaHash = cdn?.[1] && byHash.get(cdn[1]);
    if (viaHash) {
      void send(req, res, path, viaHash, `"${cdn?.[1]}"`);
      return;
    }
    const object = /^\/objects\/(\d+)$/.exec(path);
    const viaObject = object?.[1] && objects.get(object[1]);
    if (viaObject) {
      void send(req, res, path, viaObject, `"0x8DD45F${sha256(viaObject.bytes).slice(0, 10)}"`);
      return;
    }
    requests.push({ path, status: 404 });
    res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    origin,
    piperBase: `${origin}${PIPER_PREFIX}`,
    kokoroBase: `${origin}${RELEASE_PREFIX}`,
    requests,
    cut(ending, bytes, times = 1) {
      cuts.push({ ending, bytes, times });
    },
    replace(ending, bytes, replaceOptions = {}) {
      const found = find(ending);
      if (!found) throw new Error(`nothing served ends with ${ending}`);
      served.set(found[0], {
        ...found[1],
        bytes,
        ...(replaceOptions.linkedEtag && { linkedEtag: replaceOptions.linkedEtag }),
      });
    },
    slow(ms) {
      msPerChunk = ms;
    },
    bytes(ending) {
      return find(ending)?.[1].bytes;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An address where nothing listens (a port just freed): a machine without network. */
export async function unreachableUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`;
}
