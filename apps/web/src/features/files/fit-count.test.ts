import { describe, expect, it } from 'vitest';
import { fitCount } from './fit-count';

describe('fitCount', () => {
  it('keeps every item when they all fit, without room for "more"', () => {
    expect(fitCount([50, 50, 50], 160, 5, 40)).toBe(3);
  });
  it('leaves room for "more" once something does not fit', () => {
    // 50 + 5 + 50 + 5 + 40 = 150 fits 159; a third item would not.
    expect(fitCount([50, 50, 50], 159, 5, 40)).toBe(2);
  });
  it('keeps the order: a narrow item after a wide one that does not fit goes too', () => {
    expect(fitCount([50, 200, 10], 120, 5, 40)).toBe(1);
  });
  it('puts everything in "more" when even one does not fit beside it', () => {
    expect(fitCount([80], 60, 5, 40)).toBe(0);
    expect(fitCount([], 0, 5, 40)).toBe(0);
  });
});
