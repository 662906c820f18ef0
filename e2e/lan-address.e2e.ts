/**
 * Haul opened under another name than the one it was started with, as a phone on the home network opens it by the
 * machine's address: with no HAUL_PUBLIC_URL pinned, thumbnails, downloads and uploads use that same address.
 */
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2E, listView, sessionUserId, signUpInBrowser, startE2E } from './harness.js';

// A second name for this machine, resolved by Chromium alone (the server never hears of it but through Host).
const LAN_NAME = 'haul-lan.test';

let e2e: E2E;
let lanBase: string;
beforeAll(async () => {
  e2e = await startE2E({ pinPublicUrl: false, browserArgs: [`--host-resolver-rules=MAP ${LAN_NAME} 127.0.0.1`] });
  lanBase = e2e.base.replace('127.0.0.1', LAN_NAME);
});
afterAll(async () => {
  await e2e?.close();
});

describe('opened at a LAN address', () => {
  it('shows thumbnails and downloads files from the address the page was opened at', async () => {
    const { page } = await e2e.newPage({ baseURL: lanBase, acceptDownloads: true });
    // Everything the page asks for must go to the address it was opened at, never to the server's own name.
    const elsewhere: string[] = [];
    page.on('request', (r) => {
      if (/^https?:/.test(r.url()) && !r.url().startsWith(`${lanBase}/`)) elsewhere.push(r.url());
    });
    await signUpInBrowser(page);
    const uid = await sessionUserId(page);
    const png = await sharp({ create: { width: 240, height: 160, channels: 3, background: '#2a7de1' } }).png().toBuffer();
    await e2e.seedFile(uid, '', 'sunset.png', png);
    await page.reload();

    // The grid draws the thumbnail over the file's icon.
    const thumb = page.locator('img.fthumb').first();
    await thumb.waitFor({ state: 'attached' });
    await expect.poll(() => thumb.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBeGreaterThan(0);
    expect(await thumb.getAttribute('src')).toMatch(new RegExp(`^http://${LAN_NAME.replace('.', '\\.')}:\\d+/drive/v1/thumbnails/`));

    // Download from the context menu fetches the signed link at the same address.
    await listView(page);
    await page.getByRole('row', { name: 'sunset.png' }).click({ button: 'right' });
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: 'Download' }).click()]);
    expect(download.url()).toMatch(new RegExp(`^http://${LAN_NAME.replace('.', '\\.')}:\\d+/drive/v1/content/`));
    expect(download.suggestedFilename()).toBe('sunset.png');
    expect(Buffer.compare(await readFile((await download.path())!), png)).toBe(0);

    // Uploading works there too, though the page is no secure context (no crypto.subtle, no Web Locks).
    const bytes = Buffer.from('from the phone '.repeat(1000));
    await page.getByTestId('upload-files').setInputFiles([{ name: 'from-phone.txt', mimeType: 'text/plain', buffer: bytes }]);
    await expect.poll(() => page.getByRole('row', { name: 'from-phone.txt' }).count(), { timeout: 30_000 }).toBe(1);
    expect(await page.evaluate(() => window.isSecureContext)).toBe(false);
    expect(elsewhere).toEqual([]);
  });
});
