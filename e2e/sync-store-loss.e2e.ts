/**
 * The local copy lost while the sync marks in localStorage survive: the IndexedDB database deleted (as a browser
 * clearing site storage does), or left unreadable (a version this build cannot open, a store missing). A reload must
 * list the drive again through a full sync, never showing "This folder is empty" on the way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { seedFolder } from '../bench/fixtures.js';
import { localRows, sessionUserId, signUpInBrowser, startE2E, type E2E } from './harness.js';

const FILES = 40;
const EMPTY = 'This folder is empty';

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e?.close());

const syncMarks = (page: Page, userId: string) =>
  page.evaluate((uid) => JSON.parse(localStorage.getItem(`haul.sync.${uid}`) ?? '{}') as { since?: string; fullAt?: number; folders?: Record<string, true> }, userId);

/** Whether "This folder is empty" was on the page at any moment since it loaded (recorded by the init script). */
const sawEmpty = (page: Page) => page.evaluate(() => (window as unknown as { sawEmpty: boolean }).sawEmpty);

/** Runs in the page: deletes the database, then makes `bogus` of it if given. */
function replaceDrive(page: Page, bogus: { version: number; stores: string[] } | null) {
  return page.evaluate(
    (b) =>
      new Promise<void>((resolve, reject) => {
        const del = indexedDB.deleteDatabase('drive');
        del.onerror = () => reject(del.error);
        del.onsuccess = () => {
          if (!b) return resolve();
          const open = indexedDB.open('drive', b.version);
          open.onupgradeneeded = () => b.stores.forEach((s) => open.result.createObjectStore(s, { keyPath: 'id' }));
          open.onsuccess = () => (open.result.close(), resolve());
          open.onerror = () => reject(open.error);
        };
      }),
    bogus,
  );
}

describe('a local copy that is gone or unreadable', () => {
  it('falls back to a full sync after a reload, listing the files with no empty folder shown', async () => {
    const { page, context } = await e2e.newPage();
    await context.addInitScript((text) => {
      const w = window as unknown as { sawEmpty: boolean };
      w.sawEmpty = false;
      new MutationObserver(() => {
        if (document.body?.textContent?.includes(text)) w.sawEmpty = true;
      }).observe(document, { subtree: true, childList: true, characterData: true });
    }, EMPTY);
    await signUpInBrowser(page);
    const userId = await sessionUserId(page);
    const folderId = await seedFolder(e2e.haul.ctx.db, userId, 'Kept', FILES);

    // Synced once: the folder opened, the whole drive stored, the marks say so.
    await page.goto(`/drive/all/${folderId}`);
    await page.locator('[data-item]').first().waitFor();
    await expect.poll(() => syncMarks(page, userId), { timeout: 30_000 }).toMatchObject({ fullAt: expect.any(Number), folders: { [folderId]: true } });
    await expect.poll(() => localRows(page, userId), { timeout: 30_000 }).toBe(FILES + 1);

    // A reload with the copy intact lists from it (the marks are trusted once the database is open).
    await page.reload();
    await expect.poll(() => page.locator('[data-item]').count(), { timeout: 30_000 }).toBe(FILES);
    expect(await sawEmpty(page)).toBe(false);

    const cases = [
      { label: 'deleted', bogus: null },
      { label: 'of a later version', bogus: { version: 900, stores: ['files'] } },
      { label: 'lacking stores', bogus: { version: 80, stores: ['chunks'] } },
    ];
    for (const { label, bogus } of cases) {
      // From a page of the same origin that is not the app (no running app opens the database again before the
      // visit), as a browser drops site data between two visits.
      await page.goto('/healthz');
      const before = await syncMarks(page, userId);
      expect(before, label).toMatchObject({ since: expect.any(String), fullAt: expect.any(Number), folders: { [folderId]: true } });
      await replaceDrive(page, bogus);
      // localStorage still says the drive is synced.
      expect(await syncMarks(page, userId), label).toEqual(before);

      await page.goto('/drive/all');
      // All files lists the folder again, then the folder its files; "empty" never showed.
      await page.locator('[data-item]', { hasText: 'Kept' }).first().waitFor({ timeout: 30_000 });
      expect(await sawEmpty(page), label).toBe(false);
      await page.goto(`/drive/all/${folderId}`);
      await expect.poll(() => page.locator('[data-item]').count(), { timeout: 30_000 }).toBe(FILES);
      expect(await sawEmpty(page), label).toBe(false);
      // A new full sync ran and stored the drive in a database this build reads.
      await expect.poll(async () => (await syncMarks(page, userId)).fullAt ?? 0, { timeout: 30_000 }).toBeGreaterThan(before.fullAt!);
      await expect.poll(() => localRows(page, userId), { timeout: 30_000 }).toBe(FILES + 1);
      expect(await page.evaluate(() => indexedDB.databases().then((d) => d.find((x) => x.name === 'drive')?.version)), label).toBe(80);
    }
  });
});
