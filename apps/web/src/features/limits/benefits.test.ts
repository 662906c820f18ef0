import { describe, expect, it } from 'vitest';
import type { PlanLimits } from '@haul/shared';
import { BENEFITS, benefitsOfPlans } from './benefits';

/** A server where premium changes nothing. */
const same: PlanLimits = {
  daily_cloud_downloads: 100,
  cloud_download_max_size: null,
  monthly_upload_size: null,
  monthly_cloud_download_size: null,
  monthly_download_size: null,
  daily_download_size: null,
  max_video_resolution: 0,
  cloud_decompression: true,
  webdav: true,
};

describe(benefitsOfPlans.name, () => {
  it('shows only the benefits whose limits premium changes, in the carousel order', () => {
    // The server's defaults with decompression kept for premium: more cloud downloads a day, HD, decompression.
    const free = { ...same, max_video_resolution: 720, cloud_decompression: false };
    const premium = { ...same, daily_cloud_downloads: 1000 };
    expect(benefitsOfPlans({ free, premium })).toEqual(['hd_quality', 'cloud_decompression', 'parallel_download']);
  });

  it('counts a byte limit that premium lifts, monthly or daily', () => {
    const free = { ...same, monthly_upload_size: '1073741824', daily_download_size: '5368709120', monthly_cloud_download_size: '1' };
    expect(benefitsOfPlans({ free, premium: same })).toEqual(['infinity_upload', 'high_speed_download', 'parallel_download']);
    expect(benefitsOfPlans({ free: { ...same, webdav: false }, premium: same })).toEqual(['web_dav']);
  });

  it('never offers speed control or storage, which no plan limits here, and nothing when the plans are the same', () => {
    const free: PlanLimits = {
      daily_cloud_downloads: 1,
      cloud_download_max_size: '1',
      monthly_upload_size: '1',
      monthly_cloud_download_size: '1',
      monthly_download_size: '1',
      daily_download_size: '1',
      max_video_resolution: 480,
      cloud_decompression: false,
      webdav: false,
    };
    expect(benefitsOfPlans({ free, premium: same })).toEqual(BENEFITS.filter((b) => b !== 'rate_play' && b !== 'storage'));
    expect(benefitsOfPlans({ free: same, premium: same })).toEqual([]);
  });
});
