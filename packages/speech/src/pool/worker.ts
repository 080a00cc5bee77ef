import { parentPort } from 'node:worker_threads';
import { closeNativeBackends } from '../engines/espeak/backends.js';
import { serializeError } from '../errors.js';
import { createSentenceCache } from '../stages/sentence-cache.js';
import { streamChecked, synthesizeChecked } from '../synthesize.js';
import { listVoices } from '../voices.js';
import type { WorkerCommand, WorkerJob, WorkerReply } from './protocol.js';

/**
 * A synthesis worker: runs one job at a time (the pool never sends a second one before the
 * first is answered), so espeak-ng's global state is never shared between requests.
 */
const port = parentPort;
if (!port) throw new Error('pool/worker.ts must run in a worker thread');

/** Sentences this worker rendered, for the requests that repeat them (issue 14, item 4). */
const sentenceCache = createSentenceCache();

const send = (reply: WorkerReply, transfer: ArrayBuffer[] = []) =>
  port.postMessage(reply, transfer);

port.on('message', async (job: WorkerJob | WorkerCommand) => {
  if (job.kind === 'end') {
    // The launcher processes and the data mirror go first; a rendering in hand fails with
    // them, and the pool has already answered it. The thread ends whether or not they close.
    await closeNativeBackends().catch(() => undefined);
    process.exit(0);
  }
  if (job.kind === 'crash') {
    setImmediate(() => {
      throw new Error('a failure drill: this speech worker ends as an uncaught error would');
    });
    return;
  }
  try {
    if (job.kind === 'voices') {
      send({ id: job.id, kind: 'voices', voices: await listVoices(job.config) });
    } else if (job.kind === 'synthesize') {
      const result = await synthesizeChecked(job.request, { ...job.config, sentenceCache });
      send({ id: job.id, kind: 'result', result }, [result.audio.buffer as ArrayBuffer]);
    } else {
      for await (const chunk of streamChecked(job.request, { ...job.config, sentenceCache })) {
        send({ id: job.id, kind: 'chunk', chunk }, [chunk.audio.buffer as ArrayBuffer]);
      }
      send({ id: job.id, kind: 'done' });
    }
  } catch (error) {
    send({ id: job.id, kind: 'error', error: serializeError(error) });
  }
});
