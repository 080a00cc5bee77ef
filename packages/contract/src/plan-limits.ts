import type { PlanType } from './constants.js';
import { JOB_ACTIVE_LIMITS, JOB_CHARACTER_LIMITS } from './jobs.js';
import { LEXICON_PLAN_LIMITS } from './lexicons.js';

/**
 * Conversions one caller may have waiting or rendering at once, by plan (an anonymous visitor
 * has FREE's); past it the answer is 503 with Retry-After
 * (docs/decisions/034-cost-queues-and-crashes.md).
 */
export const CONVERSIONS_AT_ONCE: Record<PlanType, number> = {
  FREE: 3,
  BASIC: 5,
  PREMIUM: 8,
  BUSINESS: 12,
};

/**
 * What a plan allows besides its terms (price, characters, storage and engines: edited in the
 * console and answered by GET /plan/info): each number read from the constant the server enforces, so the
 * pricing page compares the plans as the product really has them (issue 33 item 6). In a module
 * of its own so that only the pages that compare plans load it.
 */
export interface PlanLimits {
  /** Characters of one document (job); 0: no documents. */
  documentCharacters: number;
  /** Documents queued or converting at once. */
  documentsAtOnce: number;
  conversionsAtOnce: number;
  lexicons: number;
  lexiconEntries: number;
}

export function planLimits(type: PlanType): PlanLimits {
  return {
    documentCharacters: JOB_CHARACTER_LIMITS[type],
    documentsAtOnce: JOB_ACTIVE_LIMITS[type],
    conversionsAtOnce: CONVERSIONS_AT_ONCE[type],
    lexicons: LEXICON_PLAN_LIMITS[type].lexicons,
    lexiconEntries: LEXICON_PLAN_LIMITS[type].entries,
  };
}
