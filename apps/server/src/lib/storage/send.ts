import type { FastifyReply, FastifyRequest } from 'fastify';
import parseRange from 'range-parser';
import type { ObjectStorage } from './storage.js';

/**
 * Streams a stored object as the answer, honouring a single `Range: bytes=…` (206, or 416 for
 * a range outside the object), from whichever storage holds it. Answers false when the key
 * holds nothing, so the caller can send its own 404.
 */
export async function sendStoredObject(
  request: FastifyRequest,
  reply: FastifyReply,
  storage: ObjectStorage,
  key: string,
  headers: Record<string, string>,
): Promise<boolean> {
  const object = await storage.stat(key);
  if (!object) return false;
  const { size } = object;
  reply.headers(headers).header('accept-ranges', 'bytes');
  reply.header('last-modified', object.modifiedAt.toUTCString());
  const header = request.headers.range;
  const ranges = header ? parseRange(size, header, { combine: true }) : undefined;
  if (ranges === -1) {
    await reply.code(416).header('content-range', `bytes */${size}`).send();
    return true;
  }
  // A malformed header (-2) or several ranges are answered with the whole object, as RFC 9110
  // allows.
  const range = ranges && ranges !== -2 && ranges.length === 1 ? ranges[0] : undefined;
  const stream = await storage.read(key, range);
  if (!stream) return false;
  if (range) {
    reply
      .code(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
      .header('content-length', range.end - range.start + 1);
  } else {
    reply.code(200).header('content-length', size);
  }
  if (request.method === 'HEAD') {
    stream.destroy();
    await reply.send();
    return true;
  }
  await reply.send(stream);
  return true;
}
