import { describe, expect, it } from 'vitest';
import { PHASE } from '@haul/shared/plain';
import type { DriveTask } from '@haul/shared';
import { cloudActionFor } from './cloud-task-row';
import { badLinks, etaSeconds } from './offline-api';

const task = (params: Record<string, string>) => ({ params }) as unknown as DriveTask;

describe('cloud download rules', () => {
  it('accepts http(s) and magnet lines, and names every other non-empty line', () => {
    expect(badLinks('https://example.com/a.iso\n\n  http://x.org/b  \nmagnet:?xt=urn:btih:abc')).toEqual([]);
    expect(badLinks('ftp://x/y\nexample.com/file\nhttps://ok.example/z\njavascript:alert(1)')).toEqual([
      'ftp://x/y',
      'example.com/file',
      'javascript:alert(1)',
    ]);
    expect(badLinks('https://two words.example/')).toEqual(['https://two words.example/']);
  });

  it('estimates the time left from the last reported speed, or not at all', () => {
    expect(etaSeconds(task({ size: '1000', received: '400', speed: '100' }))).toBe(6);
    expect(etaSeconds(task({ size: '1000', received: '999', speed: '100' }))).toBe(1);
    expect(etaSeconds(task({ size: '', received: '400', speed: '100' }))).toBeNull();
    expect(etaSeconds(task({ size: '1000', received: '400', speed: '0' }))).toBeNull();
    expect(etaSeconds(task({}))).toBeNull();
  });

  it('offers the action of seed 000 §4 for each phase', () => {
    expect(cloudActionFor(PHASE.PENDING)).toBe('pause');
    expect(cloudActionFor(PHASE.RUNNING)).toBe('pause');
    expect(cloudActionFor(PHASE.PAUSED)).toBe('start');
    expect(cloudActionFor(PHASE.ERROR)).toBe('retry');
    expect(cloudActionFor(PHASE.COMPLETE)).toBe('view');
  });
});
