import type { SourcePosition } from './errors.js';

/**
 * Markup that was understood but not (fully) rendered: what docs/ssml.md promises to report.
 * Each has a stable `code` so that a caller (the server, an editor) can show or count it
 * without parsing messages:
 *
 * - `unsupported_element`: another product's element (`<mstts:silence>`), ignored, its text read;
 * - `unsupported_attribute`: another product's attribute (`mstts:x="…"`), ignored;
 * - `ignored_markup`: an element or attribute Parla knows but does not render
 *   (`<prosody range>`, `<amazon:effect name="drc">`, `<voice age>`);
 * - `phoneme_not_spoken`: a `<phoneme>` whose text is read instead (its alphabet or symbols
 *   cannot be said, or the voice's engine does not read phonemes);
 * - `emphasis_not_rendered`: `<emphasis>` on a voice that does not render it;
 * - `effect_not_available`: an effect the voice does not render, ignored;
 * - `voice_not_found`: a `<voice name>` no engine has; the language and gender chose instead;
 * - `prosody_approximated`: a `<prosody>` change inside a text its voice reads at one speed,
 *   pitch and volume (plain text to an OpenAI-compatible server), read as the text around it.
 */
export const SPEECH_WARNING_CODES = [
  'unsupported_element',
  'unsupported_attribute',
  'ignored_markup',
  'phoneme_not_spoken',
  'emphasis_not_rendered',
  'effect_not_available',
  'voice_not_found',
  'prosody_approximated',
] as const;
export type SpeechWarningCode = (typeof SPEECH_WARNING_CODES)[number];

export interface SpeechWarning {
  code: SpeechWarningCode;
  /** For a person: what was not rendered and what was done instead. */
  message: string;
  /** Where the markup is in the text as typed (1-based); null for a request's setting. */
  line: number | null;
  column: number | null;
}

/** The warnings of one request, in the order they were found, each once. */
export class Warnings {
  private readonly found = new Map<string, SpeechWarning>();

  constructor(initial: readonly SpeechWarning[] = []) {
    for (const warning of initial) this.found.set(JSON.stringify(warning), warning);
  }

  add(code: SpeechWarningCode, message: string, at?: SourcePosition): void {
    const warning: SpeechWarning = {
      code,
      message,
      line: at?.line ?? null,
      column: at?.column ?? null,
    };
    const key = JSON.stringify(warning);
    if (!this.found.has(key)) this.found.set(key, warning);
  }

  list(): SpeechWarning[] {
    return [...this.found.values()];
  }
}

/** A warning as one line of text, `line:column: message` where it has a place. */
export function formatWarning(warning: SpeechWarning): string {
  return warning.line === null
    ? warning.message
    : `${warning.line}:${warning.column ?? 1}: ${warning.message}`;
}
