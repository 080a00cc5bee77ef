import { MAX_BREAK_SECONDS, MAX_TOTAL_BREAK_SECONDS } from '@parla/contract';

/**
 * Bounds that keep one request from tying up a worker or its memory: what a request may cost
 * follows from its length (docs/decisions/010-bounded-cost.md).
 */
export const SSML_LIMITS = {
  /** Characters of SSML accepted in one request (tags included). */
  maxLength: 200_000,
  /** Element nesting depth; real documents use fewer than 10. */
  maxDepth: 32,
  /** One break (SPEC §9: the pause dialog goes up to 10 s). */
  maxBreakSeconds: MAX_BREAK_SECONDS,
  /** All breaks of a document together, so 10,000 breaks cannot make hours of silence. */
  maxTotalBreakSeconds: MAX_TOTAL_BREAK_SECONDS,
  /**
   * Characters of one `<phoneme>`'s `ph`, and phonemes of one word of it: a longer word is
   * cut in words of this many before any engine sees it (the native espeak-ng program crashes
   * on a phoneme word of about 350; docs/decisions/034-cost-queues-and-crashes.md).
   */
  maxPhonemeCharacters: 500,
  maxPhonemesPerWord: 40,
  /**
   * Digits of a say-as number read as one number ("nine hundred quadrillion …"); a longer one
   * is read digit by digit, as a person would read it.
   */
  maxNumberDigits: 15,
  /**
   * The text to speak after say-as normalisation, as a multiple of the text as given (a digit
   * becomes a word of up to about six letters), with a floor for short texts.
   */
  maxNormalisedRatio: 8,
  minNormalisedCharacters: 2_000,
  /**
   * Seconds of audio (breaks plus the estimated speech) per character of the text as given,
   * with a floor for short texts. Rendering and encoding cost follows the audio's length:
   * 0.15 s a character keeps a free visitor's 1,000 characters within 2 s of CPU
   * (docs/benchmarks.md). Ordinary prose makes about 0.06 s a character, digits read one by
   * one with spaces between them 0.14 s; a 940-digit number (0.28 s a character) is refused.
   */
  maxAudioSecondsPerCharacter: 0.15,
  minAudioSeconds: 60,
} as const;

/** Characters of normalised text a text of `sourceLength` characters may become. */
export function maxNormalisedCharacters(sourceLength: number): number {
  return Math.max(
    SSML_LIMITS.minNormalisedCharacters,
    SSML_LIMITS.maxNormalisedRatio * sourceLength,
  );
}

/** Seconds of audio a text of `sourceLength` characters may become. */
export function maxAudioSeconds(sourceLength: number): number {
  return Math.max(
    SSML_LIMITS.minAudioSeconds,
    Math.round(SSML_LIMITS.maxAudioSecondsPerCharacter * sourceLength),
  );
}
