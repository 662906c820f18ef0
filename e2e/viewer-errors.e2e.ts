/** The viewer's error popups in Chromium: the network failing (1002), a file trashed meanwhile (9), a format the browser cannot play. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createFolder } from '../apps/server/src/files/files.service.js';
import { trashFiles } from '../apps/server/src/files/trash.service.js';
import { type E2E, listView, rowNames, sessionUserId, signUpInBrowser, startE2E, viewer } from './harness.js';
import { ff, requireFfmpeg } from './media-fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'haul-e2e-errors-'));

let e2e: E2E;
beforeAll(async () => {
  requireFfmpeg();
  ff('-f', 'lavfi', '-i', 'testsrc=size=640x480:rate=1', '-frames:v', '1', join(dir, 'photo.jpg'));
  e2e = await startE2E();
}, 120_000);
afterAll(async () => {
  await e2e?.close();
  rmSync(dir, { recursive: true, force: true });
});

const popup = (page: Page) => viewer(page).getByRole('alert');

describe('viewer error popups', () => {
  it('says when the network fails, when the file went to the trash, and when the browser cannot play it', async () => {
    const { page } = await e2e.newPage();
    await signUpInBrowser(page);
    const userId = await sessionUserId(page);
    const folder = await createFolder(e2e.haul.ctx, userId, '', 'Errors');
    const photo = readFileSync(join(dir, 'photo.jpg')) as unknown as string;
    await e2e.seedFile(userId, folder.id, 'a.jpg', photo);
    const trashed = await e2e.seedFile(userId, folder.id, 'b.jpg', photo);
    // Bytes no decoder reads, under an audio name.
    await e2e.seedFile(userId, folder.id, 'broken.mp3', Buffer.alloc(4096, 7));
    await e2e.seedFile(userId, folder.id, 'c.jpg', photo);
    await page.goto(`/drive/all/${folder.id}`);
    await listView(page);
    await page.getByRole('button', { name: 'Sort' }).click();
    await page.getByRole('menuitemradio', { name: 'Name (A to Z)' }).click();
    await expect.poll(() => rowNames(page)).toEqual(['a.jpg', 'b.jpg', 'broken.mp3', 'c.jpg']);

    // The photo's bytes never arrive: the network popup (1002) with retry and next.
    const cut = (url: URL) => /\/drive\/v1\/(content|thumbnails|media)\//.test(url.pathname);
    await page.route(cut, (route) => route.abort('internetdisconnected'));
    await page.getByRole('row', { name: 'a.jpg' }).dblclick();
    await expect
      .poll(() => popup(page).getByRole('heading').textContent())
      .toBe('Failed to load, please check your network and try again.');
    await popup(page).getByText('Error code: 1002').waitFor();
    expect(await popup(page).getByRole('button').allTextContents()).toEqual(['Retry', 'Next file']);
    // Back online, retry shows it.
    await page.unroute(cut);
    await popup(page).getByRole('button', { name: 'Retry' }).click();
    const img = viewer(page).getByRole('img', { name: 'a.jpg' });
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth).catch(() => 0)).toBe(640);
    expect(await popup(page).count()).toBe(0);

    // Trashed elsewhere while the viewer is open: "deleted" (error_code 9) with next and retry.
    await trashFiles(e2e.haul.ctx, userId, [trashed.id]);
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => viewer(page).getByTestId('viewer-count').textContent()).toBe('2 / 4');
    await expect.poll(() => popup(page).getByRole('heading').textContent()).toBe('This file has been deleted.');
    await popup(page).getByText('Error code: 9').waitFor();
    expect(await popup(page).getByRole('button').allTextContents()).toEqual(['Next file', 'Retry']);

    // Bytes that are no audio at all: the browser cannot play it; a player on the computer, download, next.
    await popup(page).getByRole('button', { name: 'Next file' }).click();
    await expect.poll(() => viewer(page).getByTestId('viewer-count').textContent()).toBe('3 / 4');
    await expect
      .poll(() => popup(page).getByRole('heading').textContent(), { timeout: 15_000 })
      .toBe('The browser cannot play this audio.');
    expect(
      await popup(page)
        .getByText(/^Error code/)
        .count(),
    ).toBe(0);
    expect(await popup(page).getByRole('button').allTextContents()).toEqual(['Open in a player on this computer', 'Download', 'Next file']);
    await popup(page).getByRole('button', { name: 'Open in a player on this computer' }).click();
    await page.getByRole('button', { name: 'Other player' }).waitFor();
  }, 120_000);
});
