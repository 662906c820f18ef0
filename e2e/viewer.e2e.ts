/** The viewer in Chromium: photos zoom and rotate, a video plays natively, an HEVC MKV through HLS, songs, resume, history. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createFolder } from '../apps/server/src/files/files.service.js';
import { type E2E, listView, rowNames, sessionUserId, signUpInBrowser, startE2E, viewer } from './harness.js';
import { ff, requireFfmpeg } from './media-fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'haul-e2e-media-'));

let e2e: E2E;
beforeAll(async () => {
  requireFfmpeg();
  ff('-f', 'lavfi', '-i', 'testsrc=size=640x480:rate=1', '-frames:v', '1', join(dir, 'photo.jpg'));
  // Taller than any screen: fitted, it fills the height the viewer gives it.
  ff('-f', 'lavfi', '-i', 'testsrc=size=480x1600:rate=1', '-frames:v', '1', join(dir, 'tall.jpg'));
  ff(
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=640x360:rate=25',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440',
    '-t',
    '6',
    '-c:v',
    'libx264',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-movflags',
    '+faststart',
    join(dir, 'clip.mp4'),
  );
  ff(
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=1280x720:rate=25',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=330',
    '-t',
    '4',
    '-c:v',
    'libx265',
    '-preset',
    'ultrafast',
    '-c:a',
    'aac',
    join(dir, 'movie.mkv'),
  );
  ff(
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=523',
    '-t',
    '5',
    '-c:a',
    'libmp3lame',
    '-metadata',
    'title=Test Tone',
    '-metadata',
    'artist=Haul Band',
    join(dir, 'song.mp3'),
  );
  e2e = await startE2E();
}, 120_000);
afterAll(async () => {
  await e2e?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function seed(page: Page) {
  const userId = await sessionUserId(page);
  const folder = await createFolder(e2e.haul.ctx, userId, '', 'Media');
  for (const name of ['photo.jpg', 'clip.mp4', 'movie.mkv', 'song.mp3', 'notes.zip']) {
    const bytes = name === 'notes.zip' ? Buffer.from('not media') : readFileSync(join(dir, name));
    await e2e.seedFile(userId, folder.id, name, bytes as unknown as string);
  }
  await page.goto(`/drive/all/${folder.id}`);
  await listView(page);
  await page.getByRole('button', { name: 'Sort' }).click();
  await page.getByRole('menuitemradio', { name: 'Name (A to Z)' }).click();
  await expect.poll(() => rowNames(page)).toEqual(['clip.mp4', 'movie.mkv', 'notes.zip', 'photo.jpg', 'song.mp3']);
}

const playing = (page: Page, selector: string) =>
  page.locator(selector).evaluate((el: HTMLMediaElement) => ({ t: el.currentTime, paused: el.paused, media: el.dataset.media ?? '' }));

describe('viewer', () => {
  it('shows photos, plays video (natively and through HLS) and songs, resumes, and lists what was played', async () => {
    const { page, context } = await e2e.newPage();
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await signUpInBrowser(page);
    await seed(page);

    // A photo: zoom and rotate; the list pages through media files only (notes.zip is left out).
    await page.getByRole('row', { name: 'photo.jpg' }).dblclick();
    await expect.poll(() => viewer(page).getByTestId('viewer-count').textContent()).toBe('3 / 4');
    const img = viewer(page).getByRole('img', { name: 'photo.jpg' });
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(640);
    await viewer(page).getByRole('button', { name: 'Zoom in' }).click();
    await expect.poll(() => viewer(page).locator('.zoom-level').textContent()).toBe('110%');
    await viewer(page).getByRole('button', { name: 'Rotate left' }).click();
    await expect.poll(() => img.getAttribute('style')).toContain('rotate(-90deg)');
    await expect.poll(() => viewer(page).locator('.zoom-level').textContent()).toBe('100%');

    // Next with the arrow key: the song plays with its tags.
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => viewer(page).getByTestId('viewer-count').textContent()).toBe('4 / 4');
    await viewer(page).getByText('Test Tone').waitFor();
    await expect.poll(async () => (await playing(page, '.viewer audio')).t, { timeout: 15_000 }).toBeGreaterThan(0.3);
    await viewer(page).getByRole('button', { name: 'Play mode' }).click();
    await expect.poll(() => viewer(page).getByRole('button', { name: 'Play mode' }).getAttribute('data-mode')).toBe('single');

    // The first file, a browser-friendly MP4, plays its original.
    await viewer(page).getByRole('option', { name: 'clip.mp4' }).click();
    await expect.poll(async () => (await playing(page, '.viewer video')).t, { timeout: 15_000 }).toBeGreaterThan(1.2);
    expect((await playing(page, '.viewer video')).media).toBe('origin');
    // Space is the player's once the strip's button that was clicked has let go of the focus (it would press that button).
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Space');
    await expect.poll(async () => (await playing(page, '.viewer video')).paused).toBe(true);

    // Its link goes to a player on the computer through the clipboard.
    await viewer(page).getByRole('button', { name: 'More' }).click();
    await page.getByRole('menuitem', { name: 'Open in a player on this computer' }).click();
    await page.getByRole('button', { name: 'Other player' }).click();
    await page.getByText('The link is copied', { exact: false }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/\/drive\/v1\/media\/[\w-]+\/origin\?u=/);
    await page.getByRole('button', { name: 'Close' }).last().click();

    // After a reload (the address keeps the viewer open on it), it resumes where it stopped.
    await page.reload();
    await listView(page);
    await page.getByText(/^Resumed at 00:0[1-5]$/).waitFor();
    await expect.poll(async () => (await playing(page, '.viewer video')).t).toBeGreaterThan(1);

    // HEVC in MKV: transcoded to HLS on first play, then played by hls.js; switch resolution.
    await page.keyboard.press('Control+ArrowRight');
    await expect.poll(() => viewer(page).getByTestId('viewer-count').textContent()).toBe('2 / 4');
    await expect
      .poll(async () => (await playing(page, '.viewer video').catch(() => ({ t: 0 }))).t, { timeout: 60_000 })
      .toBeGreaterThan(0.5);
    // The resolution menu offers each rendition once it can play; switching keeps playing.
    const resolution = viewer(page).getByLabel('Resolution');
    await expect.poll(() => resolution.locator('option').allTextContents().catch(() => []), { timeout: 60_000 }).toEqual(['480p', '720p']);
    const other = (await resolution.inputValue()) === '720p' ? '480p' : '720p';
    await resolution.selectOption(other);
    await expect.poll(async () => (await playing(page, '.viewer video')).media).toBe(other);
    await expect.poll(async () => (await playing(page, '.viewer video')).t, { timeout: 20_000 }).toBeGreaterThan(1);
    await page.keyboard.press('Escape');

    // The watch history lists what was played, with how far.
    await page.goto('/drive/watch-history');
    const list = page.getByRole('list', { name: 'Watch history' });
    await expect
      .poll(() => list.getByRole('listitem').evaluateAll((li) => li.map((l) => l.getAttribute('aria-label')).sort()))
      .toEqual(['clip.mp4', 'movie.mkv', 'song.mp3']);
    const clip = list.getByRole('listitem', { name: 'clip.mp4' }).getByRole('progressbar');
    expect(Number(await clip.getAttribute('aria-valuenow'))).toBeGreaterThan(10);
    await list.getByRole('button', { name: 'clip.mp4', exact: true }).click();
    await expect.poll(async () => (await playing(page, '.viewer video')).t, { timeout: 15_000 }).toBeGreaterThan(0.5);
  }, 180_000);

  it('works on a phone: swipe to the next photo, drag down to close', async () => {
    const { page } = await e2e.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await signUpInBrowser(page);
    const userId = await sessionUserId(page);
    for (const n of ['a.jpg', 'b.jpg']) await e2e.seedFile(userId, '', n, readFileSync(join(dir, 'photo.jpg')) as unknown as string);
    await page.reload();
    await listView(page);
    await expect.poll(async () => (await rowNames(page)).sort()).toEqual(['a.jpg', 'b.jpg']);
    await page.getByRole('row', { name: (await rowNames(page))[0]! }).tap();
    await expect.poll(() => viewer(page).getByTestId('viewer-count').textContent()).toBe('1 / 2');
    expect(await viewer(page).getByRole('button', { name: 'Next file' }).isVisible()).toBe(false);
    const swipe = async (from: [number, number], to: [number, number]) => {
      await page
        .locator('.viewer')
        .dispatchEvent('touchstart', {
          touches: [{ identifier: 1, clientX: from[0], clientY: from[1] }],
          changedTouches: [{ identifier: 1, clientX: from[0], clientY: from[1] }],
        });
      await page
        .locator('.viewer')
        .dispatchEvent('touchend', { touches: [], changedTouches: [{ identifier: 1, clientX: to[0], clientY: to[1] }] });
    };
    await swipe([300, 400], [60, 410]);
    await expect.poll(() => viewer(page).getByTestId('viewer-count').textContent()).toBe('2 / 2');
    await swipe([200, 200], [205, 700]);
    await expect.poll(() => viewer(page).count()).toBe(0);
  });

  it('keeps the zoom bar off the picture, on a desktop and a phone', async () => {
    for (const viewport of [
      { width: 1440, height: 900 },
      { width: 390, height: 844 },
    ]) {
      const phone = viewport.width < 768;
      const { page } = await e2e.newPage({ viewport, isMobile: phone, hasTouch: phone });
      await signUpInBrowser(page);
      await e2e.seedFile(await sessionUserId(page), '', 'tall.jpg', readFileSync(join(dir, 'tall.jpg')) as unknown as string);
      await page.reload();
      await listView(page);
      const row = page.getByRole('row', { name: 'tall.jpg' });
      if (phone) await row.tap();
      else await row.dblclick();
      // Alone in its folder: no count, so the viewer is found by its name.
      const shown = page.getByRole('dialog', { name: 'tall.jpg' });
      const img = shown.getByRole('img', { name: 'tall.jpg' });
      await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalHeight)).toBe(1600);
      // Fitted: as tall as the room it has (the picture is taller than the screen).
      const stage = (await shown.locator('.image-stage').boundingBox())!;
      const picture = (await img.boundingBox())!;
      expect(picture.height).toBeGreaterThan(stage.height - 2);
      const bar = (await shown.getByRole('toolbar', { name: 'Photo tools' }).boundingBox())!;
      const overlap = bar.y < picture.y + picture.height && picture.y < bar.y + bar.height;
      expect(overlap, `${viewport.width}px: bar ${JSON.stringify(bar)}, picture ${JSON.stringify(picture)}`).toBe(false);
      expect(bar.y + bar.height).toBeLessThanOrEqual(viewport.height);
      await page.screenshot({ path: `${process.env.HAUL_SCREENSHOT_DIR ?? '/tmp'}/haul-viewer-tall-${viewport.width}.png` });
    }
  });
});
