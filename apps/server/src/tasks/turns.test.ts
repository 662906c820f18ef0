import { describe, expect, it } from 'vitest';
import { nextTurn, perAccountCap, type Waiting } from './turns.js';

const w = (userId: string, running: number, lastClaimed: number | null, oldest = 0): Waiting => ({ userId, oldest, running, lastClaimed });

describe(nextTurn.name, () => {
  it('serves the account with the fewest running tasks first', () => {
    expect(nextTurn([w('greedy', 1, 50), w('quiet', 0, 10)], 2)).toBe('quiet');
  });
  it('between equals, serves the one served longest ago (never served first), whoever queued earlier', () => {
    expect(nextTurn([w('greedy', 0, 100, 1), w('quiet', 0, null, 500)], 1)).toBe('quiet');
    expect(nextTurn([w('greedy', 0, 100, 1), w('quiet', 0, 90, 500)], 1)).toBe('quiet');
    expect(nextTurn([w('a', 0, null, 7), w('b', 0, null, 3)], 1)).toBe('b');
  });
  it('skips an account at its cap, and answers null when all are', () => {
    expect(nextTurn([w('greedy', 2, 0), w('quiet', 1, 999)], 2)).toBe('quiet');
    expect(nextTurn([w('greedy', 2, 0)], 2)).toBeNull();
  });
  it('leaves one slot of several to the others, and one of one to whoever comes', () => {
    expect(perAccountCap(3, 0)).toBe(2);
    expect(perAccountCap(1, 0)).toBe(1);
    expect(perAccountCap(3, 3)).toBe(3);
  });
});
