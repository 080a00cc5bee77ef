import { Readable } from 'node:stream';
import { MIME_TYPES } from '@parla/speech';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendStoredObject } from '../lib/storage/send.js';
import type { ObjectStorage } from '../lib/storage/storage.js';
import type { ConversionService } from '../services/conversion/conversion-service.js';
import { CONVERT_MESSAGES } from '../services/conversion/messages.js';

/** The audio's length in seconds (the public API's header, or trailer when streamed). */
export const DURATION_HEADER = 'x-parla-duration';

/**
 * A conversion's audio as the answer: stored (with Range), or as it streams while it renders;
 * 404 with the reason when it failed or expired. Used by the convertor, the public API and the
 * OpenAI-compatible route.
 *
 * The one place that frames the answer: stored audio has a Content-Length, a stream is chunked,
 * never both (a reply with a trailer is chunked, so a trailer is set on a stream only). A
 * `duration` (the seconds, once known, for `X-Parla-Duration`) is a header before stored audio
 * and a trailer after a stream, whose length is known only at its end.
 */
export async function sendConversionAudio(
  request: FastifyRequest,
  reply: FastifyReply,
  conversions: ConversionService,
  storage: ObjectStorage,
  file: string,
  duration?: () => Promise<string>,
): Promise<FastifyReply> {
  const source = await conversions.audio(file);
  if (source.kind === 'live') {
    if (duration) reply.trailer(DURATION_HEADER, duration);
    return sendLive(request, reply, conversions, source.id, source.format, source.chunks);
  }
  if (source.kind === 'failed') return reply.code(404).send({ message: CONVERT_MESSAGES.failed });
  if (source.kind === 'stored') {
    const seconds = duration && (await duration());
    if (seconds) reply.header(DURATION_HEADER, seconds);
    // Not in any response schema on purpose: a stream is not JSON.
    const sent = await sendStoredObject(request, reply, storage, source.key, {
      'content-type': source.contentType,
      'cache-control': 'private, max-age=3600',
    });
    if (sent) return reply;
  }
  return reply.code(404).send({ message: CONVERT_MESSAGES.gone });
}

/**
 * A conversion's audio bytes as they come (stored, or still rendering), for answers that wrap
 * them (OpenAI's Server-Sent Events); undefined when it failed or expired.
 */
export async function conversionAudioBytes(
  conversions: ConversionService,
  storage: ObjectStorage,
  file: string,
): Promise<AsyncIterable<Uint8Array> | undefined> {
  const source = await conversions.audio(file);
  if (source.kind === 'stored') return storage.read(source.key);
  if (source.kind !== 'live') return undefined;
  const leave = await conversions.listen(source.id);
  return (async function* () {
    let finished = false;
    try {
      yield* source.chunks;
      finished = true;
    } finally {
      await leave(finished);
    }
  })();
}

/**
 * A rendering still being streamed: its bytes as they come, without a length (chunked), not
 * cached. A failure after the first bytes breaks the connection, so the player reports an
 * error instead of a silent end; the last listener gone stops the rendering (in time).
 */
async function sendLive(
  request: FastifyRequest,
  reply: FastifyReply,
  conversions: ConversionService,
  id: string,
  format: string,
  chunks: AsyncIterable<Uint8Array>,
): Promise<FastifyReply> {
  const iterator = chunks[Symbol.asyncIterator]();
  // Nothing is sent before the first bytes: a rendering that failed answers as JSON.
  let first: IteratorResult<Uint8Array>;
  try {
    first = await iterator.next();
  } catch {
    return reply.code(404).send({ message: CONVERT_MESSAGES.failed });
  }
  const leave = await conversions.listen(id);
  let finished = false;
  const body = Readable.from(
    (async function* () {
      try {
        if (!first.done) yield first.value;
        for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
          yield next.value;
        }
        finished = true;
      } catch (error) {
        request.log.warn({ err: error, id }, 'streamed audio failed');
        // Cut off without the last chunk, so that the client reads an error, not an end.
        reply.raw.destroy();
        throw error;
      }
    })(),
  );
  reply.raw.once('close', () => void leave(finished));
  return (
    reply
      .header(
        'content-type',
        MIME_TYPES[format as keyof typeof MIME_TYPES] ?? 'application/octet-stream',
      )
      .header('cache-control', 'no-store')
      // Chunked even on a connection that closes after it: a stream broken off mid-way must
      // read as an error to the client, never as a complete (shorter) file.
      .header('transfer-encoding', 'chunked')
      .send(body)
  );
}
