/** Queries on users. */
import type { Db } from '../db/database.js';
import type { UserRow } from '../db/schema.js';

/** The one form of an e-mail address that lookups, uniqueness and limits all use. */
export function normalEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The live account with this address (a deleted account's address was released: it has none). */
export function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', normalEmail(email)).where('deleted_at', 'is', null).executeTakeFirst();
}

export function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}
