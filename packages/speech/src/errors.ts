/**
 * Errors the speech engine raises on purpose. Each has a stable `code` so that callers (the
 * server, the CLI) can map it to a status without parsing messages, and a message written for
 * a person. Anything else escaping the library is a bug.
 */
export type SpeechErrorCode =
  | 'ssml'
  | 'invalid-request'
  | 'unknown-voice'
  | 'sample-rate'
  | 'too-long'
  /** The request would cost more than its length allows (ssml/limits.ts); a client error. */
  | 'limit_exceeded'
  | 'worker-crashed'
  | 'pool-closed'
  | 'engine';

export class SpeechError extends Error {
  readonly code: SpeechErrorCode;
  constructor(code: SpeechErrorCode, message: string) {
    super(message);
    this.name = 'SpeechError';
    this.code = code;
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
    super('ssml', `${position.line}:${position.column}: ${reason}`);
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
}

export function serializeError(error: unknown): SerializedSpeechError {
  if (error instanceof SsmlError) {
    return {
      code: 'ssml',
      message: error.message,
      line: error.line,
      column: error.column,
      reason: error.reason,
    };
  }
  if (error instanceof SpeechError) return { code: error.code, message: error.message };
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'engine', message: `Synthesis failed: ${message}` };
}

export function deserializeError(data: SerializedSpeechError): SpeechError {
  if (data.code === 'ssml' && data.line !== undefined && data.column !== undefined) {
    return new SsmlError({ line: data.line, column: data.column }, data.reason ?? data.message);
  }
  return new SpeechError(data.code, data.message);
}
