import type { PlanInfo, ProfilePlan } from '@parla/contract';
import { planInfoKey } from '@parla/contract';

export interface Usage {
  /** The plan's allowance, or what the user holds when that is more (carried over). */
  allowance: number;
  used: number;
  remaining: number;
  /** 0..100 for the bar. */
  percentUsed: number;
}

/**
 * Characters used against the allowance (DESIGN.md "On My Plan: a bar of characters used
 * against the allowance"). The profile holds what remains; the allowance is the plan's, from
 * /plan/info. Characters bought earlier and not yet spent carry over, so what remains may
 * exceed one period's allowance: the bar then shows nothing used.
 */
export function usageOf(plan: ProfilePlan, info: PlanInfo | undefined): Usage {
  const planAllowance = info?.[planInfoKey(plan.type)].count_characters ?? plan.count_characters;
  const remaining = plan.count_characters;
  const allowance = Math.max(planAllowance, remaining);
  const used = Math.max(0, allowance - remaining);
  const percentUsed = allowance > 0 ? Math.min(100, (used / allowance) * 100) : 0;
  return { allowance, used, remaining, percentUsed };
}
