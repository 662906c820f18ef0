/** Monthly transfer quotas: bytes uploaded and fetched by cloud download since the start of the month (UTC). */
import type { TrafficQuota } from '@haul/shared';
import type { AppContext } from '../context.js';
import type { Db } from '../db/database.js';
import { HttpError } from '../http/errors.js';
import { isPremium } from './user.presenter.js';
import { findUserById } from './users.repository.js';

export type TrafficKind = 'upload' | 'offline';

export function monthStart(now: number): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

/** Bytes moved this month by tasks of a kind (failed ones excepted). */
export async function monthlyUsage(db: Db, userId: string, type: TrafficKind, now: number): Promise<number> {
  const row = await db
    .selectFrom('tasks')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('size'), eb.val(0)).as('n'))
    .where('user_id', '=', userId)
    .where('type', '=', type)
    .where('phase', '!=', 'PHASE_TYPE_ERROR')
    .where('created_time', '>=', monthStart(now))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The monthly limit for an account, or null when unlimited (premium, or no limit configured). */
export async function monthlyLimit(ctx: AppContext, userId: string, type: TrafficKind): Promise<number | null> {
  const limit = type === 'upload' ? ctx.config.monthlyUploadBytes : ctx.config.monthlyCloudDownloadBytes;
  if (!limit) return null;
  const user = await findUserById(ctx.db, userId);
  return user && isPremium(user, ctx.clock.now()) ? null : limit;
}

/** Bytes left this month (Infinity when unlimited). */
export async function monthlyLeft(ctx: AppContext, userId: string, type: TrafficKind): Promise<number> {
  const limit = await monthlyLimit(ctx, userId, type);
  if (limit === null) return Infinity;
  return Math.max(0, limit - (await monthlyUsage(ctx.db, userId, type, ctx.clock.now())));
}

/** Refuses `bytes` more when they would pass the month's limit, with the error names the clients know. */
export async function requireMonthlyRoom(ctx: AppContext, userId: string, type: TrafficKind, bytes: number): Promise<void> {
  if (bytes <= (await monthlyLeft(ctx, userId, type))) return;
  if (type === 'upload') {
    // The clients show this description's title as the task's error text.
    const title = 'You have reached this month\'s upload limit. Upgrade to premium for unlimited uploads.';
    throw new HttpError(403, 'monthly_upload_size_exceeded', JSON.stringify({ title }));
  }
  throw new HttpError(403, 'monthly_cloud_download_size_exceeded', 'You have reached this month\'s cloud download limit. Upgrade to premium for more.');
}

export async function trafficQuota(ctx: AppContext, userId: string, type: TrafficKind): Promise<TrafficQuota> {
  const [limit, usage] = await Promise.all([monthlyLimit(ctx, userId, type), monthlyUsage(ctx.db, userId, type, ctx.clock.now())]);
  return { limit: limit === null ? '-1' : String(limit), usage: String(usage), complimentary: '0', is_unlimited: limit === null };
}
