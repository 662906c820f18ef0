/**
 * Storage room: what an account's files take (trash included), its limit with what plans grant, and the check every
 * write makes before it places bytes, under the account's row lock so concurrent writers count one after another.
 */
import { limitDescription } from '@haul/shared';
import type { Db } from '../db/database.js';
import { HttpError } from '../http/errors.js';
import { grantedBytes } from '../plans/grants.js';

/** Logical bytes of the user's files, trash included (what counts against the quota). */
export async function storageUsage(db: Db, userId: string): Promise<{ total: number; inTrash: number }> {
  const row = await db
    .selectFrom('files')
    .select((eb) => [
      eb.fn.coalesce(eb.fn.sum<number>('size'), eb.val(0)).as('total'),
      eb.fn.coalesce(eb.fn.sum<number>(eb.case().when('trashed', '=', 1).then(eb.ref('size')).else(0).end()), eb.val(0)).as('trash'),
    ])
    .where('user_id', '=', userId)
    .where('kind', '=', 'drive#file')
    .executeTakeFirstOrThrow();
  return { total: Number(row.total), inTrash: Number(row.trash) };
}

/** The account's storage limit at `now`: its own plus the storage its live plan grants add. */
export async function storageLimit(db: Db, userId: string, now: number): Promise<number> {
  const user = await db.selectFrom('users').select('storage_limit').where('id', '=', userId).where('deleted_at', 'is', null).executeTakeFirst();
  return user ? user.storage_limit + (await grantedBytes(db, userId, 'storage', now)) : 0;
}

/**
 * Bytes the user may still fill: storage limit minus files (trash included) and uploads in flight. None once the
 * account is deleted, so a download or copy finishing during its erasure places nothing.
 */
export async function freeSpace(db: Db, userId: string, now: number): Promise<number> {
  const [limit, usage, pending] = await Promise.all([
    storageLimit(db, userId, now),
    storageUsage(db, userId),
    db.selectFrom('uploads').select((eb) => eb.fn.coalesce(eb.fn.sum<number>('size'), eb.val(0)).as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow(),
  ]);
  return Math.max(0, limit - usage.total - Number(pending.n));
}

/**
 * Whether `size` more bytes fit in the user's free space, counted after any concurrent writer of this user has
 * committed: the write takes the user's row lock for the rest of the transaction (PostgreSQL; SQLite has one writer
 * anyway), so creations, copies and the free names they pick run one after another instead of each counting alone.
 */
export async function roomFor(trx: Db, userId: string, size: number, now: number): Promise<boolean> {
  await trx.updateTable('users').set((eb) => ({ storage_limit: eb.ref('storage_limit') })).where('id', '=', userId).execute();
  return size <= (await freeSpace(trx, userId, now));
}

/** The 403 of a drive that is full: `message` as the title of the limit details (the limit, what is used, what did not fit). */
export async function spaceNotEnough(db: Db, userId: string, size: number, now: number, message = 'There is not enough storage space for this file.'): Promise<HttpError> {
  const [limit, free] = await Promise.all([storageLimit(db, userId, now), freeSpace(db, userId, now)]);
  const details = { title: message, kind: 'storage' as const, limit: String(limit), usage: String(Math.max(0, limit - free)), needed: String(size) };
  return new HttpError(403, 'file_space_not_enough', limitDescription(details));
}

/** roomFor, or spaceNotEnough with `message`. */
export async function requireRoom(trx: Db, userId: string, size: number, now: number, message?: string): Promise<void> {
  if (!(await roomFor(trx, userId, size, now))) throw await spaceNotEnough(trx, userId, size, now, message);
}
