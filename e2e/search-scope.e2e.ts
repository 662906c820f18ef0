/** Searching inside a folder (and widening to all files), kept in the address; platform tags and their icons. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFolder } from '../apps/server/src/files/files.service.js';
import { listView, rowNames, sessionUserId, signUpInBrowser, startE2E, type E2E } from './harness.js';

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(async () => {
  await e2e?.close();
});

describe('search scope', () => {
  it('searches the folder it starts in by default, widens to all files, and keeps the choice on reload and back', async () => {
    const { page } = await e2e.newPage();
    await signUpInBrowser(page);
    const userId = await sessionUserId(page);
    const top = await createFolder(e2e.haul.ctx, userId, '', 'Projects');
    const deep = await createFolder(e2e.haul.ctx, userId, top.id, 'Notes');
    await e2e.seedFile(userId, deep.id, 'report-nested.txt', 'a');
    await e2e.seedFile(userId, top.id, 'report-top.txt', 'b');
    const outside = await e2e.seedFile(userId, '', 'report-outside.mp4', 'c');
    await e2e.haul.ctx.db.updateTable('files').set({ params: JSON.stringify({ platform: 'youtube', url: 'https://youtu.be/x' }) }).where('id', '=', outside.id).execute();

    await page.goto(`/drive/all/${top.id}`);
    await page.getByLabel('Search your files').fill('report');
    await page.getByLabel('Search your files').press('Enter');
    const thisFolder = page.getByRole('group', { name: 'Where to search' }).getByRole('button', { name: 'This folder' });
    const allFiles = page.getByRole('group', { name: 'Where to search' }).getByRole('button', { name: 'All files' });
    await expect.poll(() => thisFolder.getAttribute('aria-pressed')).toBe('true');
    await listView(page);
    await expect.poll(async () => (await rowNames(page)).sort()).toEqual(['report-nested.txt', 'report-top.txt']);
    expect(new URL(page.url()).searchParams.get('folder_id')).toBe(top.id);

    await allFiles.click();
    await expect.poll(async () => (await rowNames(page)).sort()).toEqual(['report-nested.txt', 'report-outside.mp4', 'report-top.txt']);
    expect(await allFiles.getAttribute('aria-pressed')).toBe('true');
    // The seeds' type order is in the sort menu: extension Z to A, then name.
    await page.getByRole('button', { name: 'Sort' }).click();
    await page.getByRole('menuitemradio', { name: 'Type (Z to A)' }).click();
    await expect.poll(() => rowNames(page)).toEqual(['report-nested.txt', 'report-top.txt', 'report-outside.mp4']);
    await page.keyboard.press('Escape');
    await page.reload();
    await expect.poll(async () => (await rowNames(page)).sort()).toEqual(['report-nested.txt', 'report-outside.mp4', 'report-top.txt']);
    await expect.poll(() => allFiles.getAttribute('aria-pressed')).toBe('true');
    await page.goBack();
    await expect.poll(() => thisFolder.getAttribute('aria-pressed')).toBe('true');
    await expect.poll(async () => (await rowNames(page)).sort()).toEqual(['report-nested.txt', 'report-top.txt']);

    // Where files came from: a tag with its icon filters on it; the file's details show it.
    await allFiles.click();
    const youtube = page.getByRole('group', { name: 'Came from' }).getByRole('button', { name: 'YouTube' });
    expect(await youtube.locator('svg[data-tag-icon="youtube"]').count()).toBe(1);
    await youtube.click();
    await expect.poll(() => rowNames(page)).toEqual(['report-outside.mp4']);
    expect(new URL(page.url()).searchParams.get('platform')).toBe('youtube');
    await page.getByRole('group', { name: 'Came from' }).getByRole('button', { name: 'Uploads' }).click();
    await expect.poll(async () => (await rowNames(page)).sort()).toEqual(['report-nested.txt', 'report-top.txt']);
    await page.getByRole('row', { name: 'report-top.txt' }).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Details' }).click();
    await expect.poll(() => page.getByTestId('details-platform').textContent()).toBe('Uploaded');
  });

  it('refuses to search a folder of another account from a copied address', async () => {
    const a = await e2e.newPage();
    await signUpInBrowser(a.page);
    const owner = await sessionUserId(a.page);
    const theirs = await createFolder(e2e.haul.ctx, owner, '', 'Private');
    await e2e.seedFile(owner, theirs.id, 'secret-report.txt', 's');
    const b = await e2e.newPage();
    await signUpInBrowser(b.page);
    await b.page.goto(`/drive/all?action=search&name=report&entry_folder_id=${theirs.id}&folder_id=${theirs.id}`);
    await b.page.getByText('This folder does not exist').waitFor();
    expect(await b.page.getByText('secret-report.txt').count()).toBe(0);
  });
});
