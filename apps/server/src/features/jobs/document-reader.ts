/**
 * The process that reads documents (reader-pool.ts forks it): pdf.js, JSZip and the other
 * readers run here, under this process's own heap limit and the pool's watch on its memory,
 * never in the server's. Each message is a document; each answer, its chapters or why not, and
 * the most memory this process has held so far (its own accounting, resourceUsage's maxRSS).
 */
import { DocumentError, parseDocument } from './documents.js';
import type { ReaderAnswer, ReaderRequest } from './reader-pool.js';

process.on('message', async ({ bytes, name }: ReaderRequest) => {
  let reply: ReaderAnswer;
  try {
    reply = { ok: true, parsed: await parseDocument(bytes, name) };
  } catch (error) {
    reply =
      error instanceof DocumentError
        ? { ok: false, refused: error.message }
        : {
            ok: false,
            failed: error instanceof Error ? (error.stack ?? error.message) : String(error),
          };
  }
  process.send?.({ ...reply, peakBytes: process.resourceUsage().maxRSS * 1024 });
});
