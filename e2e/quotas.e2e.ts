/** Limits in the browser: an upload past the month's allowance opens the limit dialog, and continues once lifted. */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2E, fromAccountMenu, listView, sessionUserId, signUpInBrowser, startE2E, uploadStatus } from './harness.js';

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E({ config: { monthlyUploadBytes: 200_000 } });
});
afterAll(() => e2e?.close());

describe('monthly upload limit', () => {
  it('opens the limit dialog with the benefits, shows the usage, and continues the upload once the limit is lifted', async () => {
    const { page } = await e2e.newPage();
    await signUpInBrowser(page);
    await listView(page);
    await page.getByTestId('upload-files').setInputFiles([{ name: 'first.bin', mimeType: 'application/octet-stream', buffer: randomBytes(150_000) }]);
    await expect.poll(() => uploadStatus(page, 'first.bin'), { timeout: 20_000 }).toBe('UPLOAD_TASK_COMPLETE');

    await page.getByTestId('upload-files').setInputFiles([{ name: 'second.bin', mimeType: 'application/octet-stream', buffer: randomBytes(100_000) }]);
    const dialog = page.getByRole('dialog', { name: 'Monthly upload limit reached' });
    await dialog.waitFor({ timeout: 20_000 });
    await expect.poll(() => dialog.textContent()).toMatch(/146\.5 KB of 195\.3 KB used/);
    const carousel = dialog.getByRole('region', { name: 'What premium adds' });
    // Only what lifting this limit gives: premium uploads have no monthly limit.
    expect(await carousel.getByRole('group').getAttribute('data-benefit')).toBe('infinity_upload');
    expect(await carousel.getByRole('group').getAttribute('aria-label')).toBe('1 of 1');
    const upgrade = await dialog.getByRole('link', { name: 'Upgrade' }).getAttribute('href');
    expect(upgrade).toMatch(/\/payment\?refer_from=file_upload&task_id=\w+/);
    await dialog.getByRole('button', { name: 'Close' }).click();
    expect(await uploadStatus(page, 'second.bin')).toBe('UPLOAD_TASK_FAILED');

    await fromAccountMenu(page, 'Transfer');
    const uploads = page.locator('[data-quota="upload_size_month"]');
    await expect.poll(() => uploads.textContent()).toMatch(/146\.5 KB of 195\.3 KB used/);
    expect(await page.locator('[data-quota="cloud_download"]').textContent()).toMatch(/0 of 100 used/);

    // The operator lifts the limit; the next look at the quotas sees it rise and the upload goes on by itself.
    const userId = await sessionUserId(page);
    await e2e.haul.ctx.db.updateTable('users').set({ premium_expire: Date.now() + 86_400_000 }).where('id', '=', userId).execute();
    await fromAccountMenu(page, 'Storage space');
    await expect.poll(() => uploadStatus(page, 'second.bin'), { timeout: 20_000 }).toBe('UPLOAD_TASK_COMPLETE');
  });
});
