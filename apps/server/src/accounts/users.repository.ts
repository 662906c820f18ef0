/** Queries on users. */
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { newId } from '../lib/ids.js';
import type { UserRow } from '../db/schema.js';

/** The one form of an e-mail address that lookups, uniqueness and limits all use. */
export function normalEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The live account with this address (a deleted account's address was released: it has none). */
export function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', normalEmail(email)).where('deleted_at', 'is', null).executeTakeFirst();
}

/** The live account with this phone number (E.164, as normalPhoneNumber gives it). */
export function findUserByPhone(db: Db, phoneNumber: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('phone_number', '=', phoneNumber).where('deleted_at', 'is', null).executeTakeFirst();
}

export function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A new account's row: the server's default quota, no premium, every session epoch and mark at its start. */
export function newUserRow(config: Pick<Config, 'defaultQuotaBytes'>, now: number, input: { email: string; name: string; passwordHash: string; isAdmin?: boolean }): UserRow {
  return {
    id: newId(),
    email: input.email,
    name: input.name,
    password_hash: input.passwordHash,
    is_admin: input.isAdmin ? 1 : 0,
    storage_limit: config.defaultQuotaBytes,
    premium_expire: null,
    created_at: now,
    password_updated_at: now,
    disabled_at: null,
    session_epoch: 0,
    deleted_at: null,
    phone_number: null,
    picture: null,
  };
}
