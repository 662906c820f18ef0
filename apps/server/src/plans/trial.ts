/**
 * New accounts' premium trial (the run-time setting `trial_days`, HAUL_TRIAL_DAYS): a new account gets `premium:Nd`
 * once, in the transaction that makes it, through the grants every plan uses (source `trial`). Once per address: the
 * address's SHA-256 is claimed in `trials` by an insert that does nothing when the row is there, so an account deleted
 * and made again with the same address, or two sign-ups racing with it, get one trial between them. The rows hold no
 * account id and no address, and account erasure leaves them: they are what remembers that the address had its trial.
 */
import type { AppContext } from '../context.js';
import type { Db } from '../db/database.js';
import { normalEmail } from '../accounts/users.repository.js';
import { sha256Hex } from '../lib/ids.js';
import { applyGrant } from './grants.js';

const DAY_MS = 86_400_000;

/**
 * Grants the trial to the account just made in `trx` when trials are on and its address never had one; answers the
 * days granted (0 for none). An account without an address has nothing to count "once" by and gets none.
 */
export async function grantTrial(ctx: AppContext, trx: Db, user: { id: string; email: string }): Promise<number> {
  const days = ctx.config.trialDays;
  const email = normalEmail(user.email);
  if (days <= 0 || !email) return 0;
  const now = ctx.clock.now();
  const emailHash = sha256Hex(email);
  const claimed = await trx
    .insertInto('trials')
    .values({ email_hash: emailHash, days, created_at: now })
    .onConflict((oc) => oc.column('email_hash').doNothing())
    .executeTakeFirst();
  if (!Number(claimed.numInsertedOrUpdatedRows ?? 0n)) return 0;
  await applyGrant(trx, user.id, `premium:${days}d`, { source: 'trial', sourceId: emailHash }, now);
  return days;
}

/** A live premium grant as vip info reads it. */
interface PremiumGrant {
  kind: string;
  source: string;
  starts_at: number;
  ends_at: number | null;
}

/**
 * What the clients are told of the trial (the seed's `free_vip` and free days): `free_days`, the whole days left of a
 * running trial; `free_vip`, premium now comes from the trial alone, with nothing bought, redeemed or rewarded running
 * or chained after it, so "Premium trial: N days left" is the whole truth about the account's premium.
 */
export function trialStatus(grants: PremiumGrant[], premiumExpire: number | null, now: number): { free_vip: boolean; free_days: number } {
  const premium = grants.filter((g) => g.kind === 'premium' && g.ends_at !== null && g.ends_at > now);
  const trial = premium.find((g) => g.source === 'trial' && g.starts_at <= now);
  // haul-admin set-premium sets the chain's end outright: a trial it cut short ends there.
  const ends = Math.min(trial?.ends_at ?? 0, premiumExpire ?? 0);
  if (!trial || ends <= now) return { free_vip: false, free_days: 0 };
  const alone = premium.every((g) => g.source === 'trial') && ends === (premiumExpire ?? 0);
  return { free_vip: alone, free_days: Math.ceil((ends - now) / DAY_MS) };
}
