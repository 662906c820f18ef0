import { beforeEach, describe, expect, it } from 'vitest';
import type { DriveFile, FileList } from '@haul/shared';
import { ApiError } from '../../lib/api-error';
import type { ListParams } from '../files/files-api';
import { FakeDrive } from './fake-drive';
import { deleteLocalDb } from './local-db';
import { onLocalChange, putLocal, writeLocalPage, type LocalChange } from './local-files';
import { clearStoredRows, storedIds, storedRows } from './stored-rows.test-support';
import { SYNC, SyncEngine } from './sync-engine';

let drive: FakeDrive;
let store: Map<string, string>;
const engine = (list: (p: ListParams) => Promise<FileList> = (p) => drive.list(p)) =>
  new SyncEngine('u1', {
    list,
    sleep: async () => undefined,
    now: () => drive.clock,
    storage: { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => void store.set(k, v) },
  });
const localIds = storedIds;
const marks = () => JSON.parse(store.get('haul.sync.u1') ?? '{}') as { since?: string; fullAt?: number; fullCursor?: { token: string; since: string } };
const id = (i: number) => `f${String(i).padStart(4, '0')}`;

beforeEach(async () => {
  await clearStoredRows();
  drive = new FakeDrive();
  store = new Map();
  for (let i = 0; i < 1200; i++) drive.put(id(i), i % 2 ? 'A' : '');
});

describe('SyncEngine full sync, page by page', () => {
  it('fetches the next page before the last one is written', async () => {
    const events: string[] = [];
    // Each page is announced when queued (and again once stored: the second announcements are left out here).
    const announced = new Set<string>();
    const off = onLocalChange((c) => {
      const first = c.put[0]!.id;
      if (!announced.has(first)) events.push(`write ${first}`);
      announced.add(first);
    });
    await engine(async (p) => {
      events.push(`list ${p.pageToken || 'first'}`);
      return drive.list(p);
    }).fullSync();
    off();
    expect(events).toEqual(['list first', 'list 500', `write ${id(0)}`, 'list 1000', `write ${id(500)}`, `write ${id(1000)}`]);
    expect(await localIds()).toHaveLength(1200);
  });

  it('carries on from its cursor after an interruption, keeping what it stored and fetching it once', async () => {
    let down = true;
    const flaky = (p: ListParams) => {
      if (down && p.pageToken === '1000') return Promise.reject(new ApiError(401, 'unauthenticated', 'signed out'));
      return drive.list(p);
    };
    await expect(engine(flaky).fullSync()).rejects.toThrow('signed out');
    expect(marks().fullCursor?.token).toBe('1000');
    expect(marks().fullAt).toBeUndefined();
    expect(await localIds()).toHaveLength(1000);
    const firstSince = marks().fullCursor!.since;
    expect(firstSince).toBeTruthy();

    // The tab opened again later: the next start carries on instead of starting over.
    down = false;
    drive.calls = [];
    drive.clock += 5000;
    await engine(flaky).start();
    expect(drive.calls.map((c) => c.pageToken)).toEqual(['1000']);
    const ids = await localIds();
    expect(ids).toHaveLength(1200);
    expect(new Set(ids).size).toBe(1200);
    expect(marks().fullCursor).toBeUndefined();
    expect(marks().fullAt).toBeDefined();
    // Incremental syncs carry on from the interrupted run's start, so nothing changed meanwhile is missed.
    expect(marks().since).toBe(firstSince);
  });

  it('keeps the cursor at a page IndexedDB refused, with none of that page stored', async () => {
    let broken = true;
    const list = async (p: ListParams) => {
      const page = await drive.list(p);
      // A function cannot be stored: the second page's write throws and its transaction is aborted.
      if (broken && p.pageToken === '500') page.files[250] = { ...page.files[250]!, cannotCopy: () => 1 } as unknown as DriveFile;
      return page;
    };
    await expect(engine(list).fullSync()).rejects.toThrow();
    expect(marks().fullCursor?.token).toBe('500');
    const ids = await localIds();
    for (let i = 0; i < 500; i++) expect(ids).toContain(id(i));
    expect(ids.some((x) => x >= id(500) && x < id(1000))).toBe(false);

    broken = false;
    drive.calls = [];
    await engine(list).fullSync();
    expect(drive.calls[0]!.pageToken).toBe('500');
    expect(await localIds()).toHaveLength(1200);
  });

  it('starts again from the first page when the server no longer takes the cursor', async () => {
    store.set('haul.sync.u1', JSON.stringify({ fullCursor: { token: 'expired', stamp: 1, since: '' } }));
    const list = (p: ListParams) =>
      p.pageToken === 'expired' ? Promise.reject(new ApiError(400, 'invalid_argument', 'bad token')) : drive.list(p);
    await engine(list).fullSync();
    expect(await localIds()).toHaveLength(1200);
    expect(marks().fullCursor).toBeUndefined();
    expect(marks().fullAt).toBeDefined();
  });

  it('keeps rows that a folder sync begun earlier writes again while the full sync runs', async () => {
    // The folder's second page is held until the full sync has announced the same rows, then lands before the full
    // sync looks for stale rows: rows stamped with the folder sync's (earlier) start would be taken for stale.
    let release = () => undefined as void;
    const held = new Promise<void>((r) => (release = r));
    const off = onLocalChange((c) => {
      if (c.put.some((f) => f.id === id(1000))) release();
    });
    const e = engine(async (p) => {
      drive.clock += 1;
      if (p.parentId === '' && p.pageToken === '500') await held;
      return drive.list(p);
    });
    const folder = e.syncFolder('');
    await e.fullSync();
    await folder;
    off();
    const ids = await localIds();
    expect(ids).toHaveLength(1200);
    expect(ids).toContain(id(1000));
    expect(ids).toContain(id(1198));
  });

  it('drops rows of the drive the full sync no longer finds, and only those', async () => {
    await putLocal([{ ...drive.files.get(id(0))!, id: 'gone', local_sync_timestamp: 1 }]);
    await putLocal([{ ...drive.files.get(id(0))!, id: 'other-user', user_id: 'u2', local_sync_timestamp: 1 }]);
    await engine().fullSync();
    const ids = await localIds();
    expect(ids).not.toContain('gone');
    expect(ids).toContain('other-user');
    expect(ids).toHaveLength(1201);
  });
});

