/**
 * Credentials born of a session: the device sign-ins it approved, the apps it allowed and the app passwords it made.
 * They are listed with it on the devices page, and when the person ends that session from another device (or a
 * replayed refresh token ends it), they end with it: a stolen session leaves no lasting way in behind it. A plain
 * sign-out of one's own browser keeps them (the TV approved from a phone stays signed in when the phone signs out).
 */
import type { Db } from '../db/database.js';

/** How deep a chain of sessions born of sessions is followed (a phone approved a TV that approved a laptop…). */
const MAX_DEPTH = 8;

/** The session and every session born of it, however indirectly (bounded). */
async function lineage(db: Db, userId: string, sessionId: string): Promise<string[]> {
  const all = [sessionId];
  let level = [sessionId];
  for (let depth = 0; depth < MAX_DEPTH && level.length; depth++) {
    const rows = await db.selectFrom('sessions').select('id').where('user_id', '=', userId).where('parent_session_id', 'in', level).execute();
    level = rows.map((r) => r.id).filter((id) => !all.includes(id));
    all.push(...level);
  }
  return all;
}

/**
 * Ends a session and everything born of it: sessions it approved (devices, apps), the apps it allowed (their consent,
 * codes and sessions, as disconnecting the app does) and the app passwords it made. One transaction.
 */
export async function endSessionAndOffspring(db: Db, userId: string, sessionId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const ended = await lineage(trx, userId, sessionId);
    await trx.deleteFrom('app_passwords').where('user_id', '=', userId).where('session_id', 'in', ended).execute();
    const apps = await trx.selectFrom('oauth_consents').select('client_id').where('user_id', '=', userId).where('session_id', 'in', ended).execute();
    for (const { client_id } of apps) {
      const sessions = trx.selectFrom('sessions').select('id').where('user_id', '=', userId).where('client_id', '=', client_id);
      await trx.deleteFrom('refresh_tokens').where('user_id', '=', userId).where('session_id', 'in', sessions).execute();
      await trx.deleteFrom('sessions').where('user_id', '=', userId).where('client_id', '=', client_id).execute();
      await trx.deleteFrom('oauth_codes').where('user_id', '=', userId).where('client_id', '=', client_id).execute();
      await trx.deleteFrom('oauth_consents').where('user_id', '=', userId).where('client_id', '=', client_id).execute();
    }
    // A code allowed there but not yet exchanged would otherwise become a session after the fact.
    await trx.deleteFrom('oauth_codes').where('user_id', '=', userId).where('parent_session_id', 'in', ended).where('used_at', 'is', null).execute();
    await trx.updateTable('device_logins').set({ status: 'denied' }).where('approved_session_id', 'in', ended).where('status', '=', 'approved').execute();
    await trx.deleteFrom('refresh_tokens').where('user_id', '=', userId).where('session_id', 'in', ended).execute();
    await trx.deleteFrom('sessions').where('user_id', '=', userId).where('id', 'in', ended).execute();
  });
}
