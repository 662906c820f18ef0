/**
 * A browser that kept the drive one IndexedDB record per file (version 71) opens this build: the rows move into chunks
 * in the upgrade, the sync marks hold (no full sync runs again), and the copy keeps up with moves, renames, trashing
 * and stars made elsewhere, then goes with a sign-out. 10,000 files, in Chromium.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { seedFolder } from '../bench/fixtures.js';
import { folderWhole, listView, localRows, pageApi, sessionUserId, signUpInBrowser, startE2E, type E2E } from './harness.js';

const FILES = 10_000;

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e?.close());

const syncMarks = (page: Page, userId: string) => page.evaluate((uid) => JSON.parse(localStorage.getItem(`haul.sync.${uid}`) ?? '{}') as { fullAt?: number }, userId);

/** Runs in the page: the copy made again in the layout of version 71 (store `files`, one record per row), rows kept. */
function rewriteAsVersion71(page: Page) {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const fail = (e: unknown) => reject(e instanceof Error ? e : new Error(String(e)));
        const open = indexedDB.open('drive');
        open.onerror = () => fail(open.error);
        open.onsuccess = () => {
          const read = open.result.transaction('chunks').objectStore('chunks').getAll();
          read.onsuccess = () => {
            const rows = (read.result as { rows: { id: string }[] }[]).flatMap((c) => c.rows);
            open.result.close();
            const del = indexedDB.deleteDatabase('drive');
            del.onerror = () => fail(del.error);
            del.onsuccess = () => {
              const old = indexedDB.open('drive', 71);
              old.onupgradeneeded = () => {
                const files = old.result.createObjectStore('files', { keyPath: 'id' });
                files.createIndex('local_sync_timestamp', 'local_sync_timestamp');
                files.createIndex('[user_id+parent_id+id]', ['user_id', 'parent_id', 'id']);
                files.createIndex('[user_id+star+id]', ['user_id', 'star', 'id']);
                const tasks = old.result.createObjectStore('tasks', { keyPath: 'taskId' });
                for (const i of ['userId', 'status', 'taskType']) tasks.createIndex(i, i);
                old.result.createObjectStore('resumes', { keyPath: 'uploadId' });
                old.result.createObjectStore('checkpoints', { keyPath: 'task_id' });
                for (const r of rows) files.put(r);
              };
              old.onerror = () => fail(old.error);
              old.onsuccess = () => (old.result.close(), resolve(rows.length));
            };
          };
          read.onerror = () => fail(read.error);
        };
      }),
  );
}

/** The name of a row as the local copy holds it. */
const storedName = (page: Page, id: string) =>
  page.evaluate(
    (fileId) =>
      new Promise<string | undefined>((resolve, reject) => {
        const open = indexedDB.open('drive');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const read = open.result.transaction('chunks').objectStore('chunks').getAll();
          read.onsuccess = () => {
            open.result.close();
            const rows = (read.result as { rows: { id: string; name: string }[] }[]).flatMap((c) => c.rows);
            resolve(rows.find((r) => r.id === fileId)?.name);
          };
        };
      }),
    id,
  );

const driveStores = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<{ version: number; stores: string[]; chunks: number }>((resolve, reject) => {
        const open = indexedDB.open('drive');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const count = db.transaction('chunks').objectStore('chunks').count();
          count.onsuccess = () => {
            resolve({ version: db.version, stores: [...db.objectStoreNames].sort(), chunks: count.result });
            db.close();
          };
        };
      }),
  );

describe('a copy kept in the earlier layout', () => {
  it('moves into chunks on the first visit after, keeps up with changes made elsewhere, and goes on sign-out', async () => {
    const { page } = await e2e.newPage();
    await signUpInBrowser(page);
    const userId = await sessionUserId(page);
    const folderId = await seedFolder(e2e.haul.ctx.db, userId, 'Kept', FILES);

    await page.goto(`/drive/all/${folderId}`);
    await page.locator('[data-item]').first().waitFor();
    await expect.poll(() => localRows(page, userId), { timeout: 60_000 }).toBe(FILES + 1);
    await expect.poll(async () => (await syncMarks(page, userId)).fullAt ?? 0, { timeout: 30_000 }).toBeGreaterThan(0);
    const { fullAt } = await syncMarks(page, userId);

    // From a page of the same origin that is not the app, as between two visits on an older build.
    await page.goto('/healthz');
    expect(await rewriteAsVersion71(page)).toBe(FILES + 1);

    // Listings of the whole drive, neither of changes nor of the starred items, are a full sync: none may run.
    const fullSyncs: string[] = [];
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (url.pathname === '/drive/v1/files' && url.searchParams.get('parent_id') === '*' && !/modified_time|system_tag/.test(url.searchParams.get('filters') ?? '')) fullSyncs.push(r.url());
    });
    // With listings refused (offline), so every row on screen comes from the moved copy.
    const listings = /\/drive\/v1\/files\?/;
    await page.route(listings, (route) => route.abort('internetdisconnected'));
    await page.goto(`/drive/all/${folderId}`);
    await listView(page);
    await folderWhole(page, 'Kept', FILES);
    await page.unroute(listings);
    const after = await driveStores(page);
    expect(after.version).toBe(80);
    expect(after.stores).not.toContain('files');
    expect(after.chunks).toBeLessThan(FILES / 100);
    expect(await localRows(page, userId)).toBe(FILES + 1);
    expect((await syncMarks(page, userId)).fullAt).toBe(fullAt);
    expect(fullSyncs).toEqual([]);

    // Changes made through the API (another device): 100 moved out, 50 trashed, 10 starred, one renamed.
    const page1 = (await pageApi(page, 'GET', `/drive/v1/files?parent_id=${folderId}&limit=500`)) as { files: { id: string; name: string }[] };
    const ids = page1.files.map((f) => f.id);
    const target = (await pageApi(page, 'POST', '/drive/v1/files', { kind: 'drive#folder', name: 'Moved here', parent_id: '' })).file as { id: string };
    await pageApi(page, 'POST', '/drive/v1/files:batchMove', { ids: ids.slice(0, 100), to: { parent_id: target.id } });
    await pageApi(page, 'POST', '/drive/v1/files:batchTrash', { ids: ids.slice(100, 150) });
    await pageApi(page, 'POST', '/drive/v1/files:star', { ids: ids.slice(200, 210) });
    await pageApi(page, 'PATCH', `/drive/v1/files/${ids[300]}`, { name: 'Renamed elsewhere.mp4' });

    await page.reload();
    await listView(page);
    await folderWhole(page, 'Kept', FILES - 150);
    await expect.poll(() => storedName(page, ids[300]!), { timeout: 30_000 }).toBe('Renamed elsewhere.mp4');
    await expect.poll(() => localRows(page, userId), { timeout: 30_000 }).toBe(FILES + 1 - 50 + 1);
    await page.goto(`/drive/all/${target.id}`);
    await folderWhole(page, 'Moved here', 100);
    await page.goto('/drive/star');
    await expect.poll(() => page.locator('[data-item]').count(), { timeout: 30_000 }).toBe(10);
    expect(fullSyncs).toEqual([]);

    // Signing out takes the copy with it.
    await page.getByRole('button', { name: 'Account' }).click();
    await page.getByRole('menuitem', { name: 'Sign out', exact: true }).click();
    await page.waitForURL('**/drive/login**');
    await expect.poll(() => localRows(page, userId)).toBe(0);
  });
});
