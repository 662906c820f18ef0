/**
 * The benefits of premium the carousel can show, and which of them this server's premium really gives: those that
 * stand for a limit whose free and premium values differ (GET /vip/v1/plans/limits), so a prompt never promises what
 * the operator does not give.
 */
import type { PlanLimits } from '@haul/shared';

/** global_high_speed is left out: it is about regions, and this server has one. */
export const BENEFITS = [
  'infinity_upload',
  'hd_quality',
  'rate_play',
  'storage',
  'cloud_decompression',
  'web_dav',
  'high_speed_download',
  'parallel_download',
] as const;
export type Benefit = (typeof BENEFITS)[number];

/**
 * The limits each benefit lifts. Speed control is no plan's limit here, and storage comes with storage packs rather
 * than premium: neither ever differs.
 */
const LIMITS_OF: Record<Benefit, (keyof PlanLimits)[]> = {
  infinity_upload: ['monthly_upload_size'],
  hd_quality: ['max_video_resolution'],
  rate_play: [],
  storage: [],
  cloud_decompression: ['cloud_decompression'],
  web_dav: ['webdav'],
  high_speed_download: ['monthly_download_size', 'daily_download_size'],
  parallel_download: ['daily_cloud_downloads', 'cloud_download_max_size', 'monthly_cloud_download_size'],
};

/** The benefits, in the carousel's order, whose limits premium changes on this server. */
export function benefitsOfPlans({ free, premium }: { free: PlanLimits; premium: PlanLimits }): Benefit[] {
  return BENEFITS.filter((b) => LIMITS_OF[b].some((limit) => free[limit] !== premium[limit]));
}
