/** First-run setup's calls: whether the server waits for its operator, making that account, and the first steps after. */
import { useQuery } from '@tanstack/react-query';
import { haul } from '../../lib/api-client';

export const SETUP_KEY = ['setup'] as const;

/** Whether this server still waits for its operator's account (asked by the signed-out pages). */
export const useSetupRequired = () =>
  useQuery({ queryKey: SETUP_KEY, queryFn: async () => (await haul.call('getSetup')).required, staleTime: 30_000, meta: { quiet: true } });

/** Creates the operator's account and signs it in. */
export async function createOperator(email: string, password: string): Promise<void> {
  await haul.signIn(await haul.call('completeSetup', { body: { email, password } }));
}

/** A test message to the operator's own address: where it went, and how (SMTP or the outbox). */
export const sendTestMail = () => haul.call('adminTestMail');

export type NewProduct = { id: string; title: string; grant: string; price: string; currency: string; interval: '' | 'month' | 'year' };

/** Puts one product on sale (or replaces the one of its id). */
export const saveProduct = (p: NewProduct) => haul.call('adminSaveProduct', { body: p });
