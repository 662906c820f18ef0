/**
 * An image subtitle track in the player, in Chromium: choosing the dvd_subtitle track of an MKV asks the server to
 * burn it into the picture; the panel says it is being made, then the <video> plays the burned copy from the same
 * time and says so; Off goes back to the usual stream.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createFolder } from '../apps/server/src/files/files.service.js';
import { pgsSup } from '../apps/server/test/subtitle-burn-media.js';
import { type E2E, listView, sessionUserId, signUpInBrowser, startE2E } from './harness.js';
import { ff, requireFfmpeg } from './media-fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'haul-e2e-burn-'));

let e2e: E2E;
beforeAll(async () => {
  requireFfmpeg();
  writeFileSync(join(dir, 'subs.sup'), pgsSup({ width: 640, height: 360, box: { x: 120, y: 280, w: 400, h: 60 }, from: 1, to: 7 }));
  ff(
    ...['-f', 'lavfi', '-i', 'testsrc=size=640x360:rate=25:duration=8', '-i', join(dir, 'subs.sup'), '-map', '0', '-map', '1'],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:s', 'dvdsub', '-metadata:s:s:0', 'language=eng'],
    join(dir, 'film.mkv'),
  );
  e2e = await startE2E();
}, 120_000);
afterAll(async () => {
  await e2e?.close();
  rmSync(dir, { recursive: true, force: true });
});

const viewer = (page: Page) => page.locator('.viewer');
const panel = (page: Page) => page.getByRole('dialog', { name: 'Subtitles' });
const video = (page: Page) => page.locator('.viewer video');
const currentTime = (page: Page) => video(page).evaluate((v: HTMLVideoElement) => v.currentTime);

describe('burning image subtitles in', () => {
  it('plays the burned copy from the same time once made, and the usual stream again with Off', async () => {
    const { page } = await e2e.newPage({ viewport: { width: 1280, height: 800 } });
    await signUpInBrowser(page);
    const userId = await sessionUserId(page);
    const folder = await createFolder(e2e.haul.ctx, userId, '', 'Films');
    await e2e.seedFile(userId, folder.id, 'Film.mkv', readFileSync(join(dir, 'film.mkv')));
    await page.goto(`/drive/all/${folder.id}`);
    await listView(page);
    // Once more if the first double click was taken by the list re-rendering as the folder's sync lands.
    for (let attempt = 0; attempt < 3; attempt++) {
      await page.getByRole('row', { name: 'Film.mkv' }).dblclick();
      const opened = await viewer(page).waitFor({ timeout: 8000 }).then(() => true, () => false);
      if (opened) break;
    }
    // An MKV may wait for its first rendition before a <video> shows.
    await viewer(page).locator('video').waitFor({ timeout: 90_000 }).catch(async (err: unknown) => {
      await page.screenshot({ path: join(tmpdir(), 'haul-burn-e2e.png') });
      throw err;
    });
    await expect.poll(() => video(page).evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 60_000 }).toBeGreaterThanOrEqual(1);
    const usual = await video(page).getAttribute('data-media');
    expect(usual).toBeTruthy();

    // Paused at 3 s; asked again while the player may still be settling on its stream (a seek then can be lost).
    const seekTo3 = () =>
      video(page).evaluate((v: HTMLVideoElement) => {
        v.pause();
        v.currentTime = 3;
      });
    await seekTo3();
    await expect
      .poll(
        async () => {
          const at = await currentTime(page);
          if (Math.abs(at - 3) > 0.5) await seekTo3();
          return at;
        },
        { timeout: 30_000 },
      )
      .toBeCloseTo(3, 0);

    await viewer(page).getByRole('button', { name: 'Subtitles' }).click();
    const tracks = panel(page).getByRole('radiogroup', { name: 'Subtitle track' });
    const english = tracks.getByRole('radio', { name: 'English' });
    await english.waitFor();
    await expect.poll(() => panel(page).getByTestId('burn-s1').textContent()).toBe('Burn in');
    await english.check();
    // Said while it is made (the first answer is "running": the server only starts it now).
    await expect.poll(() => panel(page).getByTestId('burn-s1').textContent()).toMatch(/Burning in|Burned into the picture/);

    await expect.poll(() => video(page).getAttribute('data-burned'), { timeout: 120_000 }).toBe('s1');
    expect(await video(page).getAttribute('data-media')).not.toBe(usual);
    expect(await video(page).evaluate((v: HTMLVideoElement) => v.currentSrc)).toContain(`/subtitles/`);
    expect(await video(page).evaluate((v: HTMLVideoElement) => v.currentSrc)).toContain('/s1/burned?');
    await expect.poll(() => video(page).evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
    await expect.poll(() => currentTime(page)).toBeCloseTo(3, 0);
    await expect.poll(() => panel(page).getByTestId('burn-s1').textContent()).toBe('Burned into the picture');
    await viewer(page).getByText('Subtitles burned in').waitFor();

    // Off: the usual stream again, still at the same time.
    await tracks.getByRole('radio', { name: 'Off' }).check();
    await expect.poll(() => video(page).getAttribute('data-media')).toBe(usual);
    expect(await video(page).getAttribute('data-burned')).toBeNull();
    await expect.poll(() => video(page).evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
    await expect.poll(() => currentTime(page)).toBeCloseTo(3, 0);
  }, 240_000);
});
