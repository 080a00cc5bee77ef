/**
 * Reads one document in a worker thread (documents.ts, readDocument): pdf.js and the other
 * readers are CPU work that would otherwise hold the server's event loop for seconds on a
 * large file. Answers the chapters, or the reason the file cannot be read.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { DocumentError, type DocumentReply, parseDocument } from './documents.js';

const { bytes, name } = workerData as { bytes: Uint8Array; name: string };
let reply: DocumentReply;
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
parentPort?.postMessage(reply);
