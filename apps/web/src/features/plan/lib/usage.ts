import type { ProfilePlan } from '@parla/contract';

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
 * against the allowance"). The profile holds what remains and the plan's allowance as bought (a
 * later change of the plan does not move it, decision 055). Characters bought earlier and not yet spent carry over, so what remains may
 * exceed one period's allowance: the bar then shows nothing used.
 */
export function usageOf(plan: ProfilePlan): Usage {
  const planAllowance = plan.count_characters_allowance;
  const remaining = plan.count_characters;
  const allowance = Math.max(planAllowance, remaining);
  const used = Math.max(0, allowance - remaining);
  const percentUsed = allowance > 0 ? Math.min(100, (used / allowance) * 100) : 0;
  return { allowance, used, remaining, percentUsed };
}
