import PQueue from 'p-queue';
import { pcm16ToSamples } from '../../encode/encoders.js';
import { SpeechError } from '../../errors.js';

/**
 * What every remote engine (a provider's cloud voices, reached over HTTP) shares: a bound on
 * calls in flight and a time-out per call, a health record that marks the provider's voices
 * unavailable after repeated failures, and failures told to people in one voice
 * (docs/decisions/020-remote-engines.md).
 */

export interface RemoteLimits {
  /** Calls to the provider in flight at once (default 4); the others wait their turn. */
  concurrency?: number;
  /** A call taking longer than this fails (default 20 s). */
  timeoutMs?: number;
}

/** How a provider is doing, for /api/ready and the voice list. */
export interface ProviderStatus {
  /** `polly`, `azure`, `openai`. */
  provider: string;
  /** For people: "Amazon Polly". */
  name: string;
  /** False after `FAILURES_TO_MARK` failures in a row, until a call succeeds again. */
  available: boolean;
  /** Failures in a row. */
  failures: number;
  /** The last failure's reason, as shown to people (no credentials, no internals). */
  lastError?: string;
}

/** Failures in a row after which a provider's voices are marked unavailable. */
export const FAILURES_TO_MARK = 3;

/** Why a call failed, as a provider's answer lets us tell it. */
export type FailureKind = 'throttled' | 'credentials' | 'refused' | 'down' | 'timeout';

/** A provider's failure, sorted into what we tell people. */
export class ProviderFailure extends Error {
  constructor(
    readonly kind: FailureKind,
    /** The provider's own words, for the log (never credentials). */
    readonly detail: string,
  ) {
    super(detail);
    this.name = 'ProviderFailure';
  }
}

/** The sentence a person reads when a provider fails; names the provider, never a key. */
export function failureMessage(name: string, kind: FailureKind): string {
  switch (kind) {
    case 'throttled':
      return `${name} is busy right now (too many requests); try again in a moment or choose another voice. No characters were charged.`;
    case 'credentials':
      return `${name} refused this server's credentials; its voices cannot be used until the operator fixes them. No characters were charged.`;
    case 'timeout':
      return `${name} did not answer in time; try again or choose another voice. No characters were charged.`;
    case 'refused':
      return `${name} could not render this text; try another voice. No characters were charged.`;
    default:
      return `${name} is not reachable right now; try again later or choose another voice. No characters were charged.`;
  }
}

export class RemoteProvider {
  private readonly queue: PQueue;
  private readonly timeoutMs: number;
  private failures = 0;
  private lastError: string | undefined;

  constructor(
    readonly id: string,
    readonly name: string,
    limits: RemoteLimits = {},
  ) {
    this.queue = new PQueue({ concurrency: Math.max(1, limits.concurrency ?? 4) });
    this.timeoutMs = limits.timeoutMs ?? 20_000;
  }

  /**
   * Runs one call to the provider in its turn, with an abort signal that fires at the
   * time-out. A failure becomes a `provider_unavailable` SpeechError whose message is
   * `failureMessage`; a `SpeechError` thrown by `call` (our own check) passes unchanged and
   * does not count against the provider.
   */
  async call<T>(call: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const result = await this.queue.add(async () => {
      const signal = AbortSignal.timeout(this.timeoutMs);
      try {
        const value = await call(signal);
        this.failures = 0;
        this.lastError = undefined;
        return { value };
      } catch (error) {
        if (error instanceof SpeechError) throw error;
        const failure = signal.aborted
          ? new ProviderFailure('timeout', `no answer in ${this.timeoutMs} ms`)
          : error instanceof ProviderFailure
            ? error
            : new ProviderFailure('down', error instanceof Error ? error.message : String(error));
        // A text the provider refuses is that text's problem, not the provider's health.
        if (failure.kind !== 'refused') this.failures += 1;
        this.lastError = failureMessage(this.name, failure.kind);
        throw new SpeechError('provider_unavailable', this.lastError);
      }
    });
    return result.value;
  }

  status(): ProviderStatus {
    return {
      provider: this.id,
      name: this.name,
      available: this.failures < FAILURES_TO_MARK,
      failures: this.failures,
      ...(this.lastError !== undefined && { lastError: this.lastError }),
    };
  }
}

/**
 * A list fetched from the provider (its voices), kept for `ttlMs` and fetched again after;
 * when fetching again fails the last list is kept (and the failure counted), so a provider
 * that is down keeps its voices listed, marked unavailable.
 */
export class CachedList<T> {
  private value: T[] | undefined;
  private fetchedAt = 0;
  private pending: Promise<T[]> | undefined;

  constructor(
    private readonly fetch: () => Promise<T[]>,
    private readonly ttlMs = 3_600_000,
  ) {}

  async get(): Promise<T[]> {
    if (this.value && Date.now() - this.fetchedAt < this.ttlMs) return this.value;
    this.pending ??= this.fetch()
      .then((value) => {
        this.value = value;
        this.fetchedAt = Date.now();
        return value;
      })
      .catch((error: unknown) => {
        if (this.value) {
          // Ask again in a minute, not at every request.
          this.fetchedAt = Date.now() - this.ttlMs + 60_000;
          return this.value;
        }
        throw error;
      })
      .finally(() => {
        this.pending = undefined;
      });
    return this.pending;
  }
}

/**
 * The PCM of a RIFF/WAVE file of 16-bit mono samples (what the providers answer for wav),
 * with its rate. Chunks other than `fmt ` and `data` are skipped; a streamed header whose
 * data size is unknown (0 or 0xFFFFFFFF) takes the rest of the file.
 */
export function parseWav(bytes: Uint8Array): { samples: Float32Array; sampleRate: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (bytes.byteLength < 12 || tag(0) !== 'RIFF' || tag(8) !== 'WAVE') {
    throw new ProviderFailure('refused', 'the answer is not a WAVE file');
  }
  let at = 12;
  let sampleRate = 0;
  let channels = 1;
  let bits = 16;
  while (at + 8 <= bytes.byteLength) {
    const id = tag(at);
    let size = view.getUint32(at + 4, true);
    const body = at + 8;
    if (id === 'fmt ') {
      channels = view.getUint16(body + 2, true);
      sampleRate = view.getUint32(body + 4, true);
      bits = view.getUint16(body + 14, true);
    } else if (id === 'data') {
      if (size === 0 || size === 0xffffffff || body + size > bytes.byteLength) {
        size = bytes.byteLength - body;
      }
      if (bits !== 16 || sampleRate === 0) {
        throw new ProviderFailure('refused', `unsupported WAVE: ${bits}-bit, ${sampleRate} Hz`);
      }
      const all = pcm16ToSamples(bytes.subarray(body, body + size));
      if (channels === 1) return { samples: all, sampleRate };
      const mono = new Float32Array(Math.floor(all.length / channels));
      for (let i = 0; i < mono.length; i++) {
        let sum = 0;
        for (let c = 0; c < channels; c++) sum += all[i * channels + c] ?? 0;
        mono[i] = sum / channels;
      }
      return { samples: mono, sampleRate };
    }
    at = body + size + (size % 2);
  }
  throw new ProviderFailure('refused', 'the WAVE file has no data');
}

/** The sorting of an HTTP status most providers share. */
export function failureOfStatus(status: number, detail: string): ProviderFailure {
  if (status === 429) return new ProviderFailure('throttled', detail);
  if (status === 401 || status === 403) return new ProviderFailure('credentials', detail);
  if (status >= 400 && status < 500) return new ProviderFailure('refused', detail);
  return new ProviderFailure('down', detail);
}
