import {
  type AdminHealth,
  AdminHealthSchema,
  type AdminOverview,
  AdminOverviewSchema,
} from '@parla/contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** The console's overview (GET /api/admin/overview, docs/api.md "Operator console API"). */
export function overviewQueryOptions(from: string, to: string) {
  return queryOptions({
    queryKey: ['admin', 'overview', from, to],
    queryFn: ({ signal }): Promise<AdminOverview> =>
      api.get('/admin/overview', { query: { from, to }, schema: AdminOverviewSchema, signal }),
    placeholderData: keepPreviousData,
  });
}

/** How often the speech service's health is read again while the overview is open. */
const HEALTH_REFRESH_MS = 15_000;

export function healthQueryOptions() {
  return queryOptions({
    queryKey: ['admin', 'overview', 'health'],
    queryFn: ({ signal }): Promise<AdminHealth> =>
      api.get('/admin/overview/health', { schema: AdminHealthSchema, signal }),
    refetchInterval: HEALTH_REFRESH_MS,
  });
}
