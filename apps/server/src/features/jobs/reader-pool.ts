import { type ChildProcess, fork } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { DocumentError, type ParsedDocument } from './documents.js';

/** What the pool sends a reading process (document-reader.ts): one document. */
export interface ReaderRequest {
  bytes: Uint8Array;
  name: string;
}

/** What a reading process makes of a document: the chapters, or why not. */
export type ReaderAnswer =
  | { ok: true; parsed: ParsedDocument }
  | { ok: false; refused: string }
  | { ok: false; failed: string };

/** A reading process's answer, with its peak memory in bytes. */
export type ReaderReply = ReaderAnswer & { peakBytes: number };

/** A document read: its chapters, and the most memory its reading process has held. */
export interface Reading {
  parsed: ParsedDocument;
  peakBytes: number;
}

/** A refusal, with the most memory the reading process had held when it refused. */
export class ReadingRefused extends DocumentError {
  constructor(
    message: string,
    readonly peakBytes: number,
  ) {
    super(message);
  }
}

/** Every reading process is busy and enough documents wait: try again shortly (503). */
export class ReadersBusyError extends Error {}

/** How documents are read on a server (docs/decisions/036). */
export interface ReaderLimits {
  /** Reading processes, hence documents read at once by this server. */
  processes: number;
  /** Documents that may wait for a reading process; one more is refused (ReadersBusyError). */
  waiting: number;
  /** Documents a reading process reads before it is replaced by a fresh one. */
  recycleAfter: number;
  /** Resident memory a reading process may hold (its heap is limited to three quarters). */
  memoryMb: number;
  /** How long a document may take to read. */
  timeoutMs: number;
}

export const READER_LIMITS: ReaderLimits = {
  processes: 2,
  waiting: 8,
  recycleAfter: 20,
  memoryMb: 512,
  timeoutMs: 30_000,
};

/** How often the pool looks at a reading process's memory while it reads. */
const WATCH_MS = 50;

/**
 * A process's resident memory in bytes, as the kernel counts it (Linux's /proc); undefined
 * where there is no /proc, where only the heap limit holds.
 */
async function residentBytes(pid: number | undefined): Promise<number | undefined> {
  if (pid === undefined) return undefined;
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kilobytes = /^VmRSS:\s+(\d+) kB/m.exec(status)?.[1];
  return kilobytes === undefined ? undefined : Number(kilobytes) * 1024;
}

/**
 * Documents read in child processes (docs/decisions/036), never in the server's: a process
 * has a heap limit (--max-old-space-size) and is killed as soon as its resident memory passes
 * `memoryMb` (what inflating a ZIP bomb or a PDF's streams takes lies outside the heap), or its
 * document takes longer than `timeoutMs`; the document is then refused and the process
 * replaced. A process is also replaced after `recycleAfter` documents, so memory a library
 * keeps is given back. At most `processes` documents are read at once, `waiting` more wait.
 */
export function createReaderPool(limits: ReaderLimits = READER_LIMITS) {
  // From source (tests, tsx) the child needs tsx to load TypeScript; from dist it does not.
  const fromSource = import.meta.url.endsWith('.ts');
  const entry = fileURLToPath(
    new URL(fromSource ? './document-reader.ts' : './document-reader.js', import.meta.url),
  );
  const execArgv = [
    `--max-old-space-size=${Math.round((limits.memoryMb * 3) / 4)}`,
    ...(fromSource ? ['--import', 'tsx'] : []),
  ];

  interface Reader {
    child: ChildProcess;
    used: number;
  }
  const idle: Reader[] = [];
  const waiting: ((reader: Reader) => void)[] = [];
  let reading = 0;
  let closed = false;

  const spawn = (): Reader => ({
    child: fork(entry, [], {
      execArgv,
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    }),
    used: 0,
  });

  /** An idle process does not keep the server running; a reading one does. */
  function hold(reader: Reader, held: boolean) {
    if (held) {
      reader.child.ref();
      reader.child.channel?.ref();
    } else {
      reader.child.unref();
      reader.child.channel?.unref();
    }
  }

  async function acquire(): Promise<Reader> {
    if (reading < limits.processes) {
      reading++;
      return idle.pop() ?? spawn();
    }
    if (waiting.length >= limits.waiting) throw new ReadersBusyError();
    return new Promise((resolve) => waiting.push(resolve));
  }

  function release(reader: Reader, healthy: boolean) {
    reader.used++;
    const kept = healthy && reader.used < limits.recycleAfter && !closed;
    if (!kept) reader.child.kill('SIGKILL');
    const next = waiting.shift();
    if (next) {
      next(kept ? reader : spawn());
      return;
    }
    reading--;
    if (kept) {
      hold(reader, false);
      idle.push(reader);
    }
  }

  /** One document through one process: its reply, or a refusal when the process is stopped. */
  function exchange(reader: Reader, bytes: Uint8Array, name: string): Promise<ReaderReply> {
    const { child } = reader;
    return new Promise<ReaderReply>((resolve, reject) => {
      const stop = (refusal: string) => {
        done();
        child.kill('SIGKILL');
        reject(new DocumentError(refusal));
      };
      const tooMuchMemory = `${name} needs more than ${limits.memoryMb} MB of memory to read; a document may use ${limits.memoryMb} MB.`;
      const timer = setTimeout(
        () =>
          stop(
            `${name} takes longer than ${limits.timeoutMs / 1000} seconds to read; a document may take ${limits.timeoutMs / 1000}.`,
          ),
        limits.timeoutMs,
      );
      const watch = setInterval(() => {
        void residentBytes(child.pid).then((bytes) => {
          if (bytes !== undefined && bytes > limits.memoryMb * 1024 * 1024) stop(tooMuchMemory);
        });
      }, WATCH_MS);
      const onMessage = (reply: ReaderReply) => {
        done();
        resolve(reply);
      };
      // A process that ends while reading ran out of its heap (V8 aborts) or was killed.
      const onExit = () => {
        done();
        reject(new DocumentError(tooMuchMemory));
      };
      function done() {
        clearTimeout(timer);
        clearInterval(watch);
        child.off('message', onMessage);
        child.off('exit', onExit);
      }
      child.on('message', onMessage);
      child.on('exit', onExit);
      child.send({ bytes, name } satisfies ReaderRequest);
    });
  }

  return {
    /**
     * Reads a document into chapters; throws DocumentError (ReadingRefused from the reader)
     * for what cannot be read, ReadersBusyError when too many documents wait.
     */
    async read(bytes: Uint8Array, name: string): Promise<Reading> {
      const reader = await acquire();
      hold(reader, true);
      let healthy = false;
      try {
        const reply = await exchange(reader, bytes, name);
        healthy = reply.ok || 'refused' in reply;
        if (reply.ok) return { parsed: reply.parsed, peakBytes: reply.peakBytes };
        if ('refused' in reply) throw new ReadingRefused(reply.refused, reply.peakBytes);
        throw new Error(`reading ${name} failed: ${reply.failed}`);
      } finally {
        release(reader, healthy);
      }
    },

    /** Stops the idle processes; those reading stop when their document is read. */
    close() {
      closed = true;
      for (const reader of idle.splice(0)) reader.child.kill('SIGKILL');
    },
  };
}

export type ReaderPool = ReturnType<typeof createReaderPool>;
