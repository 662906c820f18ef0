/** What an account may do by plan: premium accounts add more cloud downloads a day and have no per-task size limit. */
import type { AppContext } from '../context.js';
import { isPremium } from '../accounts/user.presenter.js';
import { findUserById } from '../accounts/users.repository.js';

export interface PlanLimits {
  premium: boolean;
  dailyTasks: number;
  /** Largest single cloud download, bytes (Infinity: none). */
  taskBytes: number;
}

export async function planLimits(ctx: AppContext, userId: string): Promise<PlanLimits> {
  const user = await findUserById(ctx.db, userId);
  const premium = !!user && isPremium(user, ctx.clock.now());
  return {
    premium,
    dailyTasks: premium ? ctx.config.premiumDailyTaskLimit : ctx.config.dailyTaskLimit,
    taskBytes: premium || !ctx.config.offlineMaxTaskBytes ? Infinity : ctx.config.offlineMaxTaskBytes,
  };
}
