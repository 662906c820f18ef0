/** GET /drive/v1/about: storage limit and usage, and the traffic quota entries; GET /drive/v1/about/storage: use by kind. */
import type { FastifyInstance } from 'fastify';
import { CONTRACT as C, QUOTA_KINDS, type TrafficQuota } from '@haul/shared';
import type { AppContext } from '../context.js';
import { serve } from '../http/contract.js';
import { planLimits } from '../quotas/plan-limits.js';
import { dailyTaskQuota, trafficQuota } from '../quotas/traffic.js';
import { findUserById } from '../accounts/users.repository.js';
import { storageLimit, storageUsage } from '../quotas/storage-room.js';
import { notFound } from '../http/errors.js';
import { storageByKind } from './storage-kinds.js';

export async function aboutRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  serve(app, C.getAbout, async (req) => {
    const user = await findUserById(ctx.db, req.userId);
    if (!user) throw notFound('The account no longer exists.');
    const [usage, limit] = await Promise.all([storageUsage(ctx.db, req.userId), storageLimit(ctx.db, req.userId, ctx.clock.now())]);
    const wanted = (req.query.with_quotas ?? '').split(',').map((s) => s.trim()).filter((k) => (QUOTA_KINDS as readonly string[]).includes(k));
    const quotas: Record<string, TrafficQuota> = {};
    for (const k of wanted) {
      if (k === 'upload_size_month') quotas[k] = await trafficQuota(ctx, req.userId, 'upload');
      else if (k === 'cloud_download_size_month') quotas[k] = await trafficQuota(ctx, req.userId, 'offline');
      else if (k === 'download_size_month') quotas[k] = await trafficQuota(ctx, req.userId, 'download');
      else if (k === 'cloud_download') quotas[k] = await dailyTaskQuota(ctx, req.userId, (await planLimits(ctx, req.userId)).dailyTasks);
    }
    return {
      kind: 'drive#about' as const,
      quota: { kind: 'drive#quota' as const, limit: String(limit), usage: String(usage.total), usage_in_trash: String(usage.inTrash) },
      expires_at: '',
      quotas,
    };
  });
  serve(app, C.storageByKind, async (req) => storageByKind(ctx.db, req.userId));
}
