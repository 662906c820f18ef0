import { afterEach, describe, expect, it } from 'vitest';
import { previewLimit, rememberWantedQuality, takeWantedQuality } from './play-gates';

describe(previewLimit.name, () => {
  it('allows the larger of the seconds and the range, times the duration (seed 001 §5)', () => {
    const params = { anonymous_play_seconds: '120', anonymous_play_range: '0.4' };
    expect(previewLimit(params, 1000)).toBe(400);
    expect(previewLimit(params, 200)).toBe(120);
    expect(previewLimit(params, 60)).toBe(60);
    expect(previewLimit({ anonymous_play_seconds: '2', anonymous_play_range: '0.1' }, 10)).toBe(2);
  });

  it('sets no limit without the params, and takes the defaults for the one missing', () => {
    expect(previewLimit({}, 100)).toBeNull();
    expect(previewLimit(undefined, 100)).toBeNull();
    expect(previewLimit({ anonymous_play_range: '0.5' }, 1000)).toBe(500);
    expect(previewLimit({ anonymous_play_seconds: '30' }, 0)).toBe(30);
  });
});

describe(takeWantedQuality.name, () => {
  afterEach(() => sessionStorage.clear());

  it('gives the quality chosen for this file back once', () => {
    rememberWantedQuality('f1', '1080p');
    expect(takeWantedQuality('f2')).toBeNull();
    expect(takeWantedQuality('f1')).toBe('1080p');
    expect(takeWantedQuality('f1')).toBeNull();
  });
});
