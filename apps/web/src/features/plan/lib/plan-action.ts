import { PLAN_TYPES, type PlanType } from '@parla/contract';

/**
 * What a pricing card offers (issue 33 item 6). Signed out: Free starts at the convertor, a paid
 * plan goes to login (SPEC §2). Signed in: a paid plan above the current one is an upgrade,
 * below it a change, the current one bought again; Free is never bought.
 */
export type PlanAction = 'start' | 'choose' | 'upgrade' | 'change' | 'renew' | 'none';

export function planAction(plan: PlanType, current: PlanType | undefined): PlanAction {
  if (current === undefined) return plan === 'FREE' ? 'start' : 'choose';
  if (plan === 'FREE') return 'none';
  if (plan === current) return 'renew';
  return PLAN_TYPES.indexOf(plan) > PLAN_TYPES.indexOf(current) ? 'upgrade' : 'change';
}
