/** A first visit straight into a folder of thousands of files: its rows show from the network, and the syncs end with every row stored and listed. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { seedFolder } from '../bench/fixtures.js';
import { localRows, sessionUserId, signUpInBrowser, startE2E, type E2E } from './harness.js';

const FILES = 3000;

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e?.close());

const syncMarks = (page: Page, userId: string) =>
  page.evaluate((uid) => JSON.parse(localStorage.getItem(`haul.sync.${uid}`) ?? '{}') as { fullAt?: number; fullCursor?: unknown }, userId);

describe('first sync of a big folder', () => {
  it('shows the folder opened on a first visit and ends with all its rows stored and listed', async () => {
    const { page: first } = await e2e.newPage();
    await signUpInBrowser(first);
    const userId = await sessionUserId(first);
    const session = await first.evaluate(() => localStorage.getItem('haul.session')!);
    const folderId = await seedFolder(e2e.haul.ctx.db, userId, 'Many', FILES);

    // Another browser profile, signed in, opens the folder's address: the full sync and the folder's start together.
    const { page, context } = await e2e.newPage();
    await context.addInitScript((s) => {
      if (!localStorage.getItem('haul.session')) localStorage.setItem('haul.session', s);
    }, session);
    await page.goto(`/drive/all/${folderId}`);
    await page.locator('[data-item]').first().waitFor();

    await expect.poll(() => syncMarks(page, userId), { timeout: 60_000 }).toMatchObject({ fullAt: expect.any(Number) });
    expect((await syncMarks(page, userId)).fullCursor).toBeUndefined();
    // The folder and its files, each stored once.
    expect(await localRows(page, userId)).toBe(FILES + 1);
    // The listing pages came compressed (brotli, as Chromium asks) and were decoded to the same JSON.
    const listings = await page.evaluate(() =>
      (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
        .filter((e) => e.name.includes('/drive/v1/files?') && e.decodedBodySize > 100_000)
        .map((e) => [e.encodedBodySize, e.decodedBodySize]),
    );
    expect(listings.length).toBeGreaterThan(0);
    for (const [encoded, decoded] of listings) expect(encoded).toBeLessThan(decoded! / 3);
    await expect.poll(() => page.locator('.file-view').getAttribute('aria-rowcount'), { timeout: 30_000 }).toBe(String(FILES));

    // Opened again, the folder lists every row from the local copy.
    await page.reload();
    await expect.poll(() => page.locator('.file-view').getAttribute('aria-rowcount'), { timeout: 30_000 }).toBe(String(FILES));
  });
});
