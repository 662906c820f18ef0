/**
 * App passwords: one per device, for WebDAV clients that can only send a user name and a password. Each is 140
 * random bits shown once and stored as its SHA-256: with that much entropy a fast hash loses nothing to guessing,
 * and every WebDAV request (a folder listing is dozens) checks one without argon2's cost. They end with the
 * account's sessions (endAllSessions: sign-out everywhere, a new password, disabling, deleting) and by revocation.
 */
import { randomInt } from 'node:crypto';
import type { AppContext } from '../context.js';
import type { Db } from '../db/database.js';
import { badInput, notFound } from '../http/errors.js';
import { newId, sha256Hex } from '../lib/ids.js';
import type { AppPasswordsTable } from '../db/schema-webdav.js';
import type { Caller } from '../http/access-tokens.js';

/** 32 letters and digits that cannot be mistaken for each other when typed from a screen. */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const GROUPS = 7;
const GROUP = 4;
/** A person has a handful of devices; this bounds what a stolen token could pile up. */
const MAX_PER_ACCOUNT = 50;

/** The one form a typed password is hashed in: groups, spaces and case do not matter. */
export const normalSecret = (typed: string) => typed.replace(/[\s-]/g, '').toLowerCase();

function newAppSecret(): string {
  const groups: string[] = [];
  for (let g = 0; g < GROUPS; g++) groups.push(Array.from({ length: GROUP }, () => ALPHABET[randomInt(ALPHABET.length)]).join(''));
  return groups.join('-');
}

export type AppPassword = Omit<AppPasswordsTable, 'secret_hash' | 'user_id' | 'session_id'>;

/** The account's app passwords, newest first, without their hashes. */
export function listAppPasswords(db: Db, userId: string): Promise<AppPassword[]> {
  return db.selectFrom('app_passwords').select(['id', 'name', 'created_at', 'last_used_at']).where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('id').execute();
}

/**
 * Makes an app password named `rawName`; the password is in the answer and nowhere else. It is born of the caller's
 * session: ending that session from another device revokes it (accounts/session-offspring.ts).
 */
export async function createAppPassword(ctx: AppContext, caller: Pick<Caller, 'userId' | 'sessionId'>, rawName: string): Promise<{ entry: AppPassword; password: string }> {
  const userId = caller.userId;
  const name = rawName.trim();
  // eslint-disable-next-line no-control-regex -- control characters are exactly what a one-line name may not hold
  if (!name || name.length > 100 || /[\u0000-\u001f\u007f]/.test(name)) throw badInput('Give the password a name of 1 to 100 characters, on one line.');
  const password = newAppSecret();
  const entry: AppPassword = { id: newId(), name, created_at: ctx.clock.now(), last_used_at: null };
  await ctx.db.transaction().execute(async (trx) => {
    const { n } = await trx.selectFrom('app_passwords').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow();
    if (Number(n) >= MAX_PER_ACCOUNT) throw badInput(`An account may have ${MAX_PER_ACCOUNT} app passwords; revoke one you no longer use first.`);
    await trx.insertInto('app_passwords').values({ ...entry, user_id: userId, session_id: caller.sessionId, secret_hash: sha256Hex(normalSecret(password)) }).execute();
  });
  return { entry, password };
}

/** Revokes one of the account's app passwords; another account's id reads as unknown. */
export async function revokeAppPassword(db: Db, userId: string, id: string): Promise<void> {
  const r = await db.deleteFrom('app_passwords').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  if (Number(r.numDeletedRows) !== 1) throw notFound('No app password of this account has that id.');
}

/** The live account an app password belongs to, with what a user name is checked against; undefined when unknown. */
export async function accountOfAppPassword(db: Db, typed: string) {
  return db
    .selectFrom('app_passwords')
    .innerJoin('users', 'users.id', 'app_passwords.user_id')
    .select(['app_passwords.id', 'app_passwords.last_used_at', 'users.id as user_id', 'users.email', 'users.phone_number', 'users.premium_expire'])
    .where('app_passwords.secret_hash', '=', sha256Hex(normalSecret(typed)))
    .where('users.disabled_at', 'is', null)
    .where('users.deleted_at', 'is', null)
    .executeTakeFirst();
}

/** Notes a use, at most once a minute per password (a listing is many requests). */
export async function touchAppPassword(db: Db, id: string, lastUsedAt: number | null, now: number): Promise<void> {
  if (lastUsedAt !== null && now - lastUsedAt < 60_000) return;
  await db.updateTable('app_passwords').set({ last_used_at: now }).where('id', '=', id).execute();
}
