import { describe, expect, it } from 'vitest';
import { PHASE } from '@haul/shared/plain';
import type { DriveTask } from '@haul/shared';
import { AFTER_ACTION_POLL, followCloudTasks, onCloudAction, pollAfterAction } from './cloud-task-poll';

const tasks = (...phases: string[]) => phases.map((phase, i) => ({ id: String(i), phase }) as DriveTask);

describe('polling after a batch action', () => {
  it('reads up to 10 times, 500 ms apart, while a task is not complete', async () => {
    const sleeps: number[] = [];
    const read = async () => tasks(PHASE.COMPLETE, PHASE.PAUSED);
    const reads = await pollAfterAction({ read, sleep: async (ms) => void sleeps.push(ms) });
    expect(AFTER_ACTION_POLL).toEqual({ times: 10, everyMs: 500 });
    expect(reads).toBe(10);
    expect(sleeps).toEqual(Array(10).fill(500));
  });

  it('stops as soon as every listed task is complete', async () => {
    const answers = [tasks(PHASE.RUNNING), tasks(PHASE.RUNNING, PHASE.COMPLETE), tasks(PHASE.COMPLETE, PHASE.COMPLETE)];
    let n = 0;
    expect(await pollAfterAction({ read: async () => answers[n++]!, sleep: async () => undefined })).toBe(3);
    expect(await pollAfterAction({ read: async () => [], sleep: async () => undefined })).toBe(1);
  });

  it('stops on a failed read and when told to', async () => {
    expect(await pollAfterAction({ read: () => Promise.reject(new Error('unauthenticated')), sleep: async () => undefined })).toBe(1);
    let reads = 0;
    const made = await pollAfterAction({
      read: async () => (reads++, tasks(PHASE.RUNNING)),
      sleep: async () => undefined,
      stopped: () => reads >= 4,
    });
    expect([made, reads]).toEqual([4, 4]);
  });

  it('tells the list on show about an action', () => {
    let heard = 0;
    const off = onCloudAction(() => heard++);
    followCloudTasks();
    off();
    followCloudTasks();
    expect(heard).toBe(1);
  });
});
