/**
 * What a cloud download may still fetch for its owner (free space, this month's allowance, the plan's cap on one
 * download) and the limit error naming the one it passes, with the numbers a limit dialog shows. Checked when a task's
 * size is known at creation (a .torrent file), and by the worker once an origin or the peers tell it.
 */
import { formatSize, limitDescription, type LimitDetails } from '@haul/shared';
import type { AppContext } from '../context.js';
import { planLimits } from '../quotas/plan-limits.js';
import { refreshRunTimeSettings } from '../ops/run-time-settings.js';
import { monthlyLeft, requireMonthlyRoom } from '../quotas/traffic.js';
import { freeSpace, spaceNotEnough, storageLimit } from '../quotas/storage-room.js';
import { HttpError } from '../http/errors.js';

export type RoomLimit = 'space' | 'month' | 'plan';

export interface OfflineRoom {
  /** The most one download may fetch now. */
  maxBytes: number;
  /** The limit that sets maxBytes. */
  limit: RoomLimit;
  planBytes: number;
}

/**
 * The plan's cap on one cloud download is not one of the shared limit kinds, so its details name a kind of their own;
 * clients read it as they read the others.
 */
export type TaskSizeDetails = Omit<LimitDetails, 'kind'> & { kind: 'task_size' };

export async function offlineRoom(ctx: AppContext, userId: string): Promise<OfflineRoom> {
  // Asked by workers too, which answer no requests: the console's latest limits, whatever process changed them.
  await refreshRunTimeSettings(ctx);
  const [space, month, plan] = await Promise.all([
    freeSpace(ctx.db, userId, ctx.clock.now()),
    monthlyLeft(ctx, userId, 'offline'),
    planLimits(ctx, userId),
  ]);
  const limit: RoomLimit = plan.taskBytes < Math.min(space, month) ? 'plan' : month < space ? 'month' : 'space';
  return { maxBytes: Math.min(space, month, plan.taskBytes), limit, planBytes: plan.taskBytes };
}

/**
 * The error of a download of `needed` bytes that passes `room.limit`. `needed` may be only a lower bound (an origin
 * that sent more than the room without saying its size): the words then say "more than".
 */
export async function offlineTooLarge(ctx: AppContext, userId: string, room: OfflineRoom, needed: number): Promise<HttpError> {
  const size = formatSize(needed);
  if (room.limit === 'plan') {
    const details: TaskSizeDetails = {
      title: `This download is ${size}; one cloud download of your plan may be up to ${formatSize(room.planBytes)}.`,
      kind: 'task_size',
      limit: String(room.planBytes),
      usage: '0',
      needed: String(needed),
    };
    return new HttpError(400, 'file_size_too_large', limitDescription(details as unknown as LimitDetails));
  }
  if (room.limit === 'month') {
    // The month's own error, with its numbers and reset time.
    const err = await requireMonthlyRoom(ctx, userId, 'offline', needed).then(
      () => null,
      (e: unknown) => e,
    );
    if (err instanceof HttpError) return err;
  }
  const now = ctx.clock.now();
  const [free, limit] = await Promise.all([freeSpace(ctx.db, userId, now), storageLimit(ctx.db, userId, now)]);
  const words = `This download is ${size}, larger than the space left in your drive: ${formatSize(free)} of ${formatSize(limit)} is free.`;
  return spaceNotEnough(ctx.db, userId, needed, now, words);
}

/** Refuses a download of a known size that does not fit (at creation, so nothing is accepted that cannot land). */
export async function requireOfflineRoom(ctx: AppContext, userId: string, size: number): Promise<void> {
  const room = await offlineRoom(ctx, userId);
  if (size > room.maxBytes) throw await offlineTooLarge(ctx, userId, room, size);
}
