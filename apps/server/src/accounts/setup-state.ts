/** Whether the server still waits for its operator's first account (see first-run-setup.ts), checked cheaply. */
import type { AppContext } from '../context.js';
import type { Db } from '../db/database.js';
import { HttpError } from '../http/errors.js';

/** Databases known to hold an account: setup never comes back for them, so the check costs nothing after the first. */
export const settled = new WeakSet<Db>();

export async function setupRequired(ctx: Pick<AppContext, 'db' | 'config'>): Promise<boolean> {
  if (!ctx.config.firstRunSetup || settled.has(ctx.db)) return false;
  const any = await ctx.db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (any) settled.add(ctx.db);
  return !any;
}

/** The refusal of a sign-up (or a provider's first sign-in) on a server still waiting for its operator. */
export async function refuseBeforeSetup(ctx: Pick<AppContext, 'db' | 'config'>): Promise<void> {
  if (await setupRequired(ctx)) {
    throw new HttpError(403, 'permission_denied', "This server is not set up yet: its operator creates the first account from the server's address.");
  }
}
