import { MAX_BREAK_SECONDS, MAX_TOTAL_BREAK_SECONDS } from '@parla/contract';

/** Bounds that keep one request from tying up a worker or its memory. */
export const SSML_LIMITS = {
  /** Characters of SSML accepted in one request (tags included). */
  maxLength: 200_000,
  /** Element nesting depth; real documents use fewer than 10. */
  maxDepth: 32,
  /** One break (SPEC §9: the pause dialog goes up to 10 s). */
  maxBreakSeconds: MAX_BREAK_SECONDS,
  /** All breaks of a document together, so 10,000 breaks cannot make hours of silence. */
  maxTotalBreakSeconds: MAX_TOTAL_BREAK_SECONDS,
} as const;
