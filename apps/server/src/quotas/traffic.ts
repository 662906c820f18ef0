/**
 * Transfer quotas per calendar month (and downloads also per day) in the operator's zone (HAUL_TIME_ZONE): bytes
 * uploaded, fetched by cloud download, and downloaded through Haul's links. Counted in traffic_usage with conditional
 * increments (traffic-usage.repository.ts); a transfer that fails gives back what it took.
 */
import { PHASE, type LimitDetails, type LimitError, type TrafficQuota } from '@haul/shared';
import type { AppContext } from '../context.js';
import type { Db } from '../db/database.js';
import { HttpError } from '../http/errors.js';
import { dayOf, monthOf, type Period } from '../lib/zoned-time.js';
import { grantedBytes } from '../plans/grants.js';
import { readUsage, release, tryCharge, type UsageKey } from './traffic-usage.repository.js';
import { limitError } from './limit-errors.js';
import { isPremium } from '../accounts/user.presenter.js';
import { findUserById } from '../accounts/users.repository.js';

export type TrafficKind = 'upload' | 'offline' | 'download';

/** The quota kind of `about` each counter answers for. */
const QUOTA_KIND = { upload: 'upload_size_month', offline: 'cloud_download_size_month', download: 'download_size_month' } as const;

const MONTH_ERROR: Record<TrafficKind, LimitError> = {
  upload: 'monthly_upload_size_exceeded',
  offline: 'monthly_cloud_download_size_exceeded',
  download: 'monthly_download_size_exceeded',
};

const MONTH_TITLE: Record<TrafficKind, string> = {
  upload: "You have reached this month's upload limit. Upgrade to premium for unlimited uploads.",
  offline: "You have reached this month's cloud download limit. Upgrade to premium for more.",
  download: "You have reached this month's download limit. Upgrade to premium for unlimited downloads.",
};

/** The calendar month of `now` in the operator's zone. */
export const currentMonth = (ctx: AppContext, now = ctx.clock.now()): Period => monthOf(now, ctx.config.timeZone);
/** The calendar day of `now` in the operator's zone. */
export const currentDay = (ctx: AppContext, now = ctx.clock.now()): Period => dayOf(now, ctx.config.timeZone);

/** What a month allows: the plan's limit plus live transfer grants (not for uploads); null when unlimited. */
interface Allowance {
  limit: number | null;
  complimentary: number;
}

async function allowance(ctx: AppContext, db: Db, userId: string, kind: TrafficKind, now: number): Promise<Allowance> {
  const base = { upload: ctx.config.monthlyUploadBytes, offline: ctx.config.monthlyCloudDownloadBytes, download: ctx.config.monthlyDownloadBytes }[kind];
  if (!base) return { limit: null, complimentary: 0 };
  const user = await findUserById(db, userId);
  if (user && isPremium(user, now)) return { limit: null, complimentary: 0 };
  // Transfer packs lift what moves out of the cloud to you and into it for you; uploads are lifted by premium alone.
  const complimentary = kind === 'upload' ? 0 : await grantedBytes(db, userId, 'transfer', now);
  return { limit: base + complimentary, complimentary };
}

/** The daily download limit of an account, or null when unlimited. */
async function dailyDownloadLimit(ctx: AppContext, db: Db, userId: string, now: number): Promise<number | null> {
  if (!ctx.config.dailyDownloadBytes) return null;
  const user = await findUserById(db, userId);
  return user && isPremium(user, now) ? null : ctx.config.dailyDownloadBytes;
}

/**
 * What a period's counter starts from when it is first touched: the tasks of the period, as usage was counted before
 * the counters existed (failed tasks gave back what they took). Downloads were not counted before.
 */
function seedFor(db: Db, userId: string, kind: TrafficKind, p: Period): () => Promise<number> {
  if (kind === 'download') return async () => 0;
  return async () => {
    const row = await db
      .selectFrom('tasks')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('size'), eb.val(0)).as('n'))
      .where('user_id', '=', userId)
      .where('type', '=', kind)
      .where('phase', '!=', PHASE.ERROR)
      .where('created_time', '>=', p.startsAt)
      .where('created_time', '<', p.endsAt)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
}

const monthKey = (userId: string, kind: TrafficKind, p: Period): UsageKey => ({ userId, kind, period: p.key });
const iso = (ms: number) => new Date(ms).toISOString();

/** Bytes moved this month. */
export function monthlyUsage(ctx: AppContext, userId: string, kind: TrafficKind, now = ctx.clock.now()): Promise<number> {
  return readUsage(ctx.db, monthKey(userId, kind, currentMonth(ctx, now)));
}

/** The monthly limit for an account, or null when unlimited (premium, or no limit configured). */
export async function monthlyLimit(ctx: AppContext, userId: string, kind: TrafficKind): Promise<number | null> {
  return (await allowance(ctx, ctx.db, userId, kind, ctx.clock.now())).limit;
}

/** Bytes left this month (Infinity when unlimited). */
export async function monthlyLeft(ctx: AppContext, userId: string, kind: TrafficKind): Promise<number> {
  const limit = await monthlyLimit(ctx, userId, kind);
  if (limit === null) return Infinity;
  return Math.max(0, limit - (await monthlyUsage(ctx, userId, kind)));
}

/** The limit error of a month that has no room for `needed` more bytes. */
async function monthExceeded(ctx: AppContext, db: Db, userId: string, kind: TrafficKind, needed: number, limit: number, p: Period): Promise<HttpError> {
  const usage = await readUsage(db, monthKey(userId, kind, p));
  return limitError(MONTH_ERROR[kind], { title: MONTH_TITLE[kind], kind: QUOTA_KIND[kind], limit: String(limit), usage: String(usage), needed: String(needed), reset_at: iso(p.endsAt) });
}

