/** Cloud decompression in the browser: open a password-protected zip, get the password wrong then right, unpack, find the files. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFolder } from '../apps/server/src/files/files.service.js';
import { disabledUntilReleased, holdRequests, listView, rowNames, sessionUserId, signUpInBrowser, startE2E, type E2E } from './harness.js';

let e2e: E2E;
const dir = mkdtempSync(join(tmpdir(), 'haul-e2e-zip-'));
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(async () => {
  await e2e.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A zip with a password, made by Debian's zip (missing: the install step is named, the test is not skipped). */
function protectedZip(): Buffer {
  writeFileSync(join(dir, 'notes.txt'), 'meeting at noon\n');
  writeFileSync(join(dir, 'plan.md'), '# the plan\n');
  try {
    execFileSync('zip', ['-q', '-P', 'open sesame', 'secret.zip', 'notes.txt', 'plan.md'], { cwd: dir });
  } catch (err) {
    throw new Error(`This test needs Debian's zip: apt-get install zip (${(err as Error).message})`);
  }
  return readFileSync(join(dir, 'secret.zip'));
}

describe('cloud decompression', () => {
  it('opens a protected zip, refuses a wrong password, unpacks with the right one, and the files are in the drive', async () => {
    const { page } = await e2e.newPage();
    await signUpInBrowser(page);
    const archive = await e2e.seedFile(await sessionUserId(page), '', 'secret.zip', protectedZip());
    await page.reload();
    await listView(page);
    await page.getByRole('row', { name: 'secret.zip' }).dblclick();
    await page.waitForURL(`**/drive/decompression/${archive.id}`);

    await expect.poll(() => page.getByText('This archive is protected').count()).toBe(1);
    await page.getByLabel('Password').fill('wrong guess');
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    // The listing of a zip is open: the entries show, each with its lock.
    await expect.poll(() => page.getByRole('treeitem').count()).toBe(2);
    await expect.poll(() => page.getByText('Encrypted').count()).toBe(2);
    await page.getByRole('button', { name: 'Unpack 2 files' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Wrong password');

    await page.getByLabel('Password').fill('open sesame');
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await page.getByRole('button', { name: 'Unpack 2 files' }).click();
    await page.waitForURL(`**/drive/decompression/${archive.id}/result?task=*`);
    await expect.poll(() => page.getByRole('status').textContent(), { timeout: 20_000 }).toContain('Unpacked 2 files');
    // The task is in the transfer list too, saying it unpacked (not "Transferred", as the archive's download would).
    const row = page.getByRole('listitem', { name: 'secret.zip' });
    await expect.poll(() => row.count()).toBeGreaterThan(0);
    await expect.poll(() => row.locator('[data-status]').first().textContent()).toBe('Unpacked');

    await page.getByRole('link', { name: 'Open folder' }).click();
    await page.waitForURL('**/drive/all/*');
    await listView(page);
    await expect.poll(() => rowNames(page)).toEqual(expect.arrayContaining(['notes.txt', 'plan.md']));
    const root = await e2e.haul.ctx.db.selectFrom('files').select('name').where('parent_id', '=', '').execute();
    expect(root.map((r) => r.name).sort()).toEqual(['secret', 'secret.zip']);
  });

  it("unpacks into the archive's own folder once it knows which that is", async () => {
    const { page } = await e2e.newPage();
    await signUpInBrowser(page);
    const userId = await sessionUserId(page);
    const trips = await createFolder(e2e.haul.ctx, userId, '', 'Trips');
    const archive = await e2e.seedFile(userId, trips.id, 'secret.zip', protectedZip());
    // The archive's own details come late (a slow network): its folder is not known until they do.
    const release = await holdRequests(page, `/drive/v1/files/${archive.id}`);
    await page.goto(`/drive/decompression/${archive.id}`);
    await page.getByLabel('Password').fill('open sesame');
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await page.getByRole('radio', { name: "The archive's folder" }).check();
    const unpack = page.getByRole('button', { name: 'Unpack 2 files' });
    await disabledUntilReleased(unpack, release);
    await unpack.click();
    await expect.poll(() => page.getByRole('status').textContent(), { timeout: 20_000 }).toContain('Unpacked 2 files');
    const landed = await e2e.haul.ctx.db.selectFrom('files').select(['name', 'parent_id']).where('name', 'in', ['notes.txt', 'plan.md']).where('user_id', '=', userId).execute();
    expect(landed.map((r) => r.parent_id)).toEqual([trips.id, trips.id]);
  });

  it('opens a RAR5 with encrypted headers after the password, and unpacks two of its entries', async () => {
    const { page } = await e2e.newPage();
    await signUpInBrowser(page);
    const rar = readFileSync(join(import.meta.dirname, '../apps/server/test/fixtures/archives/Rar5.encrypted_filesAndHeader.rar'));
    const archive = await e2e.seedFile(await sessionUserId(page), '', 'locked.rar', rar);
    await page.goto(`/drive/decompression/${archive.id}`);
    // Even the listing needs the password.
    await expect.poll(() => page.getByText('This archive is protected').count()).toBe(1);
    await page.getByLabel('Password').fill('test');
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await page.getByRole('checkbox', { name: 'Select all' }).uncheck();
    await page.getByRole('checkbox', { name: 'test.jpg' }).check();
    await page.getByRole('checkbox', { name: 'тест.txt' }).check();
    await page.getByRole('button', { name: 'Unpack 2 files' }).click();
    await expect.poll(() => page.getByRole('status').textContent(), { timeout: 20_000 }).toContain('Unpacked 2 files');
    await page.getByRole('link', { name: 'Open folder' }).click();
    await page.waitForURL('**/drive/all/*');
    await listView(page);
    await expect.poll(() => rowNames(page)).toEqual(expect.arrayContaining(['jpg', 'тест.txt']));
    await page.getByRole('row', { name: 'jpg' }).dblclick();
    await expect.poll(() => rowNames(page)).toEqual(['test.jpg']);
  });
});
