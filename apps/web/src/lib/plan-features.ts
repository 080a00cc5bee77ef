import type { PlanType } from '@parla/contract';
import type { TFunction } from 'i18next';
import type { CatalogueCounts } from './catalogue-counts';

/** The translation key of each plan's name. */
export const PLAN_NAME_KEYS = {
  FREE: 'plans.free',
  BASIC: 'plans.basic',
  PREMIUM: 'plans.premium',
  BUSINESS: 'plans.business',
} as const satisfies Record<PlanType, string>;

/**
 * What every paid card lists (SPEC §9: voices, languages, SSML, file history, commercial use,
 * dedicated support), with voices and languages counted from the real catalogue.
 */
export function planFeatures(t: TFunction, counts: CatalogueCounts | undefined): string[] {
  return [
    counts ? t('plans.voices', { count: counts.voices }) : t('plans.everyVoice'),
    counts ? t('plans.languages', { count: counts.languages }) : t('plans.everyLanguage'),
    'SSML',
    t('plans.fileHistory'),
    t('plans.commercialUse'),
    t('plans.support'),
  ];
}
