/**
 * Cloud decompression kept for premium accounts (HAUL_DECOMPRESS_PREMIUM_ONLY): a free account opening an archive
 * sees the upgrade prompt, with only the benefits premium gives on this server, not an error; once premium (a redeemed
 * code) it unpacks. Also how archives are reached: from the list, from a preview address, and on the separate
 * web-decompression page.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCodes } from '../apps/server/src/plans/redeem-codes.js';
import { listView, sessionUserId, signUpInBrowser, startE2E, type E2E } from './harness.js';

let e2e: E2E;
const dir = mkdtempSync(join(tmpdir(), 'haul-e2e-zip-'));
beforeAll(async () => {
  e2e = await startE2E({ config: { decompressPremiumOnly: true } });
});
afterAll(async () => {
  await e2e.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A zip of two small files, made by Debian's zip (missing: the install step is named, the test is not skipped). */
function plainZip(): Buffer {
  writeFileSync(join(dir, 'one.txt'), 'first\n');
  writeFileSync(join(dir, 'two.txt'), 'second\n');
  try {
    execFileSync('zip', ['-q', 'plain.zip', 'one.txt', 'two.txt'], { cwd: dir });
  } catch (err) {
    throw new Error(`This test needs Debian's zip: apt-get install zip (${(err as Error).message})`);
  }
  return readFileSync(join(dir, 'plain.zip'));
}

/** Makes the signed-in account premium the way a person does: a redeem code from the link that opens the box. */
async function redeemPremium(page: import('playwright-core').Page): Promise<void> {
  const [code] = await createCodes(e2e.haul.ctx.db, { spec: 'premium:7d', count: 1 }, Date.now());
  await page.goto('/drive/all?action=open_redeem_box');
  await page.getByRole('dialog', { name: 'Redeem a code' }).getByLabel('Code').fill(code!);
  await page.getByRole('button', { name: 'Redeem', exact: true }).click();
  await page.getByText('Redeemed: 7 days of premium.').waitFor();
}

describe('cloud decompression for premium accounts only', () => {
  it('shows a free account the upgrade prompt, and unpacks once the account is premium', async () => {
    const { page } = await e2e.newPage();
    await signUpInBrowser(page);
    const archive = await e2e.seedFile(await sessionUserId(page), '', 'plain.zip', plainZip());
    await page.reload();
    await listView(page);
    await page.getByRole('row', { name: 'plain.zip' }).dblclick();
    await page.waitForURL(`**/drive/decompression/${archive.id}`);

    const prompt = page.getByRole('region', { name: 'Cloud decompression is a premium benefit' });
    await prompt.waitFor();
    // The benefits are there, and nothing of the archive or a bare error.
    const carousel = prompt.getByRole('region', { name: 'What premium adds' });
    await carousel.waitFor();
    // Only what premium changes on this server (its own limits): more cloud downloads a day, HD videos and
    // decompression; not storage, speed control, WebDAV or transfer, which are the same for free accounts here.
    const slide = carousel.getByRole('group');
    expect(await slide.getAttribute('aria-label')).toMatch(/^\d of 3$/);
    await carousel.getByRole('button', { name: 'Pause the slides' }).click();
    const shown: (string | null)[] = [];
    for (let i = 0; i < 3; i++) {
      shown.push(await slide.getAttribute('data-benefit'));
      await carousel.getByRole('button', { name: 'Next benefit' }).click();
    }
    expect(shown.sort()).toEqual(['cloud_decompression', 'hd_quality', 'parallel_download']);
    expect(await page.getByRole('treeitem').count()).toBe(0);
    expect(await page.getByRole('alert').count()).toBe(0);
    await prompt.getByRole('link', { name: 'Upgrade' }).click();
    await page.waitForURL(/\/drive\/payment\?/);
    const url = new URL(page.url());
    expect(url.searchParams.get('refer_from')).toBe('cloud_decompression');
    expect(url.searchParams.get('return')).toBe(`/decompression/${archive.id}`);

    await redeemPremium(page);
    await page.goto(`/drive/decompression/${archive.id}`);
    await expect.poll(() => page.getByRole('treeitem').count()).toBe(2);
    expect(await page.getByRole('region', { name: 'Cloud decompression is a premium benefit' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Unpack 2 files' }).click();
    await expect.poll(() => page.getByRole('status').textContent(), { timeout: 20_000 }).toContain('Unpacked 2 files');
  });

  it('opens an archive named in a preview address on its archive page, and on the separate page alone', async () => {
    const { page } = await e2e.newPage();
    await signUpInBrowser(page);
    await redeemPremium(page);
    const archive = await e2e.seedFile(await sessionUserId(page), '', 'linked.zip', plainZip());
    // A preview link to an archive (shared by hand, or an old bookmark) leads to the archive, not to "cannot preview".
    await page.goto(`/drive/all?preview=${archive.id}`);
    await page.waitForURL(`**/drive/decompression/${archive.id}`);
    await expect.poll(() => page.getByRole('treeitem').count()).toBe(2);

    // The separate page: the same archive without the drive's navigation, and its result stays there.
    await page.goto(`/drive/web-decompression/${archive.id}`);
    await expect.poll(() => page.getByRole('treeitem').count()).toBe(2);
    expect(await page.getByRole('link', { name: 'Go to my files' }).count()).toBe(1);
    expect(await page.getByRole('navigation').count()).toBe(0);
    await page.getByRole('button', { name: 'Unpack 2 files' }).click();
    await page.waitForURL(`**/drive/web-decompression/${archive.id}/result?task=*`);
    await expect.poll(() => page.getByRole('status').textContent(), { timeout: 20_000 }).toContain('Unpacked 2 files');
    await page.getByRole('link', { name: 'Open folder' }).click();
    await page.waitForURL('**/drive/all/*');
  });
});
