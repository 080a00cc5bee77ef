import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { type ObjectStorage, within } from '../../lib/storage/storage.js';

/** The storage folder of the pictures uploaded in the console. */
const FOLDER = 'content-images';

/** What each picture's first bytes must be, by extension (an upload is what it says). */
const SIGNATURES: Record<string, (bytes: Buffer) => boolean> = {
  '.png': (bytes) => bytes.subarray(0, 8).equals(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10])),
  '.jpg': (bytes) => bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff,
  '.jpeg': (bytes) => bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff,
  '.webp': (bytes) =>
    bytes.subarray(0, 4).toString('latin1') === 'RIFF' &&
    bytes.subarray(8, 12).toString('latin1') === 'WEBP',
  '.svg': (bytes) => /<svg[\s>]/.test(bytes.subarray(0, 4096).toString('utf8')),
};

export const isImageOfItsType = (name: string, bytes: Buffer) =>
  SIGNATURES[path.extname(name).toLowerCase()]?.(bytes) ?? false;

/**
 * The content's pictures (decision 054): those shipped in content/images, and those uploaded
 * in the console to the configured storage (DATA_DIR or S3, so every server serves them). An
 * upload never replaces a shipped picture of the same name: the name is refused.
 */
export function createContentImages(storage: ObjectStorage, contentDir: string) {
  const uploaded = within(storage, FOLDER);
  const shippedDir = path.join(contentDir, 'images');
  const shipped = async () => (await readdir(shippedDir).catch(() => [] as string[])).sort();
  return {
    shipped,
    async names(): Promise<string[]> {
      const stored = (await uploaded.list('')).map((entry) => entry.key);
      return [...new Set([...(await shipped()), ...stored])].sort();
    },
    async exists(name: string): Promise<boolean> {
      return (await shipped()).includes(name) || (await uploaded.stat(name)) !== undefined;
    },
    /** The picture's bytes, or undefined when there is none of that name. */
    async read(name: string): Promise<Buffer | undefined> {
      if ((await shipped()).includes(name)) return readFile(path.join(shippedDir, name));
      const stream = await uploaded.read(name);
      if (!stream) return undefined;
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    },
    put: (name: string, bytes: Buffer) => uploaded.put(name, bytes),
  };
}

export type ContentImages = ReturnType<typeof createContentImages>;
