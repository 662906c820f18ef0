/**
 * Deleting an account in the browser: the page counts what would go, refuses a wrong password in place, keeps what was
 * typed through a network failure, and deletes with the right password and a ticked box. The browser then forgets the
 * account and says so on the sign-in page; the old credentials no longer sign in, and the address starts over with an
 * empty drive. The last administrator is told why not, and offered no button.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../apps/server/src/accounts/accounts.service.js';
import { createFolder } from '../apps/server/src/files/files.service.js';
import { createShare } from '../apps/server/src/shares/shares.service.js';
import { PASSWORD, listView, localRows, newEmail, rowNames, sessionUserId, signUpInBrowser, startE2E, type E2E } from './harness.js';

const focused = (l: Locator) => l.evaluate((el) => el === document.activeElement);

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
}, 60_000);
afterAll(() => e2e?.close());

async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/drive/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

const liveUser = (id: string) =>
  e2e.haul.ctx.db.selectFrom('users').select('id').where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();

describe('account deletion', () => {
  it('shows what goes, refuses a wrong password in place, and deletes with the right one', async () => {
    const { page } = await e2e.newPage();
    const email = await signUpInBrowser(page);
    const uid = await sessionUserId(page);
    const trips = await createFolder(e2e.haul.ctx, uid, '', 'Trips');
    await e2e.seedFile(uid, trips.id, 'notes.txt', 'hello world');
    const todo = await e2e.seedFile(uid, '', 'todo.txt', 'bye');
    await createShare(e2e.haul.ctx, uid, { fileIds: [todo.id], kind: 'publiclink', expirationDays: -1 });
    await page.goto('/drive/all');
    await listView(page);
    await expect.poll(() => rowNames(page)).toContain('todo.txt');
    expect(await localRows(page, uid)).toBeGreaterThan(0);

    // Reached from the account menu; the account pages link to each other.
    await page.getByRole('button', { name: 'Account' }).click();
    await page.getByRole('menuitem', { name: 'Delete account' }).click();
    await page.waitForURL('**/drive/account/destroy');
    const nav = page.getByRole('navigation', { name: 'Account' });
    expect(await nav.getByRole('link', { name: 'Delete account' }).getAttribute('aria-current')).toBe('page');
    await nav.getByRole('link', { name: 'Change password' }).click();
    await page.getByRole('heading', { name: 'Change password' }).waitFor();
    await nav.getByRole('link', { name: 'Delete account' }).click();
    await page.getByRole('heading', { name: 'Delete account' }).waitFor();

    // What goes, from the server's count, before anything is asked.
    const list = page.locator('.deletion-list li');
    await expect.poll(() => list.allTextContents()).toEqual([
      '2 files and 1 folder (14 B), the trash included',
      '1 share link',
      '0 cloud downloads in progress',
    ]);
    await page.getByText('Everything is deleted and cannot be undone. Share links stop working at once.').waitFor();

    const password = page.getByLabel('Current password');
    const understand = page.getByRole('checkbox', { name: 'I understand that my account and everything in it will be deleted for good.' });
    const destroy = page.getByRole('button', { name: 'Delete account' });

    // The box must be ticked; then a wrong password is refused at its field, everything else kept.
    await password.fill('not my password');
    await destroy.click();
    await page.getByRole('alert').filter({ hasText: 'Tick the box to confirm.' }).waitFor();
    expect(await focused(understand)).toBe(true);
    await understand.check();
    await destroy.click();
    await page.getByRole('alert').filter({ hasText: 'The password is incorrect.' }).waitFor();
    expect(await password.getAttribute('aria-invalid')).toBe('true');
    expect(await focused(password)).toBe(true);
    expect(await understand.isChecked()).toBe(true);
    expect(await liveUser(uid)).toBeDefined();

    // The network fails as the deletion is sent: the button waits meanwhile, and what was typed stays.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/v1/user/me/deletion', async (route) => {
      await held;
      await route.abort();
    });
    await password.fill(PASSWORD);
    await destroy.click();
    await expect.poll(() => destroy.isDisabled()).toBe(true);
    release();
    await page.getByRole('alert').filter({ hasText: 'Could not reach the server' }).waitFor();
    expect([await password.inputValue(), await understand.isChecked(), await destroy.isDisabled()]).toEqual([PASSWORD, true, false]);
    expect(await liveUser(uid)).toBeDefined();
    await page.unroute('**/v1/user/me/deletion');

    // Deleted: the sign-in page says so, and this browser keeps nothing of the account.
    await destroy.click();
    await page.waitForURL((url) => url.pathname === '/drive/login' && url.search === '');
    await page.getByText('Your account has been deleted').waitFor();
    expect(await liveUser(uid)).toBeUndefined();
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('haul.session') ?? '{}').state?.session ?? null)).toBeNull();
    expect(await localRows(page, uid)).toBe(0);

    // The old credentials no longer sign in.
    await signIn(page, email, PASSWORD);
    await page.getByRole('alert').filter({ hasText: 'The email or password is incorrect.' }).waitFor();

    // The address is free at once: a new account, with an empty drive.
    await signUpInBrowser(page, email);
    expect(await sessionUserId(page)).not.toBe(uid);
    await page.getByRole('status').filter({ hasText: 'This folder is empty' }).waitFor();
    expect(await rowNames(page)).toEqual([]);
  });

  it('tells the last administrator why the account cannot go, and offers no button', async () => {
    const email = newEmail();
    await createUser(e2e.haul.ctx, { email, password: PASSWORD, isAdmin: true });
    const { page } = await e2e.newPage();
    await signIn(page, email, PASSWORD);
    await page.waitForURL('**/drive/all');
    await page.goto('/drive/account/destroy');
    await page.getByRole('heading', { name: 'Your account cannot be deleted now' }).waitFor();
    await page.getByText('This is the only administrator account on this server.', { exact: false }).waitFor();
    expect(await page.getByRole('button', { name: 'Delete account' }).count()).toBe(0);
    expect(await page.getByLabel('Current password').count()).toBe(0);
  });
});
