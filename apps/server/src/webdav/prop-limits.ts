/**
 * How much dead property an account may keep. Properties are metadata outside the storage quota, stored in the
 * database, so without limits PROPPATCH (or a COPY of a file carrying them, or the empty file a LOCK makes) would be
 * free storage. Clients keep a few small ones (Windows four timestamps and attributes per file, litmus ten): per file
 * 100 properties and 64 KiB; per account 100,000 properties and HAUL_WEBDAV_PROPS_MAX_BYTES (16 MiB). A change is
 * refused only when it grows a measure past its limit, so an account over a lowered limit can still remove and shrink.
 */
import type { Db } from '../db/database.js';

export const MAX_PROPS_PER_RESOURCE = 100;
export const MAX_BYTES_PER_RESOURCE = 64 * 1024;
export const MAX_PROPS_PER_ACCOUNT = 100_000;

/** What one property counts: the UTF-8 bytes of its namespace, name and stored XML. */
export const propSize = (ns: string, name: string, value: string) => Buffer.byteLength(ns) + Buffer.byteLength(name) + Buffer.byteLength(value);

export interface PropUsage {
  count: number;
  bytes: number;
}

/**
 * The account's properties, counted after any concurrent writer of this account has committed: the account's row lock
 * is taken for the rest of the transaction (PostgreSQL; SQLite has one writer), as the quota's room check does, so two
 * requests cannot each find room for the same bytes.
 */
export async function lockedPropUsage(trx: Db, userId: string): Promise<PropUsage> {
  await trx.updateTable('users').set((eb) => ({ storage_limit: eb.ref('storage_limit') })).where('id', '=', userId).execute();
  const row = await trx
    .selectFrom('dav_props')
    .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.coalesce(eb.fn.sum<number>('size'), eb.val(0)).as('bytes')])
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), bytes: Number(row.bytes) };
}

/** Whether going from `before` to `after` grows a measure past its limit. */
const grownPast = (before: number, after: number, limit: number) => after > limit && after > before;

/** Whether one resource's properties may go from `before` to `after`, the account holding `account` before. */
export function fits(before: PropUsage, after: PropUsage, account: PropUsage, accountMaxBytes: number): boolean {
  return !(
    grownPast(before.count, after.count, MAX_PROPS_PER_RESOURCE) ||
    grownPast(before.bytes, after.bytes, MAX_BYTES_PER_RESOURCE) ||
    grownPast(account.count, account.count - before.count + after.count, MAX_PROPS_PER_ACCOUNT) ||
    grownPast(account.bytes, account.bytes - before.bytes + after.bytes, accountMaxBytes)
  );
}

/** Whether the account may take `added` more (a COPY's properties). */
export function accountFits(account: PropUsage, added: PropUsage, accountMaxBytes: number): boolean {
  return !(grownPast(account.count, account.count + added.count, MAX_PROPS_PER_ACCOUNT) || grownPast(account.bytes, account.bytes + added.bytes, accountMaxBytes));
}
