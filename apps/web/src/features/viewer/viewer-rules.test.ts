import { afterEach, describe, expect, it, vi } from 'vitest';
import { ARROW_DEBOUNCE_MS, debounce, stripPaging, swipeOutcome } from './viewer-rules';

afterEach(() => vi.useRealTimers());

describe('viewer shell rules', () => {
  it('shows the strip’s page buttons only when it overflows, each while there is more that way', () => {
    expect(stripPaging(0, 800, 800)).toEqual({ overflow: false, back: false, forward: false });
    expect(stripPaging(0, 2000, 800)).toEqual({ overflow: true, back: false, forward: true });
    expect(stripPaging(600, 2000, 800)).toEqual({ overflow: true, back: true, forward: true });
    expect(stripPaging(1200, 2000, 800)).toEqual({ overflow: true, back: true, forward: false });
  });

  it('changes files past two thirds of the width, half on a phone, and closes past a quarter of the height', () => {
    const desk = { width: 900, height: 800, mobile: false };
    expect(swipeOutcome({ ...desk, dx: -650, dy: 10 })).toBe('next');
    expect(swipeOutcome({ ...desk, dx: 650, dy: 10 })).toBe('previous');
    expect(swipeOutcome({ ...desk, dx: -500, dy: 10 })).toBeNull();
    // Sweeping across 80 % of the window or more is left to the system.
    expect(swipeOutcome({ ...desk, dx: -760, dy: 0 })).toBeNull();
    const phone = { width: 390, height: 844, mobile: true };
    expect(swipeOutcome({ ...phone, dx: -240, dy: 10 })).toBe('next');
    expect(swipeOutcome({ ...phone, dx: -150, dy: 10 })).toBeNull();
    expect(swipeOutcome({ ...phone, dx: 5, dy: 500 })).toBe('close');
    expect(swipeOutcome({ ...phone, dx: 5, dy: 150 })).toBeNull();
  });

  it('debounces arrow keys: a burst switches once, after 100 ms of quiet', () => {
    vi.useFakeTimers();
    const moves: number[] = [];
    const go = debounce((d: number) => moves.push(d), ARROW_DEBOUNCE_MS);
    go(1);
    vi.advanceTimersByTime(60);
    go(1);
    vi.advanceTimersByTime(60);
    expect(moves).toEqual([]);
    vi.advanceTimersByTime(40);
    expect(moves).toEqual([1]);
    go(-1);
    go.cancel();
    vi.advanceTimersByTime(200);
    expect(moves).toEqual([1]);
  });
});
