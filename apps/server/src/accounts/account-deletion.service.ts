/**
 * Deleting an account, first step: what it would remove, whether it may go, and marking it deleted. The mark is one
 * small transaction that ends every way into the account at once (sessions, tokens, links, shares, sign-in, its
 * address); erasing what it had is the resumable second step (account-erasure.ts).
 */
import { FILE_KIND, FOLDER_KIND, PHASE, SHARE_STATUS } from '@haul/shared';
import { sql } from 'kysely';
import type { AppContext } from '../context.js';
import type { Db } from '../db/database.js';
import type { UserRow } from '../db/schema.js';
import { HttpError, notFound } from '../http/errors.js';
import { OFFLINE } from '../offline/offline.service.js';
import { checkSudo } from './sudo.js';
import { endAllSessions } from './tokens.js';
import { type Caller } from '../http/access-tokens.js';
import { findUserById } from './users.repository.js';
import { sendKeys } from './verification.service.js';

export interface DeletionBlocker {
  reason: 'LAST_ADMINISTRATOR';
  description: string;
}

export interface DeletionEligibility {
  eligible: boolean;
  reasons: DeletionBlocker[];
  file_count: string;
  folder_count: string;
  size: string;
  share_count: string;
  cloud_download_count: string;
  upload_count: string;
}

/** Cloud downloads that have not ended: deleting the account stops them. */
const UNFINISHED = [PHASE.PENDING, PHASE.RUNNING, PHASE.PAUSED];

/**
 * The address a deleted account keeps until its row goes: unique, and never an address (no @), so the real one is
 * free for a new account at once and no lookup by address finds the deleted one.
 */
export const releasedEmail = (userId: string) => `deleted:${userId}`;

/** Why `user` may not be deleted now (read inside the deleting transaction, after the lock, for the final word). */
async function blockers(db: Db, user: UserRow): Promise<DeletionBlocker[]> {
  if (!user.is_admin) return [];
  const others = await db
    .selectFrom('users')
    .select('id')
    .where('is_admin', '=', 1)
    .where('id', '!=', user.id)
    .where('deleted_at', 'is', null)
    .where('disabled_at', 'is', null)
    .limit(1)
    .execute();
  if (others.length) return [];
  return [{ reason: 'LAST_ADMINISTRATOR', description: 'This is the only administrator account: make another account an administrator first (haul-admin create-user --admin).' }];
}

/** GET /v1/user/me/deletion/eligibility */
export async function deletionEligibility(ctx: AppContext, userId: string): Promise<DeletionEligibility> {
  const user = await findUserById(ctx.db, userId);
  if (!user) throw notFound('The account no longer exists.');
  const now = ctx.clock.now();
  const [files, shares, downloads, uploads, reasons] = await Promise.all([
    ctx.db
      .selectFrom('files')
      .select((eb) => [
        eb.fn.coalesce(eb.fn.sum<number>(eb.case().when('kind', '=', FILE_KIND).then(1).else(0).end()), eb.val(0)).as('files'),
        eb.fn.coalesce(eb.fn.sum<number>(eb.case().when('kind', '=', FOLDER_KIND).then(1).else(0).end()), eb.val(0)).as('folders'),
        eb.fn.coalesce(eb.fn.sum<number>(eb.case().when('kind', '=', FILE_KIND).then(eb.ref('size')).else(0).end()), eb.val(0)).as('size'),
      ])
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow(),
    ctx.db
      .selectFrom('shares')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('status', '!=', SHARE_STATUS.DELETED)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .executeTakeFirstOrThrow(),
    ctx.db.selectFrom('tasks').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).where('type', '=', OFFLINE).where('phase', 'in', UNFINISHED).executeTakeFirstOrThrow(),
    ctx.db.selectFrom('uploads').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow(),
    blockers(ctx.db, user),
  ]);
  return {
    eligible: reasons.length === 0,
    reasons,
    file_count: String(Number(files.files)),
    folder_count: String(Number(files.folders)),
    size: String(Number(files.size)),
    share_count: String(Number(shares.n)),
    cloud_download_count: String(Number(downloads.n)),
    upload_count: String(Number(uploads.n)),
  };
}

/**
 * Locks what the decision reads before reading it: the account, and every administrator (two administrators deleting
 * themselves at once must not both find the other still there), always in id order so two deletions never deadlock.
 * SQLite has one writer: a first write takes it.
 */
async function lockAccounts(ctx: AppContext, trx: Db, userId: string): Promise<void> {
  if (ctx.dialect === 'postgres') {
    await trx.selectFrom('users').select('id').where((eb) => eb.or([eb('id', '=', userId), eb('is_admin', '=', 1)])).orderBy('id').forUpdate().execute();
  } else {
    await trx.updateTable('users').set((eb) => ({ session_epoch: eb.ref('session_epoch') })).where('id', '=', userId).execute();
  }
}

/**
 * Marks an account deleted, in one small transaction: it ends every session and refresh token, every download,
 * thumbnail and media link (the session epoch), every share link, and its unfinished cloud downloads (their workers
 * stop at their next report); it releases the address and the phone number and drops what is kept under them (codes,
 * outbox messages, the code-sending limits). Throws failed_precondition for the last administrator. A second call changes nothing.
 */
export async function markAccountDeleted(ctx: AppContext, userId: string): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    await lockAccounts(ctx, trx, userId);
    const user = await findUserById(trx, userId);
    if (!user) throw notFound('The account no longer exists.');
    if (user.deleted_at !== null) return;
    const blocked = await blockers(trx, user);
    if (blocked.length) throw new HttpError(409, 'failed_precondition', blocked[0]!.description, blocked.map((b) => ({ reason: b.reason })));
    const now = ctx.clock.now();
    await trx.updateTable('users').set({ deleted_at: now, email: releasedEmail(userId), name: '', password_hash: '', phone_number: null, picture: null }).where('id', '=', userId).execute();
    await endAllSessions(trx, userId);
    await trx.updateTable('shares').set({ status: SHARE_STATUS.DELETED, updated_time: now }).where('user_id', '=', userId).where('status', '!=', SHARE_STATUS.DELETED).execute();
    await trx
      .updateTable('tasks')
      .set({ phase: PHASE.ERROR, message: 'The account was deleted.', updated_time: now })
      .where('user_id', '=', userId)
      .where('type', '=', OFFLINE)
      .where('phase', 'in', UNFINISHED)
      .execute();
    // Kept by address and number, not by account: only now are they known to be this account's.
    const addresses = user.phone_number ? [user.email, user.phone_number] : [user.email];
    const codes = trx.selectFrom('verifications').where((eb) => eb.or([eb('user_id', '=', userId), eb('email', 'in', addresses)]));
    await trx.deleteFrom('attempt_limits').where('key', 'in', codes.select(sql<string>`'vcode|' || id`.as('key'))).execute();
    await trx.deleteFrom('verifications').where((eb) => eb.or([eb('user_id', '=', userId), eb('email', 'in', addresses)])).execute();
    await trx.deleteFrom('attempt_limits').where('key', 'in', [...sendKeys('email', user.email), ...(user.phone_number ? sendKeys('sms', user.phone_number) : [])]).execute();
    await trx.deleteFrom('mail_outbox').where('to_address', 'in', addresses).execute();
  });
}

/** POST /v1/user/me/deletion: the caller's own account, with a sudo token of this session. */
export async function deleteOwnAccount(ctx: AppContext, caller: Caller, sudoToken: string): Promise<void> {
  await checkSudo(ctx, caller, sudoToken);
  await markAccountDeleted(ctx, caller.userId);
}
