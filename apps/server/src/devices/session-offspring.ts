/** What each session gave birth to (accounts/session-offspring.ts), for the devices page: listed with it, ended with it. */
import type { Db } from '../db/database.js';
import { deviceName } from './device-name.js';

export interface Offspring {
  kind: 'device' | 'app' | 'app_password';
  id: string;
  name: string;
}

/** What each of the given sessions gave birth to and is still live, by session id. */
export async function offspringOf(db: Db, userId: string, sessionIds: string[], now: number): Promise<Map<string, Offspring[]>> {
  const out = new Map<string, Offspring[]>();
  if (!sessionIds.length) return out;
  const add = (parent: string | null, item: Offspring) => {
    if (!parent) return;
    const list = out.get(parent) ?? [];
    list.push(item);
    out.set(parent, list);
  };
  const sessions = await db
    .selectFrom('sessions')
    .leftJoin('oauth_clients', 'oauth_clients.id', 'sessions.client_id')
    .select(['sessions.id', 'sessions.parent_session_id', 'sessions.device_name', 'sessions.user_agent', 'sessions.client_id', 'oauth_clients.name as app'])
    .where('sessions.user_id', '=', userId)
    .where('sessions.parent_session_id', 'in', sessionIds)
    .where('sessions.expires_at', '>', now)
    .orderBy('sessions.created_at')
    .execute();
  const appsSeen = new Set<string>();
  for (const s of sessions) {
    if (s.client_id) {
      appsSeen.add(`${s.parent_session_id}|${s.client_id}`);
      add(s.parent_session_id, { kind: 'app', id: s.client_id, name: s.app ?? s.device_name });
    } else add(s.parent_session_id, { kind: 'device', id: s.id, name: deviceName(s.user_agent, s.device_name) });
  }
  const consents = await db
    .selectFrom('oauth_consents')
    .innerJoin('oauth_clients', 'oauth_clients.id', 'oauth_consents.client_id')
    .select(['oauth_consents.session_id', 'oauth_consents.client_id', 'oauth_clients.name'])
    .where('oauth_consents.user_id', '=', userId)
    .where('oauth_consents.session_id', 'in', sessionIds)
    .execute();
  for (const c of consents) if (!appsSeen.has(`${c.session_id}|${c.client_id}`)) add(c.session_id, { kind: 'app', id: c.client_id, name: c.name });
  const passwords = await db.selectFrom('app_passwords').select(['id', 'name', 'session_id']).where('user_id', '=', userId).where('session_id', 'in', sessionIds).orderBy('created_at').execute();
  for (const p of passwords) add(p.session_id, { kind: 'app_password', id: p.id, name: p.name });
  return out;
}
