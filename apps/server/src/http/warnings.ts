import type { FastifyReply } from 'fastify';

/** A warning beside an answer: what of the request was not done as asked, and why. */
export interface Warning {
  code: string;
  message: string;
  line?: number;
  column?: number;
}

/**
 * The warnings of an audio answer, as the `X-Parla-Warnings` header: a JSON array, with every
 * character outside ASCII escaped (a header carries ASCII), so `JSON.parse` reads it back.
 */
export function sendWarnings(reply: FastifyReply, warnings: readonly Warning[]): void {
  if (warnings.length === 0) return;
  const json = JSON.stringify(warnings).replace(
    /[^\x20-\x7e]/g,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  reply.header('x-parla-warnings', json);
}
