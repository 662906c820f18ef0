import Dexie from 'dexie';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeDrive } from './fake-drive';
import { clearLocalUser, deleteLocalDb, localDb, localDbOpened, localTasksOf, saveLocalTask } from './local-db';
import { deleteStale, deleteStaleDrive, readSlice, updateLocal, writeLocalPage } from './local-files';
import type { LocalFile } from './stored-row';

const drive = new FakeDrive();
const row = (id: string, parent: string, over: Partial<LocalFile> = {}): LocalFile => {
  drive.put(id, parent);
  return { ...drive.files.get(id)!, local_sync_timestamp: 10, ...over };
};

const slice = async (userId: string, parentId: string) => {
  const ids: string[] = [];
  await readSlice(userId, { kind: 'folder', parentId }, (rows) => ids.push(...rows.map((r) => r.id)), undefined, 2);
  return ids;
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
    expect(db.version).toBe(71);
    expect([...db.objectStoreNames].sort()).toEqual(['checkpoints', 'files', 'resumes', 'tasks']);
    expect([...db.transaction('files').store.indexNames].sort()).toEqual(['[user_id+parent_id+id]', '[user_id+star+id]', 'local_sync_timestamp']);
    expect(await slice('u1', 'P')).toEqual(['a', 'b']);
    const starred: string[] = [];
    await readSlice('u1', { kind: 'starred' }, (rows) => starred.push(...rows.map((r) => r.id)));
    expect(starred).toEqual(['s']);
    expect((await localTasksOf('u1')).map((t) => t.taskId)).toEqual(['t1']);
  });

  it('adds the stores and indexes an older database lacks', async () => {
    await new Promise<void>((resolve, reject) => {
      const req = indexedDB.open('drive', 60);
      req.onupgradeneeded = () => req.result.createObjectStore('files', { keyPath: 'id' }).createIndex('user_id', 'user_id');
      req.onsuccess = () => (req.result.close(), resolve());
      req.onerror = () => reject(req.error);
    });
    const db = await localDb();
    const tx = db.transaction(['files', 'tasks'], 'readonly');
    expect([...tx.objectStore('files').indexNames]).toContain('[user_id+star+id]');
    expect([...tx.objectStore('tasks').indexNames]).toContain('userId');
  });

  it('reads a slice in chunks, in id order, and only that user and folder', async () => {
    const db = await localDb();
    for (const r of [row('c', 'P'), row('a', 'P'), row('b', 'P'), row('d', 'Q'), row('e', 'P', { user_id: 'u2' })]) await db.put('files', r);
    expect(await slice('u1', 'P')).toEqual(['a', 'b', 'c']);
    expect(await slice('u2', 'P')).toEqual(['e']);
  });

  it('deletes stale rows of a slice, and of the drive only for its user', async () => {
    const db = await localDb();
    for (const r of [row('old', 'P', { local_sync_timestamp: 1 }), row('new', 'P', { local_sync_timestamp: 20 }), row('elsewhere', 'Q', { local_sync_timestamp: 1 }), row('theirs', 'P', { user_id: 'u2', local_sync_timestamp: 1 })])
      await db.put('files', r);
    await deleteStale('u1', { kind: 'folder', parentId: 'P' }, 5);
    expect((await db.getAllKeys('files')).sort()).toEqual(['elsewhere', 'new', 'theirs']);
    await deleteStaleDrive('u1', 5);
    expect((await db.getAllKeys('files')).sort()).toEqual(['new', 'theirs']);
  });

  it('stores a page without the fields at their usual value, and reads and updates the rows whole', async () => {
    const plain = row('a', 'P', { icon_link: '', web_content_link: '', tags: [], sensitive: 0, audit: null, delete_time: '' });
    const tagged = row('b', 'P', { icon_link: '', web_content_link: '', tags: [{ id: 't', name: 'x', type: 1 }] as unknown as LocalFile['tags'], sensitive: 0, audit: null, delete_time: '' });
    await writeLocalPage([plain, tagged], []);
    const db = await localDb();
    expect(await db.get('files', 'a')).not.toHaveProperty('phase');
    expect(await db.get('files', 'a')).not.toHaveProperty('tags');
    expect(await db.get('files', 'b')).toHaveProperty('tags', tagged.tags);
    const read: LocalFile[] = [];
    await readSlice('u1', { kind: 'folder', parentId: 'P' }, (rows) => read.push(...rows));
    expect(read).toEqual([plain, tagged]);
    await updateLocal([{ id: 'a', changes: { name: 'renamed' } }]);
    const again: LocalFile[] = [];
    await readSlice('u1', { kind: 'folder', parentId: 'P' }, (rows) => again.push(...rows));
    expect(again[0]).toEqual({ ...plain, name: 'renamed' });
  });

  it('indexes the starred rows only, and a row leaves that index when unstarred', async () => {
    await writeLocalPage([row('a', 'P'), row('b', 'P', { star: 1 }), row('c', 'Q', { star: 1 }), row('d', 'Q')], []);
    const db = await localDb();
    const starIndex = () => db.getAllKeysFromIndex('files', '[user_id+star+id]');
    expect(await starIndex()).toEqual(['b', 'c']);
    const starred = async () => {
      const ids: string[] = [];
      await readSlice('u1', { kind: 'starred' }, (rows) => ids.push(...rows.map((r) => `${r.id}:${r.star}`)));
      return ids;
    };
    expect(await starred()).toEqual(['b:1', 'c:1']);
    await updateLocal([{ id: 'b', changes: { star: 0 } }, { id: 'd', changes: { star: 1 } }]);
    expect(await starIndex()).toEqual(['c', 'd']);
    expect(await starred()).toEqual(['c:1', 'd:1']);
    // Unstarred rows read back with star 0, and stay in their folder.
    expect(await slice('u1', 'P')).toEqual(['a', 'b']);
    expect((await db.get('files', 'b'))?.star).toBeUndefined();
  });

  it('updates the rows it holds and skips the ones it does not', async () => {
    const db = await localDb();
    await db.put('files', row('a', 'P'));
    await updateLocal([{ id: 'a', changes: { name: 'renamed', star: 1 } }, { id: 'missing', changes: { name: 'x' } }]);
    expect(await db.get('files', 'a')).toMatchObject({ name: 'renamed', star: 1, parent_id: 'P' });
    expect(await db.get('files', 'missing')).toBeUndefined();
  });

  it("forgets one user's rows and tasks on sign-out, keeping another's", async () => {
    const db = await localDb();
    await db.put('files', row('a', 'P'));
    await db.put('files', row('top', ''));
    await db.put('files', row('b', 'P', { user_id: 'u2' }));
    await db.put('files', row('c', '', { user_id: 'u10' }));
    await saveLocalTask({ taskId: 't1', userId: 'u1', status: 'PAUSE', taskType: 'upload' });
    await saveLocalTask({ taskId: 't2', userId: 'u2', status: 'PAUSE', taskType: 'upload' });
    await clearLocalUser('u1');
    expect(await db.getAllKeys('files')).toEqual(['b', 'c']);
    expect(await db.getAllKeys('tasks')).toEqual(['t2']);
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
    for (const version of [900, 71]) {
      await deleteLocalDb();
      await new Promise<void>((resolve, reject) => {
        const req = indexedDB.open('drive', version);
        req.onupgradeneeded = () => req.result.createObjectStore('files', { keyPath: 'id' }).put({ id: 'left' });
        req.onsuccess = () => (req.result.close(), resolve());
        req.onerror = () => reject(req.error);
      });
      localStorage.setItem('haul.sync.u1', JSON.stringify({ since: 't', fullAt: 1 }));
      const db = await localDb();
      expect(db.version).toBe(71);
      expect([...db.objectStoreNames].sort()).toEqual(['checkpoints', 'files', 'resumes', 'tasks']);
      expect(await db.getAllKeys('files')).toEqual([]);
      expect(localStorage.getItem('haul.sync.u1')).toBeNull();
    }
  });
});

