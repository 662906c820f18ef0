/** The signed-in user's info as the clients read it: the account row and its connected providers, in one query each. */
import type { UserInfo } from '@haul/shared';
import type { AppContext } from '../context.js';
import { notFound } from '../http/errors.js';
import { beginnerFlags } from './beginner-flags.js';
import { presentUser } from './user.presenter.js';
import { findUserById } from './users.repository.js';

/** `sessionId`: the sign-in the call came through, which first_login is about (beginner-flags.ts). */
export async function loadUserInfo(ctx: AppContext, userId: string, sessionId?: string): Promise<UserInfo> {
  const [user, links] = await Promise.all([
    findUserById(ctx.db, userId),
    ctx.db.selectFrom('provider_links').select('provider_id').where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute(),
  ]);
  if (!user) throw notFound('The account no longer exists.');
  // A provider the operator no longer offers keeps its id as its name, as the providers page shows it.
  const names = new Map(ctx.config.oidcProviders.map((p) => [p.id, p.name]));
  const connected = links.map((l) => ({ id: l.provider_id, name: names.get(l.provider_id) ?? l.provider_id }));
  return presentUser(user, ctx.clock.now(), connected, ctx.config.beginnerGuide, await beginnerFlags(ctx, user, sessionId), ctx.config.requirePassword);
}
