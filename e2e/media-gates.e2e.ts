/** What premium means in the player: a share visitor's preview stops at its limit, and a free account's 1080p waits for an upgrade. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { recentCounts } from '../apps/server/src/stats/stat-counts.js';
import { type E2E, sessionUserId, shareAsOwner, signUpInBrowser, startE2E } from './harness.js';
import { ff, requireFfmpeg } from './media-fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'haul-e2e-gates-'));
let e2e: E2E;

beforeAll(async () => {
  requireFfmpeg();
  ff('-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25', '-t', '10', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', join(dir, 'trailer.mp4'));
  ff('-f', 'lavfi', '-i', 'testsrc2=size=1920x1080:rate=10', '-t', '2', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', join(dir, 'wide.mp4'));
  // A short preview, so the test sees its end: max(2 s, 10 % of 10 s) = 2 s.
  e2e = await startE2E({ config: { sharePreviewSeconds: 2, sharePreviewFraction: 0.1, freeMaxResolution: 720 } });
}, 120_000);
afterAll(async () => {
  await e2e?.close();
  rmSync(dir, { recursive: true, force: true });
});

const video = (page: Page) => page.locator('.viewer video');
const at = (page: Page) => video(page).evaluate((el: HTMLVideoElement) => ({ t: el.currentTime, paused: el.paused }));

describe('media gates', () => {
  it("stops a share visitor's video at the preview limit and refuses seeking past it", async () => {
    const { page: owner } = await e2e.newPage();
    await signUpInBrowser(owner);
    const file = await e2e.seedFile(await sessionUserId(owner), '', 'trailer.mp4', readFileSync(join(dir, 'trailer.mp4')));
    const shareId = await shareAsOwner(owner, [file.id]);

    const { page } = await e2e.newPage();
    await page.goto(`/s/${shareId}`);
    await page.getByRole('button', { name: 'Play trailer.mp4' }).click();
    // The preview plays a rendition (the original is not offered to a limited visitor) once it is made.
    await expect.poll(async () => (await at(page).catch(() => ({ t: 0 }))).t, { timeout: 40_000 }).toBeGreaterThan(0.2);
    expect(await video(page).getAttribute('data-media')).toMatch(/^\d+p$/);

    // Seeking to 80 % of 10 s is refused with the tip on the bar; the position stays within the preview.
    const bar = page.getByRole('slider', { name: 'Position' });
    await bar.fill('80');
    await expect.poll(() => page.getByRole('tooltip').textContent()).toBe('Save it to your drive to watch the whole video');
    expect((await at(page)).t).toBeLessThan(2.5);

    // Playback stops at the limit, with the ways to see the rest.
    await video(page).evaluate((el: HTMLVideoElement) => el.play());
    const prompt = page.getByRole('dialog', { name: 'The preview has ended' });
    await prompt.waitFor({ timeout: 20_000 });
    const stopped = await at(page);
    expect(stopped.paused).toBe(true);
    expect(stopped.t).toBeGreaterThanOrEqual(1.9);
    expect(stopped.t).toBeLessThan(2.6);
    expect(await prompt.getByRole('link', { name: 'Save to my drive' }).getAttribute('href')).toBe(`/drive/login?${new URLSearchParams({ redirect: `/s/${shareId}?save=1` })}`);
    await prompt.getByRole('link', { name: 'Sign in' }).waitFor();
    // The bar still shows the whole video's length.
    expect(await bar.getAttribute('aria-valuetext')).toMatch(/\/ 00:10$/);
    // Upgrading leads to the payment pages (through sign-in) with the way back to this share.
    await prompt.getByRole('button', { name: 'Upgrade' }).click();
    await page.waitForURL(/\/drive\//);
    let url = page.url();
    for (let i = 0; i < 3; i++) url = decodeURIComponent(url);
    expect(url).toContain(`refer_from=limit_view&return=/s/${shareId}`);
    // The operator's counts saw the preview end and the click, sent as the page was left.
    const counted = async () => {
      const rows = await recentCounts(e2e.haul.ctx.db, Date.now(), e2e.haul.ctx.config.timeZone, 2);
      return Object.fromEntries(rows.filter((r) => r.event.startsWith('play_limited')).map((r) => [r.event, r.count]));
    };
    await expect.poll(counted, { timeout: 10_000 }).toEqual({ play_limited_show: 1, play_limited_click: 1 });
  });

  it('marks 1080p premium for a free account and asks to upgrade when it is chosen', async () => {
    const { page } = await e2e.newPage();
    await signUpInBrowser(page);
    const file = await e2e.seedFile(await sessionUserId(page), '', 'wide.mp4', readFileSync(join(dir, 'wide.mp4')));
    await page.goto(`/drive/all?preview=${file.id}`);
    const resolution = page.getByLabel('Resolution');
    await expect
      .poll(() => resolution.locator('option').allTextContents().catch(() => []), { timeout: 60_000 })
      .toEqual(['Original', '480p', '720p', '1080p · Premium']);
    const before = await resolution.inputValue();
    await resolution.selectOption({ label: '1080p · Premium' });
    const prompt = page.getByRole('dialog', { name: '1080p is a premium quality' });
    await prompt.waitFor();
    // Nothing changed until paid for.
    expect(await resolution.inputValue()).toBe(before);
    await prompt.getByRole('button', { name: 'Upgrade' }).click();
    await page.waitForURL(/\/drive\/payment\?/);
    const url = new URL(page.url());
    expect(url.searchParams.get('refer_from')).toBe('hd_quality');
    expect(url.searchParams.get('return')).toBe(`/all?preview=${file.id}`);
    expect(await page.evaluate(() => sessionStorage.getItem('haul.wantedQuality'))).toContain('1080p');
  });
});
