import { describe, expect, it } from 'vitest';
import type { VideoProbe } from './media-probe.js';
import { isBrowserPlayableVideo, needsPremium, originContentType, previewSeconds, renditionPlan } from './playback.policy.js';

const video = (v: Partial<VideoProbe>): VideoProbe => ({
  kind: 'video', container: 'mov,mp4,m4a,3gp,3g2,mj2', videoCodec: 'h264', audioCodec: 'aac', pixelFormat: 'yuv420p',
  width: 1920, height: 1080, duration: 10, bitRate: 1, ...v,
});

describe(renditionPlan.name, () => {
  it('climbs 480p, 720p, 1080p up to the source, measured on the shorter side', () => {
    expect(renditionPlan({ width: 3840, height: 2160 }).map((r) => r.name)).toEqual(['480p', '720p', '1080p']);
    expect(renditionPlan({ width: 1280, height: 720 }).map((r) => [r.name, r.width, r.height])).toEqual([['480p', 854, 480], ['720p', 1280, 720]]);
    expect(renditionPlan({ width: 1080, height: 1920 }).map((r) => [r.name, r.width, r.height])).toEqual([['480p', 480, 854], ['720p', 720, 1280], ['1080p', 1080, 1920]]);
  });

  it('makes one rendition at the source size below 480p', () => {
    expect(renditionPlan({ width: 320, height: 240 }).map((r) => [r.name, r.width, r.height])).toEqual([['240p', 320, 240]]);
    expect(renditionPlan({ width: 320, height: 241 })[0]!.height % 2).toBe(0);
  });
});

describe(isBrowserPlayableVideo.name, () => {
  it('accepts mp4/mov/webm with browser codecs only', () => {
    expect(isBrowserPlayableVideo(video({}), 'a.mp4')).toBe(true);
    expect(isBrowserPlayableVideo(video({ audioCodec: '' }), 'a.mov')).toBe(true);
    expect(isBrowserPlayableVideo(video({ container: 'matroska,webm', videoCodec: 'vp9', audioCodec: 'opus' }), 'a.webm')).toBe(true);
    expect(isBrowserPlayableVideo(video({ container: 'matroska,webm', videoCodec: 'vp9', audioCodec: 'opus' }), 'a.mkv')).toBe(false);
    expect(isBrowserPlayableVideo(video({ videoCodec: 'hevc' }), 'a.mp4')).toBe(false);
    expect(isBrowserPlayableVideo(video({ audioCodec: 'ac3' }), 'a.mp4')).toBe(false);
    expect(isBrowserPlayableVideo(video({ pixelFormat: 'yuv420p10le' }), 'a.mp4')).toBe(false);
    expect(isBrowserPlayableVideo(video({ container: 'avi' }), 'a.avi')).toBe(false);
  });
});

describe(originContentType.name, () => {
  it('sends video and audio types, and nothing a browser would run', () => {
    expect(originContentType('a.mp4', 'video')).toBe('video/mp4');
    expect(originContentType('a.mkv', 'video')).toBe('video/x-matroska');
    expect(originContentType('a.flac', 'audio')).toMatch(/^audio\//);
    expect(originContentType('a.html', 'video')).toBe('application/octet-stream');
  });
});

describe(needsPremium.name, () => {
  it('gates renditions taller than the free plan on their shorter side, none at 0', () => {
    expect(needsPremium({ width: 1920, height: 1080 }, 720)).toBe(true);
    expect(needsPremium({ width: 1080, height: 1920 }, 720)).toBe(true);
    expect(needsPremium({ width: 1280, height: 720 }, 720)).toBe(false);
    expect(needsPremium({ width: 1920, height: 1080 }, 0)).toBe(false);
  });
});

describe(previewSeconds.name, () => {
  it('allows the larger of the seconds and the fraction, within the duration', () => {
    expect(previewSeconds(100, 120, 0.4)).toBe(100);
    expect(previewSeconds(1000, 120, 0.4)).toBe(400);
    expect(previewSeconds(200, 120, 0.4)).toBe(120);
    expect(previewSeconds(0, 120, 0.4)).toBe(120);
  });
});
