import { beforeEach, describe, expect, it } from 'vitest';
import { PHASE } from '@haul/shared/plain';
import type { DriveFile, DriveTask } from '@haul/shared';
import { expectLanding, noteTasks, screenAfterAdd, takeLanded, useLandings } from './after-add';

const file = (id: string) => ({ id, name: `${id}.txt`, trashed: false }) as DriveFile;
const task = (id: string, phase: string, made?: DriveFile) => ({ id, phase, reference_resource: made ?? null }) as DriveTask;

describe('after cloud downloads are added', () => {
  beforeEach(() => useLandings.setState({ waiting: new Map(), landed: [] }));

  it('goes to Recent unless the screen on show lists the new files', () => {
    expect(screenAfterAdd('/all', 'f1')).toBe('/recent');
    expect(screenAfterAdd('/star', '')).toBe('/recent');
    expect(screenAfterAdd('/all/f1', 'f1')).toBeNull();
    expect(screenAfterAdd('/all', '')).toBeNull();
    expect(screenAfterAdd('/recent', 'f1')).toBeNull();
  });

  it('lands the files of followed tasks once complete, once each, and lets failed ones go', () => {
    expectLanding([task('t1', PHASE.PENDING), task('t2', PHASE.PENDING), task('t3', PHASE.PENDING)], true);
    noteTasks([task('t1', PHASE.RUNNING), task('t2', PHASE.ERROR), task('other', PHASE.COMPLETE, file('x'))]);
    expect(takeLanded()).toEqual([]);
    expect([...useLandings.getState().waiting.keys()]).toEqual(['t1', 't3']);
    noteTasks([task('t1', PHASE.COMPLETE, file('a')), task('t3', PHASE.RUNNING)]);
    noteTasks([task('t1', PHASE.COMPLETE, file('a'))]);
    expect(takeLanded()).toEqual([{ file: file('a'), open: true }]);
    expect(takeLanded()).toEqual([]);
  });
});
