/**
 * The premium-deduct notice's reads and writes: the takings come with vip info (`deductions`); which of them the
 * person has read is the setting `premium_deduct_seen` (the newest `at` read), so a notice read in one browser does
 * not come back in another.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Deduction } from '@haul/shared';
import { haul } from '../../lib/api-client';
import { vipInfo } from '../plans/plans-api';

const SEEN = ['user-settings', 'premium_deduct_seen'] as const;

async function readSeen(): Promise<string> {
  const { settings } = await haul.call('getUserSettings', { query: { items: 'premium_deduct_seen' } });
  const value = settings.find((s) => s.item === 'premium_deduct_seen')?.value;
  return typeof value === 'string' ? value : '';
}

/** The newest taking the person has not read yet, if any (and a way to mark every one read). */
export function useUnseenDeduction(enabled = true): { unseen: Deduction | null; markSeen: () => Promise<void> } {
  const queryClient = useQueryClient();
  const vip = useQuery({ queryKey: ['vip'], queryFn: vipInfo, staleTime: 60_000, enabled, meta: { quiet: true } });
  const seen = useQuery({ queryKey: SEEN, queryFn: readSeen, staleTime: Infinity, enabled, meta: { quiet: true } });
  const newest = vip.data?.deductions[0] ?? null;
  const unseen = newest && seen.data !== undefined && Date.parse(newest.at) > (Date.parse(seen.data) || 0) ? newest : null;
  const markSeen = async () => {
    if (!newest) return;
    queryClient.setQueryData(SEEN, newest.at);
    await haul.call('saveUserSettings', { body: { item: 'premium_deduct_seen', value: newest.at } }).catch(() => undefined);
  };
  return { unseen, markSeen };
}
