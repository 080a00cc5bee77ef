import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import { dirname, isAbsolute, join, normalize, sep } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { type ReadEntry, extract as tarExtract } from 'tar';
import unbzip2 from 'unbzip2-stream';
import yauzl from 'yauzl';
import { SpeechError } from '../../errors.js';

/**
 * Unpacks the archives voices come in: sherpa-onnx publishes its models as .tar.bz2 (GitHub
 * release `tts-models`), people pass .tar.gz and .zip around. The format is told by the file's
 * first bytes, not its name. Entries that would land outside the folder are refused (tar and
 * yauzl both check), and so is an archive whose content grows past `maxBytes` (a bomb).
 */

export type ArchiveKind = 'tar' | 'tar.gz' | 'tar.bz2' | 'zip';

/** 4 GiB: a Kokoro model unpacks to well under 1 GiB. */
export const DEFAULT_MAX_UNPACKED_BYTES = 4 * 1024 ** 3;
const MAX_ENTRIES = 20_000;

export async function archiveKind(file: string): Promise<ArchiveKind | undefined> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(262);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    if (bytesRead >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'tar.gz';
    if (bytesRead >= 3 && head.toString('latin1', 0, 3) === 'BZh') return 'tar.bz2';
    if (bytesRead >= 4 && head.readUInt32LE(0) === 0x04034b50) return 'zip';
    if (bytesRead >= 262 && head.toString('latin1', 257, 262) === 'ustar') return 'tar';
    return undefined;
  } finally {
    await handle.close();
  }
}

function tooBig(maxBytes: number): SpeechError {
  return new SpeechError(
    'bad_input',
    `the archive unpacks to more than ${Math.round(maxBytes / 1e6)} MB; refused.`,
  );
}

/** Counts bytes through a stream and stops it past the limit. */
function limiter(maxBytes: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > maxBytes) done(tooBig(maxBytes));
      else done(null, chunk);
    },
  });
}

async function unpackTar(
  file: string,
  folder: string,
  kind: ArchiveKind,
  maxBytes: number,
): Promise<void> {
  let entries = 0;
  const extractor = tarExtract({
    cwd: folder,
    strict: true,
    // Links and devices are no part of a voice; only files and folders are written, and no
    // more of them than a voice has.
    filter: (_path: string, entry: ReadEntry | import('node:fs').Stats) => {
      entries += 1;
      const type = 'type' in entry ? entry.type : 'File';
      return (
        entries <= MAX_ENTRIES && (type === 'File' || type === 'OldFile' || type === 'Directory')
      );
    },
  });
  if (kind === 'tar.bz2') {
    await pipeline(createReadStream(file), unbzip2(), limiter(maxBytes), extractor);
  } else if (kind === 'tar.gz') {
    await pipeline(createReadStream(file), createGunzip(), limiter(maxBytes), extractor);
  } else {
    await pipeline(createReadStream(file), limiter(maxBytes), extractor);
  }
  if (entries > MAX_ENTRIES) throw tooBig(maxBytes);
}

/** The entry's path inside `folder`, or undefined when it would land outside. */
function inside(folder: string, name: string): string | undefined {
  const clean = normalize(name);
  if (isAbsolute(clean) || clean === '..' || clean.startsWith(`..${sep}`)) return undefined;
  return join(folder, clean);
}

function unpackZip(file: string, folder: string, maxBytes: number): Promise<void> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, validateEntrySizes: true }, (error, zip) => {
      if (error || !zip) {
        reject(error ?? new Error('unreadable zip'));
        return;
      }
      let written = 0;
      let entries = 0;
      const fail = (why: Error) => {
        zip.close();
        reject(why);
      };
      zip.on('error', fail);
      zip.on('end', () => resolve());
      zip.on('entry', (entry: yauzl.Entry) => {
        entries += 1;
        written += entry.uncompressedSize;
        if (entries > MAX_ENTRIES || written > maxBytes) {
          fail(tooBig(maxBytes));
          return;
        }
        const target = inside(folder, entry.fileName);
        if (!target) {
          fail(new SpeechError('bad_input', `${entry.fileName} would be written outside.`));
          return;
        }
        if (entry.fileName.endsWith('/')) {
          mkdir(target, { recursive: true }).then(() => zip.readEntry(), fail);
          return;
        }
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) {
            fail(streamError ?? new Error('unreadable entry'));
            return;
          }
          mkdir(dirname(target), { recursive: true })
            .then(() => pipeline(stream, limiter(maxBytes), createWriteStream(target)))
            .then(() => zip.readEntry(), fail);
        });
      });
      zip.readEntry();
    });
  });
}

/**
 * Unpacks `file` (.tar, .tar.gz, .tar.bz2 or .zip, told by its content) into `folder`.
 * Throws a `bad_input` SpeechError saying why when it is not a readable archive.
 */
export async function unpackArchive(
  file: string,
  folder: string,
  maxBytes = DEFAULT_MAX_UNPACKED_BYTES,
): Promise<ArchiveKind> {
  const kind = await archiveKind(file);
  if (!kind) {
    throw new SpeechError(
      'bad_input',
      `${file} is not a readable archive: not a .tar, .tar.gz, .tar.bz2 or .zip.`,
    );
  }
  await mkdir(folder, { recursive: true });
  try {
    if (kind === 'zip') await unpackZip(file, folder, maxBytes);
    else await unpackTar(file, folder, kind, maxBytes);
  } catch (error) {
    if (error instanceof SpeechError) throw error;
    throw new SpeechError(
      'bad_input',
      `${file} is not a readable archive (${kind}): ${(error as Error).message}.`,
    );
  }
  return kind;
}
