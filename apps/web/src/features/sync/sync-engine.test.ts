import { beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-error';
import { FakeDrive } from './fake-drive';
import { putLocal } from './local-files';
import { clearStoredRows, storedIds, storedRows } from './stored-rows.test-support';
import { SYNC, SyncEngine } from './sync-engine';

let drive: FakeDrive;
let sleeps: number[];
let store: Map<string, string>;
const engine = () =>
  new SyncEngine('u1', {
    list: (p) => drive.list(p),
    sleep: async (ms) => void sleeps.push(ms),
    now: () => drive.clock,
    storage: { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => void store.set(k, v) },
  });
const localIds = storedIds;

beforeEach(async () => {
  await clearStoredRows();
  drive = new FakeDrive();
  sleeps = [];
  store = new Map();
});

describe('SyncEngine', () => {
  it('syncs a folder page by page and drops local rows the server no longer has there', async () => {
    for (let i = 0; i < 1200; i++) drive.put(`f${String(i).padStart(4, '0')}`, 'A');
    drive.put('other', 'B');
    await putLocal([{ ...drive.files.get('f0000')!, id: 'stale', local_sync_timestamp: 1 }]);
    await engine().syncFolder('A');
    expect(drive.calls.map((c) => c.limit)).toEqual([SYNC.pageSize, SYNC.pageSize, SYNC.pageSize]);
    const ids = await localIds();
    expect(ids).toHaveLength(1200);
    expect(ids).not.toContain('stale');
    expect(ids).not.toContain('other');
  });

  it('applies incremental changes: new and renamed rows in, trashed and deleted rows out', async () => {
    drive.put('keep', '');
    drive.put('trash-me', '');
    drive.put('delete-me', '');
    const e = engine();
    await e.start(); // no marks yet: a full sync
    expect(await localIds()).toEqual(['delete-me', 'keep', 'trash-me']);
    drive.clock += SYNC.incrementalThrottleMs;
    drive.put('new', 'x');
    drive.put('trash-me', '', { trashed: true });
    drive.put('delete-me', '', { params: { deleted: 'true' } });
    drive.put('keep', '', { name: 'renamed' });
    await e.incremental();
    expect(await localIds()).toEqual(['keep', 'new']);
    expect((await storedRows()).get('keep')?.name).toBe('renamed');
    expect(drive.calls.at(-1)?.filters?.modified_time).toBeDefined();
  });

  it('retries a failing page 10 times 2 s apart, then gives up', async () => {
    drive.put('a', '');
    drive.failures = Array.from({ length: 3 }, () => new ApiError(0, 'local_error', 'offline'));
    await engine().syncFolder('');
    expect(sleeps).toEqual([2000, 2000, 2000]);
    expect(await localIds()).toEqual(['a']);

    drive.failures = Array.from({ length: 11 }, () => new ApiError(503, 'internal', 'down'));
    sleeps = [];
    await expect(engine().syncFolder('')).rejects.toThrow('down');
    expect(sleeps).toHaveLength(SYNC.retries);
  });

  it('asks an empty root once more after 500 ms before dropping its local rows', async () => {
    drive.put('kept', '');
    await putLocal([{ ...drive.files.get('kept')!, local_sync_timestamp: 1 }]);
    drive.files.delete('kept');
    // The drive lists its file only by the second ask.
    const e = new SyncEngine('u1', {
      list: (p) => drive.list(p),
      sleep: async (ms) => {
        sleeps.push(ms);
        drive.put('kept', '');
      },
      now: () => drive.clock,
      storage: { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => void store.set(k, v) },
    });
    await e.syncFolder('');
    expect(sleeps).toEqual([SYNC.emptyRootRetryMs]);
    expect(drive.calls).toHaveLength(2);
    expect(await localIds()).toEqual(['kept']);
  });

  it('asks only once when the root stays empty, and never for another folder', async () => {
    await engine().syncFolder('');
    expect(sleeps).toEqual([500]);
    expect(drive.calls).toHaveLength(2);
    sleeps = [];
    drive.calls = [];
    await engine().syncFolder('A');
    expect(sleeps).toEqual([]);
    expect(drive.calls).toHaveLength(1);
  });

  it('stops at once when signed out or when the folder is gone', async () => {
    drive.failures = [new ApiError(401, 'unauthenticated', 'signed out')];
    await expect(engine().syncFolder('')).rejects.toThrow('signed out');
    drive.failures = [new ApiError(404, 'file_not_found', 'gone')];
    await expect(engine().syncFolder('nope')).rejects.toThrow('gone');
    expect(sleeps).toEqual([]);
  });

  it('runs a full sync when the last one is older than three periods', async () => {
    drive.put('a', '');
    const e = engine();
    await e.start();
    const calls = drive.calls.length;
    drive.clock += 2 * SYNC.periodMs;
    await e.start();
    expect(drive.calls.at(-1)?.filters?.modified_time).toBeDefined(); // incremental
    drive.clock += 2 * SYNC.periodMs;
    await e.start();
    expect(drive.calls.length).toBeGreaterThan(calls + 1);
    expect(drive.calls.at(-1)?.filters?.modified_time).toBeUndefined(); // full again
  });
});

describe('SyncEngine.incremental while one runs', () => {
  it('runs once more afterwards, so a change made meanwhile is picked up', async () => {
    drive.put('first', '');
    const e = engine();
    await e.fullSync();
    drive.clock += SYNC.incrementalThrottleMs;
    drive.put('during', '');
    // 'after' lands on the server just after the first run has read its page.
    const list = drive.list;
    drive.list = async (p) => {
      const page = await list(p);
      if (p.filters?.modified_time && !drive.files.has('after')) drive.put('after', '');
      return page;
    };
    const one = e.incremental();
    const two = e.incremental(); // asked while the first runs
    await Promise.all([one, two]);
    expect(await localIds()).toEqual(['after', 'during', 'first']);
  });
});

describe('SyncEngine and a local copy that is gone', () => {
  it('trusts no mark before the database is open, and syncs the whole drive when opening it forgot them', async () => {
    drive.put('a', 'F');
    drive.put('F', '', { kind: 'drive#folder' });
    store.set('haul.sync.u1', JSON.stringify({ since: 't', fullAt: drive.clock, folders: { F: true } }));
    let open = false;
    const e = new SyncEngine('u1', {
      list: (p) => drive.list(p),
      sleep: async () => undefined,
      now: () => drive.clock,
      storage: { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => void store.set(k, v) },
      // The database had to be made again: opening it forgets the marks (local-db.ts).
      localCopy: {
        opened: () => open,
        open: async () => {
          store.delete('haul.sync.u1');
          open = true;
        },
      },
    });
    expect(e.hasFolder('F')).toBe(false);
    await e.start();
    // A full sync (no modified_time filter), not an incremental one from the forgotten mark.
    expect(drive.calls.map((c) => [c.parentId, c.filters?.modified_time])).toEqual([['*', undefined]]);
    expect(await localIds()).toEqual(['F', 'a']);
    expect(e.hasFolder('F')).toBe(true);
  });
});

