/**
 * The new-person flags of user info (seed 000 §4, 001 §4): first_login and has_beginner_task_rights, read from what
 * the account already keeps (its sessions, its settings) so nothing new has to be written at sign-in.
 */
import type { AppContext } from '../context.js';

/** Seed 000 §10: beginner task rights go to accounts made after 2023-02-14 (UTC). */
export const BEGINNER_CUTOFF_MS = Date.UTC(2023, 1, 15);
/** A sign-in that began this soon after the account was made is the account's first day of use. */
export const FIRST_DAY_MS = 24 * 3600_000;

export interface BeginnerFlags {
  first_login: boolean;
  has_beginner_task_rights: boolean;
}

/**
 * `first_login`: the call comes through one of the person's own sign-ins (not an app's) that began within the
 * account's first 24 hours (the sign-up's own, and any other begun that day). A sign-in begun later answers false, even
 * while an older one still answers true. `has_beginner_task_rights`: the server offers the guide,
 * the account was made after the cutoff, and it has not finished or skipped the guide (setting beginner_guide_done).
 */
export async function beginnerFlags(ctx: AppContext, user: { id: string; created_at: number }, sessionId?: string): Promise<BeginnerFlags> {
  const [session, done] = await Promise.all([
    sessionId
      ? ctx.db.selectFrom('sessions').select(['created_at', 'client_id']).where('id', '=', sessionId).where('user_id', '=', user.id).executeTakeFirst()
      : undefined,
    ctx.db.selectFrom('user_settings').select('value').where('user_id', '=', user.id).where('item', '=', 'beginner_guide_done').executeTakeFirst(),
  ]);
  const first_login = !!session && session.client_id === null && Number(session.created_at) - user.created_at < FIRST_DAY_MS;
  const finished = done !== undefined && JSON.parse(done.value) === true;
  return { first_login, has_beginner_task_rights: ctx.config.beginnerGuide && user.created_at >= BEGINNER_CUTOFF_MS && !finished };
}
