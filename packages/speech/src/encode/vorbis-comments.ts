import { joinBytes } from './bytes.js';
import type { StreamEncoder } from './encoders.js';

/**
 * Vorbis comments (tags) written into the Ogg Vorbis stream an encoder makes: the WebAssembly
 * libvorbis writes only its vendor string. The comment header is the stream's second packet
 * (Vorbis I specification §5), carried with the third (the setup header) on the pages after the
 * first; audio starts on a fresh page after them (§A.2). So the transform below passes the
 * first page through, re-pages the comment header (ours) and the setup header, and renumbers
 * every later page by the difference, recomputing each page's checksum (RFC 3533 §6). It works
 * as the bytes come: an audiobook of hours is never held in memory.
 */

/** The Ogg CRC-32: polynomial 0x04c11db7, most significant bit first, initial value 0. */
const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let r = i << 24;
    for (let bit = 0; bit < 8; bit++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
    table[i] = r >>> 0;
  }
  return table;
})();

function oggCrc(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes)
    crc = ((crc << 8) ^ (CRC_TABLE[((crc >>> 24) ^ byte) & 0xff] ?? 0)) >>> 0;
  return crc;
}

interface Page {
  /** Bit 0: continues a packet; 1: first page; 2: last page. */
  flags: number;
  granule: bigint;
  serial: number;
  sequence: number;
  lacing: number[];
  body: Uint8Array;
}

const HEADER = 27;

/** The page at the start of `bytes`, and its length; undefined until it is all there. */
function readPage(bytes: Uint8Array): { page: Page; length: number } | undefined {
  if (bytes.length < HEADER) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0) !== 0x4f676753) throw new Error('not an Ogg page (no OggS)');
  const count = bytes[26] ?? 0;
  if (bytes.length < HEADER + count) return undefined;
  const lacing = [...bytes.subarray(HEADER, HEADER + count)];
  const size = lacing.reduce((sum, value) => sum + value, 0);
  const length = HEADER + count + size;
  if (bytes.length < length) return undefined;
  return {
    page: {
      flags: bytes[5] ?? 0,
      granule: view.getBigInt64(6, true),
      serial: view.getUint32(14, true),
      sequence: view.getUint32(18, true),
      lacing,
      body: bytes.slice(HEADER + count, length),
    },
    length,
  };
}

function writePage(page: Page): Uint8Array {
  const out = new Uint8Array(HEADER + page.lacing.length + page.body.length);
  const view = new DataView(out.buffer);
  out.set([0x4f, 0x67, 0x67, 0x53, 0, page.flags]);
  view.setBigInt64(6, page.granule, true);
  view.setUint32(14, page.serial, true);
  view.setUint32(18, page.sequence, true);
  out[26] = page.lacing.length;
  out.set(page.lacing, HEADER);
  out.set(page.body, HEADER + page.lacing.length);
  view.setUint32(22, oggCrc(out), true);
  return out;
}

/** The comment header: packet type 3, "vorbis", the vendor, the comments, the framing bit. */
function commentPacket(vendor: Uint8Array, comments: string[]): Uint8Array {
  const encoded = comments.map((comment) => new TextEncoder().encode(comment));
  const size = 7 + 4 + vendor.length + 4 + encoded.reduce((s, c) => s + 4 + c.length, 0) + 1;
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  out.set([3, 0x76, 0x6f, 0x72, 0x62, 0x69, 0x73]);
  let at = 7;
  view.setUint32(at, vendor.length, true);
  out.set(vendor, at + 4);
  at += 4 + vendor.length;
  view.setUint32(at, encoded.length, true);
  at += 4;
  for (const comment of encoded) {
    view.setUint32(at, comment.length, true);
    out.set(comment, at + 4);
    at += 4 + comment.length;
  }
  out[at] = 1;
  return out;
}

/** The vendor string of libvorbis's own comment header (kept: it names the encoder). */
function vendorOf(packet: Uint8Array): Uint8Array {
  const length = new DataView(packet.buffer, packet.byteOffset).getUint32(7, true);
  return packet.slice(11, 11 + length);
}

