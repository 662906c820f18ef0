import { describe, expect, it } from 'vitest';
import type { DriveMedia } from '@haul/shared';
import {
  afterSongEnds,
  chooseMedia,
  clampSlider,
  clampZoom,
  collapsedControls,
  AUDIO_BAR_ROOM,
  countBlank,
  fallbackMedia,
  isBlackSample,
  formatClock,
  formatSpeed,
  pendingRenditions,
  resumeAt,
  seekByKey,
} from './playback-rules';
import { getDeg, getRecord, saveRecord, setDeg } from './play-records';

const media = (id: string, o: Partial<DriveMedia> = {}): DriveMedia => ({
  media_id: id,
  media_name: id,
  resolution_name: id,
  is_origin: id === 'origin',
  is_visible: true,
  need_more_quota: false,
  link: { url: `/m/${id}`, expire: '' },
  video: { video_codec: 'h264', audio_codec: 'aac', width: 1280, height: 720, duration: 10, bit_rate: 1 },
  phase: 'PHASE_TYPE_COMPLETE',
  progress: 100,
  message: '',
  ...o,
});

describe('playback rules', () => {
  it('plays the original when the browser can, else the middle rendition', () => {
    expect(chooseMedia([media('origin'), media('480p'), media('720p')])?.media_id).toBe('origin');
    const hidden = media('origin', { is_visible: false });
    expect(chooseMedia([hidden, media('480p'), media('720p'), media('1080p')])?.media_id).toBe('720p');
    expect(chooseMedia([hidden, media('480p'), media('720p')])?.media_id).toBe('720p');
    expect(chooseMedia([hidden, media('480p')])?.media_id).toBe('480p');
    const eac3 = media('origin', { video: { video_codec: 'h264', audio_codec: 'eac3', width: 1, height: 1, duration: 1, bit_rate: 1 } });
    expect(chooseMedia([eac3, media('480p')])?.media_id).toBe('480p');
    const running = media('720p', { is_visible: false, phase: 'PHASE_TYPE_RUNNING', progress: 40 });
    expect(chooseMedia([hidden, running])).toBeNull();
    expect(pendingRenditions([hidden, running]).map((m) => m.media_id)).toEqual(['720p']);
    // A quality the plan does not cover is offered, never chosen.
    const locked = media('1080p', { need_more_quota: true, link: { url: '', expire: '' } });
    expect(chooseMedia([hidden, media('480p'), media('720p'), locked])?.media_id).toBe('720p');
  });

  it('falls back from a failing original to the middle rendition, or the last of two', () => {
    const origin = media('origin');
    expect(fallbackMedia([origin, media('480p'), media('720p'), media('1080p')])?.media_id).toBe('720p');
    expect(fallbackMedia([origin, media('480p'), media('720p')])?.media_id).toBe('720p');
    expect(fallbackMedia([origin, media('480p'), media('720p', { is_visible: false })])?.media_id).toBe('480p');
    expect(fallbackMedia([origin, media('1080p', { need_more_quota: true })])).toBeNull();
    expect(fallbackMedia([origin])).toBeNull();
  });

  it('marks playback blank after 6 black samples in a row, counting only while time moves', () => {
    const sample = (v: number) => new Uint8ClampedArray(50 * 50 * 4).fill(v);
    expect(isBlackSample(sample(0))).toBe(true);
    expect(isBlackSample(sample(12))).toBe(true);
    const one = sample(0);
    one[4 * 1234 + 1] = 200;
    expect(isBlackSample(one)).toBe(false);
    let n = 0;
    for (let i = 0; i < 5; i++) n = countBlank(n, { moved: true, black: true });
    // A paused or stalled video neither adds nor resets.
    n = countBlank(n, { moved: false, black: false });
    expect(n).toBe(5);
    expect(countBlank(n, { moved: true, black: true })).toBe(6);
    expect(countBlank(n, { moved: true, black: false })).toBe(0);
  });

  it('collapses the audio bar’s controls as it narrows: volume slider, then quality, then settings', () => {
    const all = AUDIO_BAR_ROOM.fixed + AUDIO_BAR_ROOM.volume + AUDIO_BAR_ROOM.quality + AUDIO_BAR_ROOM.settings;
    expect(collapsedControls(all)).toEqual([]);
    expect(collapsedControls(all - 1)).toEqual(['volume']);
    expect(collapsedControls(all - AUDIO_BAR_ROOM.volume)).toEqual(['volume']);
    expect(collapsedControls(all - AUDIO_BAR_ROOM.volume - 1)).toEqual(['volume', 'quality']);
    expect(collapsedControls(AUDIO_BAR_ROOM.fixed + AUDIO_BAR_ROOM.settings)).toEqual(['volume', 'quality']);
    expect(collapsedControls(200)).toEqual(['volume', 'quality', 'settings']);
  });

  it('resumes below 99 % only, and keys seek within the file', () => {
    expect(resumeAt({ value: 30, percentage: 50 }, 60)).toBe(30);
    expect(resumeAt({ value: 59.5, percentage: 99.2 }, 60)).toBe(0);
    expect(resumeAt(undefined, 60)).toBe(0);
    expect(seekByKey('ArrowRight', 10, 100)).toBe(15);
    expect(seekByKey('ArrowRight', 98, 100)).toBe(100);
    // At either end the key stays in the file.
    expect(seekByKey('ArrowRight', 100, 100)).toBe(100);
    expect(seekByKey('ArrowLeft', 20, 100)).toBe(15);
    expect(seekByKey('ArrowLeft', 0.5, 100)).toBe(0);
    expect(seekByKey('l', 10, 100)).toBe(20);
    expect(seekByKey('J', 5, 100)).toBe(0);
    expect(seekByKey('ArrowUp', 10, 100)).toBeNull();
  });

  it('formats and clamps as the seeds say', () => {
    expect(formatClock(59)).toBe('00:59');
    expect(formatClock(3725)).toBe('1:02:05');
    expect(formatSpeed(500 * 1024)).toBe('500 KB/s');
    expect(formatSpeed(3.5 * 1024 * 1024)).toBe('3.50 MB/s');
    expect(clampSlider(33.3)).toBe(33.5);
    expect(clampSlider(120)).toBe(100);
    expect(clampZoom(10)).toBe(6.7);
    expect(clampZoom(0.01)).toBe(0.15);
    expect(afterSongEnds('list')).toBe('next');
    expect(afterSongEnds('single')).toBe('repeat');
    expect(afterSongEnds('pause')).toBe('stop');
  });

  it('remembers the last 30 positions and each photo’s rotation', () => {
    for (let i = 0; i < 35; i++) saveRecord('video', { id: `v${i}`, value: i, percentage: i });
    expect(getRecord('video', 'v34')).toEqual({ id: 'v34', value: 34, percentage: 34 });
    expect(getRecord('video', 'v4')).toBeUndefined();
    expect(getRecord('video', 'v5')?.value).toBe(5);
    setDeg('img', -90);
    expect(getDeg('img')).toBe(-90);
    setDeg('img', -360);
    expect(getDeg('img')).toBe(0);
  });
});
