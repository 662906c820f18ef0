/** Changes that can be taken back from their toast: trash, move (with a way to the folder), rename and star. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createFolder } from '../apps/server/src/files/files.service.js';
import { listView, rowNames, sessionUserId, signUpInBrowser, startE2E, type E2E } from './harness.js';

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
}, 60_000);
afterAll(() => e2e?.close());

/** Clicks a button of the newest toast (the one in front of the stack). */
async function toastButton(page: Page, name: string): Promise<void> {
  const button = page.locator('[data-sonner-toast][data-front="true"]').getByRole('button', { name });
  await button.click();
}

describe('undo from the toast', () => {
  it('takes back a trash, a move, a rename and a star, and opens the folder things were moved to', async () => {
    const { page } = await e2e.newPage();
    await signUpInBrowser(page);
    const uid = await sessionUserId(page);
    const box = await createFolder(e2e.haul.ctx, uid, '', 'Box');
    await e2e.seedFile(uid, '', 'keep.txt', 'keep');
    await page.reload();
    await listView(page);
    await expect.poll(() => rowNames(page)).toEqual(['Box', 'keep.txt']);
    const row = (name: string) => page.getByRole('row', { name, exact: true });

    // Trash, then undo.
    await row('keep.txt').click();
    await page.keyboard.press('Delete');
    await expect.poll(() => rowNames(page)).toEqual(['Box']);
    await toastButton(page, 'Undo');
    await expect.poll(() => rowNames(page)).toEqual(['Box', 'keep.txt']);

    // Rename, then undo.
    await row('keep.txt').click();
    await page.keyboard.press('F2');
    await page.getByRole('dialog').getByLabel('Name').fill('renamed.txt');
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => rowNames(page)).toContain('renamed.txt');
    await toastButton(page, 'Undo');
    await expect.poll(() => rowNames(page)).toEqual(['Box', 'keep.txt']);

    // Star, then undo.
    await row('keep.txt').click();
    await page.getByRole('toolbar', { name: 'Selection' }).getByRole('button', { name: 'Star', exact: true }).click();
    // The toast comes once the star is saved.
    await page.locator('[data-sonner-toast][data-front="true"]').filter({ hasText: 'Starred' }).waitFor();
    expect((await e2e.haul.ctx.db.selectFrom('files').select('star').where('name', '=', 'keep.txt').executeTakeFirstOrThrow()).star).toBe(1);
    await toastButton(page, 'Undo');
    await expect.poll(async () => (await e2e.haul.ctx.db.selectFrom('files').select('star').where('name', '=', 'keep.txt').executeTakeFirstOrThrow()).star).toBe(0);

    // Move by dragging onto the folder, then undo; move again and open the folder from the toast.
    await row('keep.txt').click();
    await row('keep.txt').dragTo(row('Box'));
    await expect.poll(() => rowNames(page)).toEqual(['Box']);
    await toastButton(page, 'Undo');
    await expect.poll(() => rowNames(page)).toEqual(['Box', 'keep.txt']);
    await row('keep.txt').click();
    await row('keep.txt').dragTo(row('Box'));
    await expect.poll(() => rowNames(page)).toEqual(['Box']);
    await toastButton(page, 'Open folder');
    await page.waitForURL(`**/drive/all/${box.id}`);
    await expect.poll(() => rowNames(page)).toEqual(['keep.txt']);
  });
});
