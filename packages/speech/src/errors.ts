/**
 * Errors the speech engine raises on purpose. Each has a stable `code` so that callers (the
 * server, the CLI) can map it to a status without parsing messages, and a message written for
 * a person. Anything else escaping the library is a bug, reported as `internal`.
 *
 * - `bad_input`: the request or its SSML is wrong (SSML errors carry line:column);
 * - `unknown_voice`: no such voice, or no voice speaks a language asked for;
 * - `limit_exceeded`: the request asks for more than a limit allows (its message names it);
 * - `engine_unavailable`: an engine cannot run (program or model missing, shutting down);
 * - `provider_unavailable`: a remote provider (a cloud voice) failed, refused or is throttling;
 *   its message is written for the person asking and names the provider, never internals;
 * - `busy`: the speech queue holds too much work, or this caller's share of it is full; the
 *   error says when to try again (`retryAfterSeconds`; HTTP 503 with Retry-After);
 * - `internal`: our bug (a worker crashed, an engine failed unexpectedly).
 *
 * The first three are the caller's to fix (HTTP 4xx); the others are ours (5xx; a provider's
 * failure is told as it is, 503).
 */
export const SPEECH_ERROR_CODES = [
  'bad_input',
  'unknown_voice',
  'limit_exceeded',
  'engine_unavailable',
  'provider_unavailable',
  'busy',
  'internal',
] as const;
export type SpeechErrorCode = (typeof SPEECH_ERROR_CODES)[number];

/** Whether the caller can fix the error (bad input, unknown voice, a limit). */
export function isClientError(code: SpeechErrorCode): boolean {
  return code === 'bad_input' || code === 'unknown_voice' || code === 'limit_exceeded';
}

export interface SpeechErrorOptions {
  /**
   * The request was stopped after rendering had run (a render past its time budget, or audio
   * past its length bound): the work was done, so a caller that charges keeps the charge
   * (docs/decisions/034-cost-queues-and-crashes.md).
   */
  spent?: boolean;
  /** Seconds after which the same request may be accepted (`busy`: a full queue). */
  retryAfterSeconds?: number;
}

export class SpeechError extends Error {
  readonly code: SpeechErrorCode;
  readonly spent: boolean;
  readonly retryAfterSeconds: number | undefined;
  constructor(code: SpeechErrorCode, message: string, options: SpeechErrorOptions = {}) {
    super(message);
    this.name = 'SpeechError';
    this.code = code;
    this.spent = options.spent ?? false;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** A position in the SSML source: 1-based line and column, as editors show them. */
export interface SourcePosition {
  line: number;
  column: number;
}

/** Malformed or unsupported SSML; the message starts with `line:column`. */
export class SsmlError extends SpeechError {
  readonly line: number;
  readonly column: number;
  /** The message without the position prefix. */
  readonly reason: string;
  constructor(position: SourcePosition, reason: string) {
    super('bad_input', `${position.line}:${position.column}: ${reason}`);
    this.name = 'SsmlError';
    this.line = position.line;
    this.column = position.column;
    this.reason = reason;
  }
}

/** Plain data form of an error, for crossing a worker boundary. */
export interface SerializedSpeechError {
  code: SpeechErrorCode;
  message: string;
  line?: number;
  column?: number;
  reason?: string;
  spent?: boolean;
  retryAfterSeconds?: number;
}

export function serializeError(error: unknown): SerializedSpeechError {
  if (error instanceof SsmlError) {
    return {
      code: 'bad_input',
      message: error.message,
      line: error.line,
      column: error.column,
      reason: error.reason,
    };
  }
  if (error instanceof SpeechError) {
    return {
      code: error.code,
      message: error.message,
      ...(error.spent && { spent: true }),
      ...(error.retryAfterSeconds !== undefined && { retryAfterSeconds: error.retryAfterSeconds }),
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'internal', message: `Synthesis failed: ${message}` };
}

export function deserializeError(data: SerializedSpeechError): SpeechError {
  if (data.line !== undefined && data.column !== undefined) {
    return new SsmlError({ line: data.line, column: data.column }, data.reason ?? data.message);
  }
  return new SpeechError(data.code, data.message, {
    ...(data.spent && { spent: true }),
    ...(data.retryAfterSeconds !== undefined && { retryAfterSeconds: data.retryAfterSeconds }),
  });
}
