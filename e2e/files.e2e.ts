/** The file manager end to end: folders, rename, move, copy, star, trash and restore, Details, isolation between accounts. */
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createFolder as makeFolder } from '../apps/server/src/files/files.service.js';
import { addNew, listView, newEmail, PASSWORD, rowNames, sessionUserId, signUpInBrowser, startE2E, uploadStatus, type E2E } from './harness.js';

// A link origin for a cloud download: every path answers the same few bytes.
const origin = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/octet-stream' }).end('release notes'));

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
  await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
});
afterAll(async () => {
  origin.close();
  await e2e?.close();
});

const item = (page: Page, name: string) => page.getByRole('row', { name, exact: true });

async function createFolder(page: Page, name: string) {
  await addNew(page, 'New folder');
  const input = page.getByRole('dialog').getByLabel('Name');
  await input.fill(name);
  await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
  await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
}

describe('file manager', () => {
  it('signs up, builds a folder tree, renames, moves, copies, stars, trashes and restores', async () => {
    const { page } = await e2e.newPage();
    await signUpInBrowser(page);
    await expect.poll(() => page.getByText('This folder is empty').count()).toBe(1);

    await createFolder(page, 'Projects');
    await createFolder(page, 'Archive');
    await listView(page);
    await expect.poll(() => rowNames(page)).toEqual(expect.arrayContaining(['Projects', 'Archive']));

    // Open Projects and make a child folder there.
    await item(page, 'Projects').dblclick();
    await page.waitForURL(/\/drive\/all\/[\w-]+$/);
    await expect.poll(() => page.getByRole('heading', { name: 'Projects' }).count()).toBe(1);
    await createFolder(page, 'Draft');
    await expect.poll(() => rowNames(page)).toEqual(['Draft']);

    // A clashing name gets the four-hex-digit suffix instead of failing.
    await createFolder(page, 'Draft');
    await expect.poll(() => rowNames(page)).toHaveLength(2);
    expect((await rowNames(page)).some((n) => /^Draft \([0-9A-F]{4}\)$/.test(n))).toBe(true);

    // Rename with F2.
    await item(page, 'Draft').click();
    await page.keyboard.press('F2');
    await page.getByRole('dialog').getByLabel('Name').fill('Final');
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => rowNames(page)).toContain('Final');

    // Move Final to Archive through the folder picker.
    await item(page, 'Final').click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Move to…' }).click();
    await page.getByRole('dialog').getByRole('option', { name: 'Archive' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Move here' }).click();
    await expect.poll(() => rowNames(page)).not.toContain('Final');

    // Breadcrumb back to All files, copy Archive into Projects.
    await page.getByRole('navigation', { name: 'Folder path' }).getByRole('link', { name: 'All files' }).click();
    await page.waitForURL('**/drive/all');
    await item(page, 'Archive').click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Copy to…' }).click();
    await page.getByRole('dialog').getByRole('option', { name: 'Projects' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Copy here' }).click();
    await item(page, 'Projects').dblclick();
    await expect.poll(() => rowNames(page)).toContain('Archive');
    await item(page, 'Archive').dblclick();
    await expect.poll(() => rowNames(page)).toEqual(['Final']);

    // Star from the selection bar (on a desktop the context menu leaves star to it, seed 000 §2); the star view lists
    // it, and unstarring there drops it.
    await page.goto('/drive/all');
    await listView(page);
    await item(page, 'Projects').click({ button: 'right' });
    expect(await page.getByRole('menuitem', { name: 'Star', exact: true }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await page.getByRole('toolbar', { name: 'Selection' }).getByRole('button', { name: 'Star', exact: true }).click();
    await page.getByRole('link', { name: 'Starred' }).click();
    await expect.poll(() => rowNames(page)).toEqual(['Projects']);
    await item(page, 'Projects').click();
    await page.getByRole('toolbar', { name: 'Selection' }).getByRole('button', { name: 'Unstar' }).click();
    await expect.poll(() => page.getByText('Nothing starred yet').count()).toBe(1);

    // Trash with the Delete key, restore from the trash.
    await page.getByRole('link', { name: 'All files' }).click();
    await item(page, 'Archive').click();
    await page.keyboard.press('Delete');
    await expect.poll(() => rowNames(page)).toEqual(['Projects']);
    await page.getByRole('link', { name: 'Trash' }).click();
    await expect.poll(() => rowNames(page)).toEqual(['Archive']);
    await expect.poll(() => page.getByText(/days? left/).count()).toBe(1);
    await item(page, 'Archive').click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Restore' }).click();
    await expect.poll(() => page.getByText('The trash is empty').count()).toBeGreaterThan(0);
    await page.getByRole('link', { name: 'All files' }).click();
    await expect.poll(() => rowNames(page)).toEqual(expect.arrayContaining(['Projects', 'Archive']));

    // Trash again, then empty the trash: gone for good.
    await item(page, 'Archive').click();
    await page.keyboard.press('Delete');
    await page.getByRole('link', { name: 'Trash' }).click();
    await expect.poll(() => rowNames(page)).toEqual(['Archive']);
    await page.getByRole('button', { name: 'Empty trash' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Empty trash' }).click();
    await expect.poll(() => page.getByText('The trash is empty').count()).toBeGreaterThan(0);

    // A reload keeps the session.
    await page.reload();
    await expect.poll(() => page.getByRole('heading', { name: 'Trash', exact: true }).count()).toBe(1);
    expect(page.url()).toMatch(/\/drive\/trash$/);
  });

  it('drops the finished upload of a file from the transfer list when the file is deleted', async () => {
    const { page } = await e2e.newPage();
    await signUpInBrowser(page);
    await listView(page);
    await page.getByTestId('upload-files').setInputFiles([
      { name: 'kept.txt', mimeType: 'text/plain', buffer: Buffer.from('kept') },
      { name: 'gone.txt', mimeType: 'text/plain', buffer: Buffer.from('gone') },
    ]);
    await expect.poll(() => uploadStatus(page, 'gone.txt'), { timeout: 20_000 }).toBe('UPLOAD_TASK_COMPLETE');
    await expect.poll(() => uploadStatus(page, 'kept.txt'), { timeout: 20_000 }).toBe('UPLOAD_TASK_COMPLETE');
    await item(page, 'gone.txt').click();
    await page.keyboard.press('Delete');
    await expect.poll(() => rowNames(page)).toEqual(['kept.txt']);
    await expect.poll(() => uploadStatus(page, 'gone.txt')).toBe(null);
    expect(await uploadStatus(page, 'kept.txt')).toBe('UPLOAD_TASK_COMPLETE');
    // Gone from the local database too: a reload does not bring it back.
    await page.reload();
    await expect.poll(() => rowNames(page)).toEqual(['kept.txt']);
    const head = page.locator('.transfer-head');
    if ((await head.getAttribute('aria-expanded')) !== 'true') await head.click();
    expect(await uploadStatus(page, 'kept.txt')).toBe('UPLOAD_TASK_COMPLETE');
    expect(await uploadStatus(page, 'gone.txt')).toBe(null);
  });

  it('keeps each account to its own files, and sends signed-out visitors to sign in and back', async () => {
    const a = await e2e.newPage();
    await signUpInBrowser(a.page);
    await createFolder(a.page, 'Private of A');
    await listView(a.page);
    await item(a.page, 'Private of A').dblclick();
    await a.page.waitForURL(/\/drive\/all\/[\w-]+$/);
    const folderUrl = new URL(a.page.url()).pathname;

    const b = await e2e.newPage();
    await b.page.goto(folderUrl);
    await b.page.waitForURL(/\/drive\/login\?/);
    expect(new URL(b.page.url()).searchParams.get('redirect')).toBe(folderUrl.replace(/^\/drive/, ''));
    const email = newEmail();
    await b.page.getByRole('button', { name: 'Create account' }).click();
    await b.page.getByLabel('Email').fill(email);
    await b.page.getByLabel('Password').fill(PASSWORD);
    await b.page.getByRole('button', { name: 'Create account' }).click();
    // Back at the target: A's folder is not B's, so it does not exist for B.
    await b.page.waitForURL(`**${folderUrl}`);
    await expect.poll(() => b.page.getByText('This folder does not exist').count()).toBe(1);
    await b.page.goto('/drive/all');
    await expect.poll(() => b.page.getByText('This folder is empty').count()).toBe(1);
  });

  it('shows in Details where an item is, as links, and the link a cloud download came from, to copy', async () => {
    const { page, context } = await e2e.newPage();
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await signUpInBrowser(page);
    const uid = await sessionUserId(page);
    const downloads = await makeFolder(e2e.haul.ctx, uid, '', 'Downloads');
    const linux = await makeFolder(e2e.haul.ctx, uid, downloads.id, 'Linux');
    const link = `http://127.0.0.1:${(origin.address() as { port: number }).port}/pub/notes.txt?mirror=1`;
    await page.goto(`/drive/all/${linux.id}`);
    await addNew(page, 'Cloud download');
    await page.getByLabel('Links').fill(link);
    await page.getByRole('button', { name: 'Download', exact: true }).click();
    await listView(page);
    await expect.poll(() => rowNames(page), { timeout: 30_000 }).toEqual(['notes.txt']);

    await item(page, 'notes.txt').click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Details' }).click();
    const dialog = page.getByRole('dialog', { name: 'Details' });
    const path = dialog.getByRole('navigation', { name: 'Location' });
    await expect.poll(() => path.getByRole('link').allTextContents()).toEqual(['All files', 'Downloads', 'Linux']);
    // The source is text to copy, not a link to follow.
    expect(await dialog.getByTestId('details-source').textContent()).toBe(link);
    expect(await dialog.locator('a[href^="http"]').count()).toBe(0);
    await dialog.getByRole('button', { name: 'Copy source link' }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(link);

    // A step of the path opens that folder, with the way to the item selected.
    await path.getByRole('link', { name: 'Downloads' }).click();
    await page.waitForURL(`**/drive/all/${downloads.id}`);
    expect(await page.getByRole('dialog').count()).toBe(0);
    await expect.poll(() => page.locator('[role=row][aria-selected=true]').getAttribute('aria-label')).toBe('Linux');

    // An uploaded file has no source; one at the top is in All files.
    await e2e.seedFile(uid, '', 'mine.txt', 'x');
    await page.goto('/drive/all');
    await item(page, 'mine.txt').click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Details' }).click();
    await expect.poll(() => path.getByRole('link').allTextContents()).toEqual(['All files']);
    expect(await dialog.getByText('Source').count()).toBe(0);
  });
});
