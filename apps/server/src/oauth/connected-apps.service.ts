/** The apps a person has allowed (their consents), and disconnecting one: its sessions, codes and consent end at once. */
import type { AppContext } from '../context.js';
import { HttpError } from '../http/errors.js';
import { scopeItems } from './scope.js';

const rfc3339 = (ms: number) => new Date(ms).toISOString();

/** The person's connected apps, newest first; "last used" is when the app last received tokens. */
export async function listApps(ctx: AppContext, userId: string) {
  const consents = await ctx.db
    .selectFrom('oauth_consents')
    .innerJoin('oauth_clients', 'oauth_clients.id', 'oauth_consents.client_id')
    .select(['oauth_consents.client_id', 'oauth_clients.name', 'oauth_consents.scope', 'oauth_consents.created_at', 'oauth_consents.updated_at'])
    .where('oauth_consents.user_id', '=', userId)
    .orderBy('oauth_consents.created_at', 'desc')
    .execute();
  const used = await ctx.db
    .selectFrom('sessions')
    .select(['client_id', (eb) => eb.fn.max('last_used_at').as('last')])
    .where('user_id', '=', userId)
    .where('client_id', 'is not', null)
    .groupBy('client_id')
    .execute();
  const lastUse = new Map(used.map((u) => [u.client_id, Number(u.last)]));
  return {
    apps: consents.map((c) => ({
      client_id: c.client_id,
      name: c.name,
      scope: c.scope,
      scopes: scopeItems(c.scope),
      connected_time: rfc3339(Number(c.created_at)),
      last_used_time: rfc3339(Math.max(Number(c.updated_at), lastUse.get(c.client_id) ?? 0)),
    })),
  };
}

/** Disconnects an app from the account: its refresh tokens, sessions (so its access tokens), unused codes and consent. */
export async function revokeApp(ctx: AppContext, userId: string, clientId: string): Promise<void> {
  const gone = await ctx.db.transaction().execute(async (trx) => {
    const sessions = trx.selectFrom('sessions').select('id').where('user_id', '=', userId).where('client_id', '=', clientId);
    await trx.deleteFrom('refresh_tokens').where('user_id', '=', userId).where('session_id', 'in', sessions).execute();
    const s = await trx.deleteFrom('sessions').where('user_id', '=', userId).where('client_id', '=', clientId).executeTakeFirst();
    await trx.deleteFrom('oauth_codes').where('user_id', '=', userId).where('client_id', '=', clientId).execute();
    const c = await trx.deleteFrom('oauth_consents').where('user_id', '=', userId).where('client_id', '=', clientId).executeTakeFirst();
    return Number(c.numDeletedRows) + Number(s.numDeletedRows);
  });
  if (!gone) throw new HttpError(404, 'not_found', 'This app is not connected to your account.');
}
