/** The account's signed-in devices: each session, named, and ending one of them. */
import type { Static } from '@sinclair/typebox';
import type { SessionSchema } from '@haul/shared';
import type { AppContext } from '../context.js';
import { badInput, notFound } from '../http/errors.js';
import { toRfc3339 } from '../lib/time.js';
import { checkSudo } from '../accounts/sudo.js';
import { endSessionAndOffspring } from '../accounts/session-offspring.js';
import type { Caller } from '../http/access-tokens.js';
import { deviceName } from './device-name.js';
import { offspringOf } from './session-offspring.js';

type Session = Static<typeof SessionSchema>;

export async function listSessions(ctx: AppContext, caller: Caller): Promise<Session[]> {
  const rows = await ctx.db
    .selectFrom('sessions')
    .select(['id', 'ip', 'user_agent', 'device_name', 'created_at', 'last_used_at'])
    .where('user_id', '=', caller.userId)
    // Apps the person connected are listed, and disconnected, under connected apps (/v1/user/apps).
    .where('client_id', 'is', null)
    .where('expires_at', '>', ctx.clock.now())
    .orderBy('last_used_at', 'desc')
    .orderBy('id')
    .execute();
  const born = await offspringOf(ctx.db, caller.userId, rows.map((r) => r.id), ctx.clock.now());
  return rows.map((r) => ({
    id: r.id,
    device: deviceName(r.user_agent, r.device_name),
    user_agent: r.user_agent,
    ip: r.ip,
    created_time: toRfc3339(r.created_at),
    last_used_time: toRfc3339(r.last_used_at),
    current: r.id === caller.sessionId,
    born: born.get(r.id) ?? [],
  }));
}

/** Ends another session of the caller's account and what was born of it (a sudo token of the calling session required). */
export async function endOtherSession(ctx: AppContext, caller: Caller, sessionId: string, sudoToken: string): Promise<void> {
  await checkSudo(ctx, caller, sudoToken);
  if (sessionId === caller.sessionId) throw badInput('This is the device you are using: sign out instead.');
  const row = await ctx.db.selectFrom('sessions').select('id').where('id', '=', sessionId).where('user_id', '=', caller.userId).where('client_id', 'is', null).executeTakeFirst();
  if (!row) throw notFound('That device is not signed in any more.');
  await endSessionAndOffspring(ctx.db, caller.userId, sessionId);
}
