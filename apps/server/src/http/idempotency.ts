import type { VoiceSettings } from '@parla/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Conversion, ConversionService } from '../services/conversion/conversion-service.js';
import { callerOf } from './caller.js';

/** The `Idempotency-Key` header of the routes that charge (Stripe's and OpenAI's convention). */
export const IdempotencyHeadersSchema = z.object({
  'idempotency-key': z
    .string()
    .min(1, { error: 'Idempotency-Key must not be empty.' })
    .max(255, { error: 'Idempotency-Key must be at most 255 characters.' })
    .optional(),
});

/**
 * A request's conversion, made once per Idempotency-Key when it sends one (a retry gets the
 * first answer, marked `Idempotent-Replayed: true`); a refused key is answered as
 * `{status, message}` for the route to say in its own shape.
 */
export async function convertRequest(
  request: FastifyRequest,
  reply: FastifyReply,
  conversions: ConversionService,
  settings: VoiceSettings,
  stream: boolean,
): Promise<{ conversion: Conversion } | { refused: { status: 400 | 409 | 422; message: string } }> {
  const caller = await callerOf(request, reply);
  const key = request.headers['idempotency-key'];
  const answered = (conversion: Conversion) => {
    // A full speech queue: when to try again.
    if (conversion.retryAfter !== undefined) {
      reply.header('retry-after', String(conversion.retryAfter));
    }
    return { conversion };
  };
  if (typeof key !== 'string') {
    return answered(await conversions.convert(caller, settings, { stream }));
  }
  const keyed = await conversions.convertOnce(caller, settings, { stream }, key);
  if ('refused' in keyed) return keyed;
  if (keyed.replayed) reply.header('idempotent-replayed', 'true');
  return answered(keyed.conversion);
}
