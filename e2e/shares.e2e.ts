/** Sharing from the browser: share a folder with a pass code, open it as a stranger on a phone, download, sign up and save it. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFolder } from '../apps/server/src/files/files.service.js';
import { type E2E, listView, rowNames, sessionUserId, signUpInBrowser, startE2E } from './harness.js';

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(async () => {
  await e2e?.close();
});

describe('share links', () => {
  it('shares a folder with a pass code; a visitor opens it, downloads a file, signs up and saves it to their drive', async () => {
    const { page: owner, context } = await e2e.newPage();
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await signUpInBrowser(owner);
    const ownerId = await sessionUserId(owner);
    const trip = await createFolder(e2e.haul.ctx, ownerId, '', 'Trip');
    await e2e.seedFile(ownerId, trip.id, 'notes.txt', 'packing list: tent, stove');
    await e2e.seedFile(ownerId, trip.id, 'route.gpx', '<gpx/>');
    await e2e.seedFile(ownerId, '', 'private.txt', 'not shared');
    await owner.reload();
    await listView(owner);
    await expect.poll(() => rowNames(owner)).toContain('Trip');

    await owner.getByRole('row', { name: 'Trip' }).click();
    await owner.getByRole('toolbar', { name: 'Selection' }).getByRole('button', { name: 'Share', exact: true }).click();
    await expect.poll(() => owner.getByRole('radio', { name: 'People with the link and the pass code' }).isChecked()).toBe(true);
    await owner.getByLabel('Valid for').selectOption('7');
    await owner.getByRole('button', { name: 'Create link' }).click();
    const link = await owner.getByLabel('Link', { exact: true }).inputValue();
    const code = (await owner.getByTestId('pass-code').textContent())!;
    expect(link).toMatch(new RegExp(`^${e2e.base}/s/[a-z0-9]{20}$`));
    expect(code).toMatch(/^[a-z0-9]{4}$/);
    await owner.getByRole('button', { name: 'Copy link and pass code' }).click();
    await owner.getByText('Copied.', { exact: false }).waitFor();
    const copied = await owner.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(`Trip\nLink: ${link}\nPass code: ${code}`);
    await owner.keyboard.press('Escape');

    // A stranger on a phone, signed out.
    const { page: visitor } = await e2e.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    // Typed as a share code (any case), the share opens too.
    await visitor.goto(`/drive/all?share_code=${link.split('/s/')[1]!.toUpperCase()}`);
    await visitor.waitForURL(link);
    await visitor.getByText('Enter the pass code to open this share').waitFor();
    await visitor.getByLabel('Pass code').fill('zz99');
    await visitor.getByRole('button', { name: 'Open' }).click();
    await visitor.getByRole('alert').getByText('The pass code is incorrect.').waitFor();
    await visitor.getByLabel('Pass code').fill(code.toUpperCase());
    await visitor.getByRole('button', { name: 'Open' }).click();
    await visitor.getByRole('heading', { name: 'Trip' }).waitFor();
    await visitor.getByRole('button', { name: 'Trip', exact: true }).click();
    await visitor.getByRole('button', { name: 'notes.txt', exact: true }).waitFor();
    const names = await visitor.locator('.public-name').allTextContents();
    expect(names).toEqual(['notes.txt', 'route.gpx']);
    expect(await visitor.getByText('private.txt').count()).toBe(0);

    const [download] = await Promise.all([
      visitor.waitForEvent('download'),
      visitor.getByRole('button', { name: 'Download notes.txt' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('notes.txt');
    const chunks: Buffer[] = [];
    for await (const c of (await download.createReadStream())!) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('packing list: tent, stove');

    // Saving needs an account: sign up, come back, and the save dialog carries on.
    await visitor.getByRole('button', { name: 'Save to my drive' }).click();
    await visitor.waitForURL('**/drive/login?**');
    await visitor.getByRole('button', { name: 'Create account' }).click();
    await visitor.getByLabel('Email').fill(`saver${Date.now()}@example.com`);
    await visitor.getByLabel('Password').fill('correct horse battery');
    await visitor.getByRole('button', { name: 'Create account' }).click();
    await visitor.waitForURL(/\/s\/[a-z0-9]{20}/);
    await visitor.getByRole('dialog').getByRole('button', { name: 'Save to “All files”' }).click();
    await visitor.getByText('Saved 1 item to “All files”').waitFor();
    await visitor.goto('/drive/all');
    await listView(visitor);
    await expect.poll(() => rowNames(visitor)).toEqual(['Trip']);
    await visitor.getByRole('row', { name: 'Trip' }).dblclick();
    await expect.poll(async () => (await rowNames(visitor)).sort()).toEqual(['notes.txt', 'route.gpx']);

    // The owner sees the save counted, and cancels the share; the link stops working.
    await owner.goto('/drive/shared');
    const row = owner.getByRole('row', { name: 'Trip' });
    await expect.poll(() => row.getByTestId('saves').textContent()).toBe('1');
    expect(Number(await row.getByTestId('views').textContent())).toBeGreaterThanOrEqual(1);
    expect(await row.getByTestId('expiry').textContent()).toBe('7 days left');
    await row.getByRole('checkbox').check();
    await owner.getByRole('button', { name: 'Cancel 1 share' }).click();
    await owner.getByRole('dialog').getByRole('button', { name: 'Cancel sharing' }).click();
    await expect.poll(() => owner.getByRole('row', { name: 'Trip' }).count()).toBe(0);
    await visitor.goto(link);
    await visitor.getByText('This share was cancelled, or its files were deleted.').waitFor();
  });
});
