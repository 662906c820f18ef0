/**
 * WebDAV from the account area: the page shows the address, makes an app password shown once, and a WebDAV client
 * (here the test process) puts a file with it that then appears in the drive; revoked after a confirmation, the same
 * password is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromAccountMenu, listView, rowNames, PASSWORD, signUpInBrowser, startE2E, type E2E } from './harness.js';

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
}, 60_000);
afterAll(() => e2e?.close());

describe('WebDAV', () => {
  it('makes an app password a WebDAV client uses to put a file into the drive, until it is revoked', async () => {
    const { page } = await e2e.newPage();
    const email = await signUpInBrowser(page);
    await fromAccountMenu(page, 'WebDAV');
    await expect.poll(() => page.getByLabel('WebDAV address', { exact: true }).textContent()).toBe(`${e2e.base}/dav/`);
    await expect.poll(() => page.getByLabel('User name', { exact: true }).textContent()).toBe(email);

    await page.getByLabel('Device or app').fill('E2E laptop');
    // A lasting way in: the password first.
    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Make app password' }).click();
    const shown = page.getByLabel('New app password', { exact: true });
    await shown.waitFor();
    const password = (await shown.textContent())!;
    expect(password).toMatch(/^([a-z2-9]{4}-){6}[a-z2-9]{4}$/);
    await page.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => shown.count()).toBe(0);

    const auth = `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`;
    const put = await fetch(`${e2e.base}/dav/${encodeURIComponent('Über WebDAV.txt')}`, { method: 'PUT', headers: { authorization: auth }, body: 'sent by a WebDAV client' });
    expect(put.status).toBe(201);

    await page.goto('/drive/all');
    await listView(page);
    await expect.poll(() => rowNames(page)).toContain('Über WebDAV.txt');

    await fromAccountMenu(page, 'WebDAV');
    await page.getByRole('button', { name: 'Revoke E2E laptop' }).click();
    await page.getByRole('group', { name: /Revoke “E2E laptop”/ }).getByRole('button', { name: 'Revoke', exact: true }).click();
    await page.getByText('No app passwords yet.').waitFor();
    const refused = await fetch(`${e2e.base}/dav/`, { method: 'PROPFIND', headers: { authorization: auth, depth: '0' } });
    expect(refused.status).toBe(401);
  });
});
