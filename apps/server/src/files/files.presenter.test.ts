import { describe, expect, it } from 'vitest';
import { isoTime } from './files.presenter.js';

describe(isoTime.name, () => {
  it('writes every time exactly as Date#toISOString does', () => {
    const edges = [0, 1, 999, 1000, 86_399_999, 86_400_000, 951_782_400_000, 951_868_799_999, 4_107_542_399_999, 253_402_300_799_999];
    // Consecutive calls on one day and on the next reuse and then replace the cached day.
    const spread = Array.from({ length: 20_000 }, (_, i) => Math.floor((i * 7_919_113_337) % 253_402_300_800_000));
    for (const ms of [...edges, ...spread]) expect(isoTime(ms), String(ms)).toBe(new Date(ms).toISOString());
  });

  it('falls back to Date for times a four-digit year cannot hold', () => {
    for (const ms of [-1, -86_400_001, 253_402_300_800_000, 8.64e15]) expect(isoTime(ms)).toBe(new Date(ms).toISOString());
  });
});