/** Refuses `bytes` more when they would pass the month's limit, without counting them (a check before work starts). */
export async function requireMonthlyRoom(ctx: AppContext, userId: string, kind: TrafficKind, bytes: number): Promise<void> {
  const now = ctx.clock.now();
  const { limit } = await allowance(ctx, ctx.db, userId, kind, now);
  if (limit === null) return;
  const p = currentMonth(ctx, now);
  if ((await readUsage(ctx.db, monthKey(userId, kind, p))) + bytes <= limit) return;
  throw await monthExceeded(ctx, ctx.db, userId, kind, bytes, limit, p);
}

/** A charge made: what to give back, and where, when the transfer does not happen or moves less. */
export interface Charge {
  keys: UsageKey[];
  bytes: number;
}

/**
 * Counts `bytes` against this month (inside the caller's transaction `db`), or throws the limit error when they do not
 * fit; premium accounts are counted without a limit.
 */
export async function chargeMonthly(ctx: AppContext, db: Db, userId: string, kind: TrafficKind, bytes: number, now = ctx.clock.now()): Promise<Charge> {
  const p = currentMonth(ctx, now);
  const key = monthKey(userId, kind, p);
  if (bytes <= 0) return { keys: [], bytes: 0 };
  const { limit } = await allowance(ctx, db, userId, kind, now);
  if (!(await tryCharge(db, key, bytes, limit, seedFor(db, userId, kind, p)))) throw await monthExceeded(ctx, db, userId, kind, bytes, limit!, p);
  return { keys: [key], bytes };
}

/**
 * Counts a download against the month and the day of the payer, both or neither (inside the caller's transaction),
 * or throws the error of the allowance it does not fit.
 */
export async function chargeDownload(ctx: AppContext, db: Db, userId: string, bytes: number): Promise<Charge> {
  const now = ctx.clock.now();
  const month = await chargeMonthly(ctx, db, userId, 'download', bytes, now);
  if (bytes <= 0) return month;
  const day = currentDay(ctx, now);
  const key: UsageKey = { userId, kind: 'download', period: day.key };
  const limit = await dailyDownloadLimit(ctx, db, userId, now);
  if (!(await tryCharge(db, key, bytes, limit, async () => 0))) {
    const details: LimitDetails = {
      title: "You have reached today's download limit. It starts over tomorrow; premium accounts have no limit.",
      kind: 'download_size_day',
      limit: String(limit),
      usage: String(await readUsage(db, key)),
      needed: String(bytes),
      reset_at: iso(day.endsAt),
    };
    throw limitError('daily_download_size_exceeded', details);
  }
  return { keys: [...month.keys, key], bytes };
}

/** Gives back `bytes` of a charge (a failed upload, a download that stopped early). */
export async function refund(db: Db, charge: Charge, bytes = charge.bytes): Promise<void> {
  for (const key of charge.keys) await release(db, key, Math.min(bytes, charge.bytes));
}

/** Gives back what an upload or cloud download task took from the month it was created in. */
export async function refundTask(ctx: AppContext, db: Db, task: { user_id: string; type: string; size: number; created_time: number }): Promise<void> {
  if (task.type !== 'upload' && task.type !== 'offline') return;
  await release(db, monthKey(task.user_id, task.type, currentMonth(ctx, task.created_time)), task.size);
}

/**
 * Counts `count` new cloud downloads against today's allowance of `dailyTasks` (inside the caller's transaction), or
 * throws task_daily_create_limit with the numbers.
 */
export async function chargeDailyTasks(ctx: AppContext, db: Db, userId: string, count: number, dailyTasks: number, premium: boolean): Promise<void> {
  const day = currentDay(ctx);
  const key: UsageKey = { userId, kind: 'offline_tasks', period: day.key };
  const seed = async () => {
    const row = await db
      .selectFrom('tasks')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('type', '=', 'offline')
      .where('created_time', '>=', day.startsAt)
      .where('created_time', '<', day.endsAt)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  if (await tryCharge(db, key, count, dailyTasks, seed)) return;
  const more = premium ? 'try again tomorrow' : 'try again tomorrow or upgrade to premium for more';
  throw limitError('task_daily_create_limit', {
    title: `You can add ${dailyTasks} cloud downloads a day; ${more}.`,
    kind: 'cloud_download',
    limit: String(dailyTasks),
    usage: String(await readUsage(db, key)),
    needed: String(count),
    reset_at: iso(day.endsAt),
  });
}

/** A monthly quota as `about` answers it, with when it starts over. */
export async function trafficQuota(ctx: AppContext, userId: string, kind: TrafficKind): Promise<TrafficQuota> {
  const now = ctx.clock.now();
  const p = currentMonth(ctx, now);
  const [{ limit, complimentary }, usage] = await Promise.all([allowance(ctx, ctx.db, userId, kind, now), readUsage(ctx.db, monthKey(userId, kind, p))]);
  return { limit: limit === null ? '-1' : String(limit), usage: String(usage), complimentary: String(complimentary), is_unlimited: limit === null, reset_at: iso(p.endsAt) };
}

/** Cloud downloads added today against the daily limit of the account's plan, as `about` answers it. */
export async function dailyTaskQuota(ctx: AppContext, userId: string, dailyTasks: number): Promise<TrafficQuota> {
  const day = currentDay(ctx);
  const usage = await readUsage(ctx.db, { userId, kind: 'offline_tasks', period: day.key });
  return { limit: String(dailyTasks), usage: String(usage), complimentary: '0', is_unlimited: false, reset_at: iso(day.endsAt) };
}
