import { describe, expect, it } from 'vitest';
import { rowSpan, steadyRange } from './steady-range';

const range = (startIndex: number, endIndex: number, count = 240) => ({ startIndex, endIndex, overscan: 6, count });

describe(steadyRange.name, () => {
  it('renders as many rows whether the screen cuts one row or two', () => {
    // 676 px of 48 px rows: 15 rows when they line up with the top, 16 when a row is cut at each edge.
    const span = rowSpan(676, 48, 6);
    expect(span).toBe(28);
    const extract = steadyRange(span);
    expect(extract(range(20, 34))).toHaveLength(28);
    expect(extract(range(20, 35))).toHaveLength(28);
    expect(extract(range(20, 35))[0]).toBe(14);
  });

  it('starts at the top and stops at the end of the list', () => {
    const extract = steadyRange(28);
    expect(extract(range(0, 14))).toEqual(Array.from({ length: 28 }, (_, i) => i));
    expect(extract(range(225, 239)).at(-1)).toBe(239);
    expect(extract(range(0, 2, 3))).toEqual([0, 1, 2]);
  });
});
