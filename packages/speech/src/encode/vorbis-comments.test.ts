import { describe, expect, it } from 'vitest';
import { decodeOgg } from '../../test/audio.js';
import { createStreamEncoder } from './encoders.js';
import { nativeOggAvailable } from './vorbis.js';
import { chapterComments, withVorbisComments } from './vorbis-comments.js';

/** 3 s of a gliding tone at 24 kHz, given to the encoder in blocks as a job does. */
function blocks(): Float32Array[] {
  const out: Float32Array[] = [];
  let phase = 0;
  for (let b = 0; b < 30; b++) {
    const block = new Float32Array(2400);
    for (let i = 0; i < block.length; i++) {
      phase += (2 * Math.PI * (200 + b * 5)) / 24000;
      block[i] = 0.4 * Math.sin(phase);
    }
    out.push(block);
  }
  return out;
}

/**
 * The encoder's output chunk by chunk (each stream has a random serial number): libvorbisenc
 * through koffi (`native`), or the WebAssembly build.
 */
async function chunksOf(native: boolean): Promise<Uint8Array[]> {
  const encoder = await createStreamEncoder('ogg', 24000, { native });
  return [...blocks().map((b) => encoder.encode(b)), encoder.finish()];
}

/** The same chunks through the comment writer. */
function tag(plain: Uint8Array[], comments: string[]): Uint8Array {
  let next = 0;
  const replay = {
    mimeType: 'audio/ogg',
    encode: () => plain[next++] ?? new Uint8Array(0),
    finish: () => plain[next++] ?? new Uint8Array(0),
  };
  const encoder = withVorbisComments(replay, comments);
  const out = plain.slice(0, -1).map(() => encoder.encode(new Float32Array(0)));
  return Buffer.concat([...out, encoder.finish()]);
}

/** The Ogg CRC computed bit by bit (RFC 3533: polynomial 0x04c11db7, no reflection). */
function bitwiseCrc(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 24;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x80000000 ? (crc << 1) ^ 0x04c11db7 : crc << 1;
    crc >>>= 0;
  }
  return crc;
}

/** Each page's sequence number, and whether its checksum is right. */
function pages(bytes: Uint8Array): { sequence: number; crcOk: boolean }[] {
  const out: { sequence: number; crcOk: boolean }[] = [];
  for (let at = 0; at < bytes.length; ) {
    const view = new DataView(bytes.buffer, bytes.byteOffset + at);
    expect(view.getUint32(0)).toBe(0x4f676753);
    const count = bytes[at + 26] ?? 0;
    let size = 27 + count;
    for (let i = 0; i < count; i++) size += bytes[at + 27 + i] ?? 0;
    const page = new Uint8Array(bytes.subarray(at, at + size));
    const stated = new DataView(page.buffer).getUint32(22, true);
    page.fill(0, 22, 26);
    out.push({ sequence: view.getUint32(18, true), crcOk: bitwiseCrc(page) === stated });
    at += size;
  }
  return out;
}

/** The stream's packets, put together from its pages' segments. */
function packets(bytes: Uint8Array): Buffer[] {
  const out: Buffer[] = [];
  let partial: Buffer[] = [];
  for (let at = 0; at < bytes.length; ) {
    const count = bytes[at + 26] ?? 0;
    let body = at + 27 + count;
    for (let i = 0; i < count; i++) {
      const size = bytes[at + 27 + i] ?? 0;
      partial.push(Buffer.from(bytes.subarray(body, body + size)));
      body += size;
      if (size < 255) {
        out.push(Buffer.concat(partial));
        partial = [];
      }
    }
    at = body;
  }
  return out;
}

/** The comment header's strings (vendor first): the stream's second packet. */
function comments(bytes: Uint8Array): string[] {
  const packet = packets(bytes)[1] ?? Buffer.alloc(0);
  expect(packet.toString('latin1', 0, 7)).toBe('\x03vorbis');
  const out: string[] = [];
  let at = 7;
  const read = () => {
    const length = packet.readUInt32LE(at);
    out.push(packet.toString('utf8', at + 4, at + 4 + length));
    at += 4 + length;
  };
  read();
  const count = packet.readUInt32LE(at);
  at += 4;
  for (let i = 0; i < count; i++) read();
  expect(packet[at]).toBe(1);
  return out;
}