describe('writeLocalPage', () => {
  it('waits for the database while it is being created (a first visit), instead of failing the page', async () => {
    const rows = [...drive.files.values()].slice(0, 3).map((f) => ({ ...f, local_sync_timestamp: 1 }));
    await deleteLocalDb();
    // The first call creates the database: both writes must wait for its version change to finish.
    await Promise.all([writeLocalPage(rows.slice(0, 2), []), writeLocalPage(rows.slice(2), [])]);
    expect(await localIds()).toEqual(rows.map((r) => r.id));
  });

  it('announces a page again once stored, for a screen that starts listening in between', async () => {
    const rows = [...drive.files.values()].slice(0, 3).map((f) => ({ ...f, local_sync_timestamp: 1 }));
    let queued = () => undefined as void;
    const firstAnnounced = new Promise<void>((r) => (queued = r));
    const offFirst = onLocalChange(() => queued());
    const writing = writeLocalPage(rows, []);
    await firstAnnounced;
    offFirst();
    // A screen mounting now reads the database before the page is in it: only the second announcement reaches it.
    const seen: string[] = [];
    const off = onLocalChange((c) => seen.push(...c.put.map((f) => f.id)));
    await writing;
    off();
    expect(seen).toEqual(rows.map((r) => r.id));
    expect(await localIds()).toEqual(rows.map((r) => r.id));
  });
});

describe('SyncEngine incremental sync in pages', () => {
  it('applies moves, renames, trash and deletes spread over several pages, and announces each', async () => {
    const e = engine();
    await e.fullSync();
    drive.clock += SYNC.incrementalThrottleMs;
    // 600 changes: two pages, with moves, a rename, a trash and a delete on both.
    for (let i = 0; i < 600; i++) drive.put(id(i), 'B');
    drive.put(id(1), 'B', { name: 'renamed' });
    drive.put(id(2), '', { trashed: true });
    drive.put(id(599), '', { params: { deleted: 'true' } });
    drive.put(id(700), 'B');
    const seen: LocalChange[] = [];
    const off = onLocalChange((c) => seen.push(c));
    await e.incremental();
    off();
    expect(drive.calls.filter((c) => c.filters?.modified_time)).toHaveLength(2);
    const rows = [...(await storedRows()).values()];
    expect(rows).toHaveLength(1198);
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.has(id(2))).toBe(false);
    expect(byId.has(id(599))).toBe(false);
    expect(byId.get(id(1))?.name).toBe('renamed');
    expect(byId.get(id(700))?.parent_id).toBe('B');
    expect(rows.filter((r) => r.parent_id === 'B')).toHaveLength(599);
    // Announced when queued and again once stored.
    expect(seen.flatMap((c) => c.deleted).sort()).toEqual([id(2), id(2), id(599), id(599)]);
    expect(seen.flatMap((c) => c.put)).toHaveLength(2 * 599);
  });
});
