/** The free and premium limits of this server (GET /vip/v1/plans/limits): one cached answer for every screen. */
import { useQuery } from '@tanstack/react-query';
import { planLimits } from './plans-api';

export const usePlanLimits = () => useQuery({ queryKey: ['plan-limits'], queryFn: planLimits, staleTime: 60_000 });
