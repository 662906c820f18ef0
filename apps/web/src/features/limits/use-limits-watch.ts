/**
 * Continues limited tasks when the account's allowances are seen to rise (premium bought, a pack redeemed, an
 * operator's change): every refetch of the quotas is compared with the one before.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { About } from '@haul/shared';
import { getQuotas, QUOTAS_KEY } from './limits-api';
import { continueLimitedTasks } from './continue-limited-tasks';
import { limitedTasks } from './limited-tasks';

/** Each allowance as a number (Infinity when unlimited), by name. */
export function allowances(a: About): Record<string, number> {
  const out: Record<string, number> = { storage: Number(a.quota.limit) || Infinity };
  for (const [k, q] of Object.entries(a.quotas)) out[k] = q.is_unlimited ? Infinity : Number(q.limit);
  return out;
}

/** Whether any allowance of `now` is larger than in `before`. */
export function rose(before: Record<string, number>, now: Record<string, number>): boolean {
  return Object.keys(now).some((k) => before[k] !== undefined && now[k]! > before[k]!);
}

export function useLimitsWatch(): void {
  // Polled while tasks wait, so a change made elsewhere (another tab, the operator) is noticed within a minute.
  const { data } = useQuery({ queryKey: QUOTAS_KEY, queryFn: getQuotas, staleTime: 10_000, refetchInterval: () => (limitedTasks().length ? 60_000 : false) });
  const last = useRef<Record<string, number> | null>(null);
  useEffect(() => {
    if (!data) return;
    const now = allowances(data);
    if (last.current && rose(last.current, now) && limitedTasks().length) void continueLimitedTasks();
    last.current = now;
  }, [data]);
}
