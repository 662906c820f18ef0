/**
 * Free and premium side by side, from the operator's settings: each value is the one the server enforces
 * (accounts/plan-limits.ts, accounts/traffic.ts, media's renditions, archives, WebDAV), so the plan cards never promise
 * what premium does not give here.
 */
import type { PlanLimits } from '@haul/shared';
import type { Config } from '../config.js';

/** A byte limit of the settings, where 0 means none. */
const bytes = (n: number): string | null => (n > 0 ? String(n) : null);

export function comparePlans(config: Config): { free: PlanLimits; premium: PlanLimits } {
  return {
    free: {
      daily_cloud_downloads: config.dailyTaskLimit,
      cloud_download_max_size: bytes(config.offlineMaxTaskBytes),
      monthly_upload_size: bytes(config.monthlyUploadBytes),
      monthly_cloud_download_size: bytes(config.monthlyCloudDownloadBytes),
      monthly_download_size: bytes(config.monthlyDownloadBytes),
      daily_download_size: bytes(config.dailyDownloadBytes),
      max_video_resolution: Math.max(0, config.freeMaxResolution),
      cloud_decompression: !config.decompressPremiumOnly,
      webdav: !config.webdavPremiumOnly,
    },
    // Premium lifts every transfer allowance and the size of one cloud download; only the daily count stays.
    premium: {
      daily_cloud_downloads: config.premiumDailyTaskLimit,
      cloud_download_max_size: null,
      monthly_upload_size: null,
      monthly_cloud_download_size: null,
      monthly_download_size: null,
      daily_download_size: null,
      max_video_resolution: 0,
      cloud_decompression: true,
      webdav: true,
    },
  };
}