/** Header packets laid out on pages of at most 255 segments (granule 0 where one ends). */
function headerPages(packets: Uint8Array[], serial: number, firstSequence: number): Page[] {
  const segments: { size: number; ends: boolean; packet: number }[] = [];
  packets.forEach((packet, index) => {
    const full = Math.floor(packet.length / 255);
    for (let i = 0; i < full; i++) segments.push({ size: 255, ends: false, packet: index });
    segments.push({ size: packet.length % 255, ends: true, packet: index });
  });
  const whole = joinBytes(...packets);
  const pages: Page[] = [];
  let at = 0;
  let continued = false;
  for (let first = 0; first < segments.length; first += 255) {
    const chunk = segments.slice(first, first + 255);
    const size = chunk.reduce((sum, s) => sum + s.size, 0);
    pages.push({
      flags: continued ? 1 : 0,
      // A page on which no packet ends has no position (-1).
      granule: chunk.some((s) => s.ends) ? 0n : -1n,
      serial,
      sequence: firstSequence + pages.length,
      lacing: chunk.map((s) => s.size),
      body: whole.slice(at, at + size),
    });
    at += size;
    continued = !(chunk.at(-1)?.ends ?? true);
  }
  return pages;
}

/** `CHAPTER001=00:01:02.500` and `CHAPTER001NAME=…` (Xiph's chapter extension), numbered from 1. */
export function chapterComments(chapters: { title: string; start: number }[]): string[] {
  const clock = (seconds: number) => {
    const ms = Math.max(0, Math.round(seconds * 1000));
    const pad = (n: number, width = 2) => String(n).padStart(width, '0');
    return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}.${pad(ms % 1000, 3)}`;
  };
  // The extension numbers three digits: chapters past 999 are not marked.
  return chapters.slice(0, 999).flatMap((chapter, index) => {
    const number = String(index + 1).padStart(3, '0');
    return [`CHAPTER${number}=${clock(chapter.start)}`, `CHAPTER${number}NAME=${chapter.title}`];
  });
}

/**
 * An Ogg Vorbis encoder whose stream carries `comments` ("TITLE=…", chapter comments) in its
 * comment header.
 */
export function withVorbisComments(encoder: StreamEncoder, comments: string[]): StreamEncoder {
  let pending = new Uint8Array(0);
  let stage: 'identification' | 'headers' | 'audio' = 'identification';
  const packets: Uint8Array[] = [];
  let partial: Uint8Array[] = [];
  let consumed = 0;
  let shift = 0;

  function take(bytes: Uint8Array): Uint8Array {
    const joined = joinBytes(pending, bytes);
    const out: Uint8Array[] = [];
    let at = 0;
    for (let found = readPage(joined); found; found = readPage(joined.subarray(at))) {
      at += found.length;
      const { page } = found;
      if (stage === 'identification') {
        out.push(writePage(page));
        stage = 'headers';
      } else if (stage === 'headers') {
        consumed++;
        let offset = 0;
        for (const size of page.lacing) {
          partial.push(page.body.subarray(offset, offset + size));
          offset += size;
          if (size < 255) {
            packets.push(joinBytes(...partial));
            partial = [];
          }
        }
        if (packets.length >= 2) {
          const [comment, setup] = packets as [Uint8Array, Uint8Array];
          const pages = headerPages(
            [commentPacket(vendorOf(comment), comments), setup],
            page.serial,
            1,
          );
          shift = pages.length - consumed;
          out.push(...pages.map(writePage));
          stage = 'audio';
        }
      } else {
        out.push(writePage({ ...page, sequence: page.sequence + shift }));
      }
    }
    pending = joined.slice(at);
    return joinBytes(...out);
  }

  return {
    mimeType: encoder.mimeType,
    encode: (samples) => take(encoder.encode(samples)),
    finish() {
      const rest = take(encoder.finish());
      if (pending.length > 0 || stage !== 'audio') throw new Error('the Ogg stream ended mid-page');
      return rest;
    },
  };
}
