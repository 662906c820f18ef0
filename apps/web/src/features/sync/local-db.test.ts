import Dexie from 'dexie';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeDrive } from './fake-drive';
import { clearLocalUser, deleteLocalDb, localDb, localDbOpened, localTasksOf, saveLocalTask } from './local-db';
import { deleteLocal, deleteStale, deleteStaleDrive, putLocal, readSlice, updateLocal, writeLocalPage } from './local-files';
import { storedIds, storedRows } from './stored-rows.test-support';
import type { LocalFile } from './stored-row';

const drive = new FakeDrive();
const row = (id: string, parent: string, over: Partial<LocalFile> = {}): LocalFile => {
  drive.put(id, parent);
  return { ...drive.files.get(id)!, local_sync_timestamp: 10, ...over };
};

const slice = async (userId: string, parentId: string) => {
  const ids: string[] = [];
  await readSlice(userId, { kind: 'folder', parentId }, (rows) => ids.push(...rows.map((r) => r.id)), undefined, 2);
  return ids.sort();
};

beforeEach(() => deleteLocalDb());

describe('the local database', () => {
  it('opens a database Dexie made as version 7, keeps its rows and tasks, and drops the indexes no longer read', async () => {
    // The schema as the app declared it through Dexie before: browsers that hold it must keep working.
    const old = new Dexie('drive');
    old.version(7).stores({
      files:
        'id, user_id, parent_id, star, local_sync_timestamp, [user_id+parent_id], [user_id+star], [user_id+parent_id+id], [user_id+star+id]',
      tasks: 'taskId, userId, status, taskType',
      resumes: 'uploadId',
      checkpoints: 'task_id',
    });
    await old.table('files').bulkPut([row('a', 'P'), row('b', 'P'), row('c', 'Q'), row('s', 'Q', { star: 1 })]);
    await old.table('tasks').put({ taskId: 't1', userId: 'u1', status: 'PAUSE', taskType: 'upload' });
    old.close();

    const db = await localDb();
    expect(db.version).toBe(80);
    expect([...db.objectStoreNames].sort()).toEqual(['checkpoints', 'chunk_ids', 'chunks', 'local_meta', 'resumes', 'tasks']);
    // The rows moved into chunks, stored without the fields at their usual value.
    expect(await storedIds()).toEqual(['a', 'b', 'c', 's']);
    expect((await storedRows()).get('a')).not.toHaveProperty('phase');
    expect(await slice('u1', 'P')).toEqual(['a', 'b']);
    const starred: string[] = [];
    await readSlice('u1', { kind: 'starred' }, (rows) => starred.push(...rows.map((r) => r.id)));
    expect(starred).toEqual(['s']);
    expect((await localTasksOf('u1')).map((t) => t.taskId)).toEqual(['t1']);
    // And they are written to as any other: a rename, a move, a delete.
    await updateLocal([{ id: 'a', changes: { name: 'renamed' } }, { id: 'c', changes: { parent_id: 'P' } }]);
    await deleteLocal(['b']);
    expect(await slice('u1', 'P')).toEqual(['a', 'c']);
    expect(await slice('u1', 'Q')).toEqual(['s']);
  });

  it('moves a copy kept one record per file (version 71) into chunks, keeping its sync marks', async () => {
    await new Promise<void>((resolve, reject) => {
      const req = indexedDB.open('drive', 71);
      req.onupgradeneeded = () => {
        const files = req.result.createObjectStore('files', { keyPath: 'id' });
        files.createIndex('[user_id+parent_id+id]', ['user_id', 'parent_id', 'id']);
        for (let i = 0; i < 2500; i++) files.put({ id: `r${String(i).padStart(4, '0')}`, user_id: i % 5 ? 'u1' : 'u2', parent_id: `F${i % 7}`, name: `n${i}`, local_sync_timestamp: 10 });
        req.result.createObjectStore('tasks', { keyPath: 'taskId' }).createIndex('userId', 'userId');
      };
      req.onsuccess = () => (req.result.close(), resolve());
      req.onerror = () => reject(req.error);
    });
    localStorage.setItem('haul.sync.u1', JSON.stringify({ since: 't', fullAt: 1 }));
    expect((await localDb()).version).toBe(80);
    expect(localStorage.getItem('haul.sync.u1')).not.toBeNull();
    expect(await storedIds()).toHaveLength(2500);
    // Far fewer records than rows, and every folder whole for its user.
    expect((await (await localDb()).count('chunks')) < 100).toBe(true);
    const f3 = await slice('u1', 'F3');
    expect(f3).toHaveLength([...Array(2500).keys()].filter((i) => i % 7 === 3 && i % 5 !== 0).length);
    expect(f3.every((id) => Number(id.slice(1)) % 7 === 3)).toBe(true);
  });

  it('reads a slice in pieces, and only that user and folder', async () => {
    await putLocal([row('c', 'P'), row('a', 'P'), row('b', 'P'), row('d', 'Q'), row('e', 'P', { user_id: 'u2' })]);
    expect(await slice('u1', 'P')).toEqual(['a', 'b', 'c']);
    expect(await slice('u2', 'P')).toEqual(['e']);
  });

  it('deletes stale rows of a slice, and of the drive only for its user', async () => {
    await putLocal([row('old', 'P', { local_sync_timestamp: 1 }), row('new', 'P', { local_sync_timestamp: 20 }), row('elsewhere', 'Q', { local_sync_timestamp: 1 }), row('theirs', 'P', { user_id: 'u2', local_sync_timestamp: 1 })]);
    await deleteStale('u1', { kind: 'folder', parentId: 'P' }, 5);
    expect(await storedIds()).toEqual(['elsewhere', 'new', 'theirs']);
    await deleteStaleDrive('u1', 5);
    expect(await storedIds()).toEqual(['new', 'theirs']);
  });

  it('stores a page without the fields at their usual value, and reads and updates the rows whole', async () => {
    const plain = row('a', 'P', { icon_link: '', web_content_link: '', tags: [], sensitive: 0, audit: null, delete_time: '' });
    const tagged = row('b', 'P', { icon_link: '', web_content_link: '', tags: [{ id: 't', name: 'x', type: 1 }] as unknown as LocalFile['tags'], sensitive: 0, audit: null, delete_time: '' });
    await writeLocalPage([plain, tagged], []);
    const stored = await storedRows();
    expect(stored.get('a')).not.toHaveProperty('phase');
    expect(stored.get('a')).not.toHaveProperty('tags');
    expect(stored.get('b')).toHaveProperty('tags', tagged.tags);
    const read: LocalFile[] = [];
    await readSlice('u1', { kind: 'folder', parentId: 'P' }, (rows) => read.push(...rows));
    expect(read).toEqual([plain, tagged]);
    await updateLocal([{ id: 'a', changes: { name: 'renamed' } }]);
    const again: LocalFile[] = [];
    await readSlice('u1', { kind: 'folder', parentId: 'P' }, (rows) => again.push(...rows));
    expect(again.find((r) => r.id === 'a')).toEqual({ ...plain, name: 'renamed' });
  });

  it('finds the starred rows through the chunks holding one, and a row leaves them when unstarred', async () => {
    await writeLocalPage([row('a', 'P'), row('b', 'P', { star: 1 }), row('c', 'Q', { star: 1 }), row('d', 'Q')], []);
    const db = await localDb();
    const starredChunks = () => db.countFromIndex('chunks', '[user_id+stars]');
    const starred = async () => {
      const ids: string[] = [];
      await readSlice('u1', { kind: 'starred' }, (rows) => ids.push(...rows.map((r) => `${r.id}:${r.star}`)));
      return ids.sort();
    };
    expect(await starred()).toEqual(['b:1', 'c:1']);
    await updateLocal([{ id: 'b', changes: { star: 0 } }, { id: 'c', changes: { star: 0 } }]);
    expect(await starredChunks()).toBe(0);
    await updateLocal([{ id: 'd', changes: { star: 1 } }]);
    expect(await starred()).toEqual(['d:1']);
    // Unstarred rows read back with star 0, and stay in their folder.
    expect(await slice('u1', 'P')).toEqual(['a', 'b']);
    expect((await storedRows()).get('b')?.star).toBeUndefined();
  });

  it('updates the rows it holds and skips the ones it does not', async () => {
    await putLocal([row('a', 'P')]);
    await updateLocal([{ id: 'a', changes: { name: 'renamed', star: 1 } }, { id: 'missing', changes: { name: 'x' } }]);
    expect((await storedRows()).get('a')).toMatchObject({ name: 'renamed', star: 1, parent_id: 'P' });
    expect(await storedIds()).toEqual(['a']);
  });

  it('keeps 10,000 rows right through moves, renames, deletes, stars and a sign-out, in chunks', async () => {
    const N = 10_000;
    const folder = (i: number) => (i < 6000 ? 'Big' : `Small${i % 40}`);
    const rows = Array.from({ length: N }, (_, i) => row(`r${String(i).padStart(5, '0')}`, folder(i)));
    for (let i = 0; i < N; i += 500) await writeLocalPage(rows.slice(i, i + 500), []);
    const db = await localDb();
    expect(await db.count('chunks')).toBeLessThan(N / 100);
    expect(await slice('u1', 'Big')).toHaveLength(6000);
    // 1,000 moves out of the big folder, renames, 500 deletions and 50 stars, in batches as a person makes them.
    const moved = rows.slice(0, 1000).map((r) => ({ id: r.id, changes: { parent_id: 'Small7' } }));
    for (let i = 0; i < moved.length; i += 100) await updateLocal(moved.slice(i, i + 100));
    await updateLocal(rows.slice(2000, 2300).map((r) => ({ id: r.id, changes: { name: `renamed ${r.id}` } })));
    await deleteLocal(rows.slice(3000, 3500).map((r) => r.id));
    await updateLocal(rows.slice(7000, 7050).map((r) => ({ id: r.id, changes: { star: 1 } })));
    // A second tab (another module instance, its own locator) writes too; this one sees its change before the next.
    vi.resetModules();
    const other = await import('./local-files');
    await other.updateLocal([{ id: rows[4000]!.id, changes: { parent_id: 'Small8' } }]);
    await updateLocal([{ id: rows[4000]!.id, changes: { name: 'moved then renamed' } }]);

    expect(await slice('u1', 'Big')).toHaveLength(6000 - 1000 - 500 - 1);
    const small7 = await slice('u1', 'Small7');
    expect(small7).toHaveLength(1000 + rows.filter((r) => r.parent_id === 'Small7').length);
    const stored = await storedRows();
    expect(stored.size).toBe(N - 500);
    expect(stored.get(rows[2100]!.id)?.name).toBe(`renamed ${rows[2100]!.id}`);
    expect(stored.get(rows[4000]!.id)).toMatchObject({ parent_id: 'Small8', name: 'moved then renamed' });
    const starred: string[] = [];
    await readSlice('u1', { kind: 'starred' }, (r) => starred.push(...r.map((x) => x.id)));
    expect(starred.sort()).toEqual(rows.slice(7000, 7050).map((r) => r.id));
    // Every row exactly once across the chunks.
    const ids = (await db.getAll('chunk_ids')).flatMap((c) => (c.ids ? c.ids.split('\n') : []));
    expect(ids).toHaveLength(N - 500);

    await putLocal([row('theirs', 'Big', { user_id: 'u2' })]);
    await clearLocalUser('u1');
    expect(await storedIds()).toEqual(['theirs']);
    expect(await slice('u1', 'Big')).toEqual([]);
  });

  it('writes a sync page of a big folder as one chunk, even when the last chunk has a little room left', async () => {
    await putLocal([row('first', 'Big')]);
    for (let p = 0; p < 3; p++) await writeLocalPage(Array.from({ length: 500 }, (_, i) => row(`p${p}-${String(i).padStart(3, '0')}`, 'Big')), []);
    const sizes = (await (await localDb()).getAll('chunks')).map((c) => c.rows.length);
    expect(sizes).toEqual([1, 500, 500, 500]);
    expect(await slice('u1', 'Big')).toHaveLength(1501);
  });

  it("forgets one user's rows and tasks on sign-out, keeping another's", async () => {
    await putLocal([row('a', 'P'), row('top', ''), row('b', 'P', { user_id: 'u2' }), row('c', '', { user_id: 'u10' })]);
    await saveLocalTask({ taskId: 't1', userId: 'u1', status: 'PAUSE', taskType: 'upload' });
    await saveLocalTask({ taskId: 't2', userId: 'u2', status: 'PAUSE', taskType: 'upload' });
    await clearLocalUser('u1');
    expect(await storedIds()).toEqual(['b', 'c']);
    expect(await (await localDb()).getAllKeys('tasks')).toEqual(['t2']);
    // Written to again after it (the locator made anew).
    await putLocal([row('a2', 'P')]);
    expect(await storedIds()).toEqual(['a2', 'b', 'c']);
  });

  it('forgets the sync marks when it has to make the database again (dropped by the browser), keeping them otherwise', async () => {
    await localDb();
    localStorage.setItem('haul.sync.u1', JSON.stringify({ since: 't', fullAt: 1 }));
    localStorage.setItem('other.key', 'kept');
    // A reload (the module afresh) opening the database that is there: the marks hold.
    vi.resetModules();
    const reloaded = await import('./local-db');
    expect(reloaded.localDbOpened()).toBe(false);
    (await reloaded.localDb()).close();
    expect(localStorage.getItem('haul.sync.u1')).not.toBeNull();
    // The browser drops the database behind the app's back (the open connection steps aside).
    await new Promise<void>((resolve) => {
      const req = indexedDB.deleteDatabase('drive');
      req.onsuccess = () => resolve();
    });
    expect(localDbOpened()).toBe(false);
    await localDb();
    expect(localDbOpened()).toBe(true);
    expect(localStorage.getItem('haul.sync.u1')).toBeNull();
    expect(localStorage.getItem('other.key')).toBe('kept');
  });

  it('makes an unreadable database again: one of a later version, or one lacking a store', async () => {
    for (const version of [900, 80]) {
      await deleteLocalDb();
      await new Promise<void>((resolve, reject) => {
        const req = indexedDB.open('drive', version);
        req.onupgradeneeded = () => req.result.createObjectStore('files', { keyPath: 'id' }).put({ id: 'left' });
        req.onsuccess = () => (req.result.close(), resolve());
        req.onerror = () => reject(req.error);
      });
      localStorage.setItem('haul.sync.u1', JSON.stringify({ since: 't', fullAt: 1 }));
      const db = await localDb();
      expect(db.version).toBe(80);
      expect([...db.objectStoreNames].sort()).toEqual(['checkpoints', 'chunk_ids', 'chunks', 'local_meta', 'resumes', 'tasks']);
      expect(await storedIds()).toEqual([]);
      expect(localStorage.getItem('haul.sync.u1')).toBeNull();
    }
  });
});

