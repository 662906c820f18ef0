import { describe, expect, it } from 'vitest';
import { overflowing, parallelLimit, toStart } from './upload-queue';
import { UPLOAD_STATUS as S, type UploadStatus } from './upload-status';

const task = (taskId: string, status: UploadStatus, modifyTime = 0) => ({ taskId, status, modifyTime });
const byId = (...tasks: ReturnType<typeof task>[]) => Object.fromEntries(tasks.map((t) => [t.taskId, t]));

describe('which uploads run', () => {
  it('starts the oldest waiting tasks while fewer than the limit run', () => {
    const tasks = [
      task('a', S.TRANSMISSION),
      task('b', S.PENDING, 30),
      task('c', S.PENDING, 10),
      task('d', S.PENDING, 20),
      task('e', S.PAUSE),
    ];
    expect(toStart(tasks, 3)).toEqual(['c', 'd']);
    expect(toStart(tasks, 1)).toEqual([]);
  });

  it('steps back the newest running tasks beyond the limit', () => {
    // Newest first, as the transfer list keeps them.
    const order = ['e', 'd', 'c', 'b', 'a'];
    const tasks = byId(
      task('a', S.TRANSMISSION),
      task('b', S.ANALYSIS),
      task('c', S.PENDING),
      task('d', S.TRANSMISSION),
      task('e', S.COMPLETE),
    );
    expect(overflowing(tasks, order, 3)).toEqual([]);
    expect(overflowing(tasks, order, 2)).toEqual(['d']);
    expect(overflowing(tasks, order, 1)).toEqual(['d', 'b']);
  });

  it("takes the person's own limit when it is sensible, else three", () => {
    expect(parallelLimit(undefined)).toBe(3);
    expect(parallelLimit('5')).toBe(5);
    expect(parallelLimit(1)).toBe(1);
    expect(parallelLimit(0)).toBe(3);
    expect(parallelLimit(2.5)).toBe(3);
    expect(parallelLimit(500)).toBe(3);
  });
});