/** Channels and sample rate from the identification header (Vorbis I §4.2.2). */
function identification(bytes: Uint8Array): { channels: number; rate: number } {
  const packet = packets(bytes)[0] ?? Buffer.alloc(0);
  expect(packet.toString('latin1', 0, 7)).toBe('\x01vorbis');
  return { channels: packet[11] ?? 0, rate: packet.readUInt32LE(12) };
}

// Where libvorbisenc is installed both encoders are tested; elsewhere only the WebAssembly one.
describe.each([
  ['libvorbisenc', true],
  ['WebAssembly', false],
] as const)('Vorbis comments in an Ogg stream encoded by %s', (_, native) => {
  const chunks = () => chunksOf(native);
  it.skipIf(native && !nativeOggAvailable())(
    "changes nothing but the comment header: no comments gives libvorbis's own bytes",
    async () => {
      const plain = await chunks();
      expect(Buffer.compare(tag(plain, []), Buffer.concat(plain))).toBe(0);
      expect(pages(Buffer.concat(plain)).every((p) => p.crcOk)).toBe(true);
    },
  );

  it.skipIf(native && !nativeOggAvailable())(
    'carries a title and chapters; the audio, page order and checksums stay right',
    async () => {
      const source = await chunks();
      const plain = Buffer.concat(source);
      const chapters = [
        { title: 'Morning', start: 0 },
        { title: 'Noon — «midi»', start: 1.25 },
        { title: 'Night', start: 3723.5 },
      ];
      const tagged = tag(source, ['TITLE=A Day', ...chapterComments(chapters)]);
      expect(comments(tagged).slice(1)).toEqual([
        'TITLE=A Day',
        'CHAPTER001=00:00:00.000',
        'CHAPTER001NAME=Morning',
        'CHAPTER002=00:00:01.250',
        'CHAPTER002NAME=Noon — «midi»',
        'CHAPTER003=01:02:03.500',
        'CHAPTER003NAME=Night',
      ]);
      expect(comments(tagged)[0]).toBe(comments(plain)[0]);
      const listed = pages(tagged);
      expect(listed.map((p) => p.sequence)).toEqual(listed.map((_, i) => i));
      expect(listed.every((p) => p.crcOk)).toBe(true);
      // Mono at 24 kHz, the vendor string libvorbis wrote, and the 3 s given, sample for sample.
      expect(identification(tagged)).toEqual({ channels: 1, rate: 24000 });
      expect(comments(tagged)[0]).toMatch(/^Xiph\.Org libVorbis I \d{8}/);
      const [a, b] = [await decodeOgg(plain), await decodeOgg(tagged)];
      expect(b.sampleRate).toBe(24000);
      expect(b.samples.length).toBe(72000);
      expect(b.samples.length).toBe(a.samples.length);
      expect(b.samples).toEqual(a.samples);
    },
  );

  it.skipIf(native && !nativeOggAvailable())(
    'spreads a comment header too large for one page over several, renumbering the rest',
    async () => {
      const many = Array.from({ length: 400 }, (_, i) => ({
        title: `Chapter ${i + 1}: ${'a long title '.repeat(12)}`,
        start: i * 10,
      }));
      const source = await chunks();
      const plain = pages(Buffer.concat(source));
      const tagged = tag(source, chapterComments(many));
      const listed = pages(tagged);
      expect(listed.length).toBeGreaterThan(plain.length);
      expect(listed.map((p) => p.sequence)).toEqual(listed.map((_, i) => i));
      expect(listed.every((p) => p.crcOk)).toBe(true);
      expect(comments(tagged)).toHaveLength(801);
      const decoded = await decodeOgg(tagged);
      expect(decoded.samples).toEqual((await decodeOgg(Buffer.concat(source))).samples);
    },
  );
});
