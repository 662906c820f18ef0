/**
 * The viewer's shell and players in Chromium: the strip's page buttons, the strip collapsed in full screen, arrow keys
 * debounced, the desktop swipe threshold, and a video handed to another player (it pauses; Haul's player window).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createFolder } from '../apps/server/src/files/files.service.js';
import { type E2E, folderWhole, listView, rowNames, sessionUserId, signUpInBrowser, startE2E, viewer } from './harness.js';
import { makePlayerMedia } from './media-fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'haul-e2e-players-'));

let e2e: E2E;
beforeAll(async () => {
  makePlayerMedia(dir, 5);
  e2e = await startE2E();
}, 120_000);
afterAll(async () => {
  await e2e?.close();
  rmSync(dir, { recursive: true, force: true });
});

const count = (page: Page) => viewer(page).getByTestId('viewer-count').textContent();
const video = (page: Page) => page.locator('.viewer video').evaluate((el: HTMLVideoElement) => ({ t: el.currentTime, paused: el.paused }));
const swipe = (page: Page, from: number, to: number) =>
  page.locator('.viewer').evaluate(
    (el, [a, b]) => {
      const touch = (x: number) => ({ identifier: 1, clientX: x, clientY: 400 });
      const fire = (type: string, x: number, touches: object[]) =>
        el.dispatchEvent(Object.assign(new Event(type, { bubbles: true }), { touches, changedTouches: [touch(x)] }));
      fire('touchstart', a!, [touch(a!)]);
      fire('touchend', b!, []);
    },
    [from, to],
  );

describe('viewer shell and players', () => {
  it('pages the strip, collapses it in full screen, debounces arrows, swipes past two thirds, and hands a video over', async () => {
    const { page, context } = await e2e.newPage({ viewport: { width: 1440, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await signUpInBrowser(page);
    const userId = await sessionUserId(page);
    const folder = await createFolder(e2e.haul.ctx, userId, '', 'Many');
    const photo = readFileSync(join(dir, 'photo.jpg')) as unknown as string;
    await e2e.seedFile(userId, folder.id, 'clip.mp4', readFileSync(join(dir, 'clip.mp4')) as unknown as string);
    for (let i = 1; i <= 30; i++) await e2e.seedFile(userId, folder.id, `p${String(i).padStart(2, '0')}.jpg`, photo);
    await page.goto(`/drive/all/${folder.id}`);
    await listView(page);
    await page.getByRole('button', { name: 'Sort' }).click();
    await page.getByRole('menuitemradio', { name: 'Name (A to Z)' }).click();
    await expect.poll(async () => (await rowNames(page))[1]).toBe('p01.jpg');
    // The viewer counts what the folder holds when it opens: wait for all 31 files first.
    await folderWhole(page, 'Many', 31);
    await page.getByRole('row', { name: 'p01.jpg' }).dblclick();
    await expect.poll(() => count(page)).toBe('2 / 31');

    // 31 thumbnails overflow the strip: page buttons on its sides, each usable while there is more that way.
    const back = viewer(page).getByRole('button', { name: 'Earlier files' });
    const forward = viewer(page).getByRole('button', { name: 'Later files' });
    await expect.poll(() => forward.isEnabled().catch(() => false)).toBe(true);
    const strip = viewer(page).getByRole('listbox', { name: 'Files in this list' });
    const before = await strip.evaluate((el) => el.scrollLeft);
    await forward.click();
    await expect.poll(() => strip.evaluate((el) => el.scrollLeft)).toBeGreaterThan(before + 500);
    await expect.poll(() => back.isEnabled()).toBe(true);

    // A burst of arrow presses switches once.
    await page.evaluate(() => {
      for (let i = 0; i < 3; i++) window.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
    });
    await expect.poll(() => count(page)).toBe('3 / 31');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => count(page)).toBe('4 / 31');

    // Full screen collapses the strip; leaving it brings the strip back.
    await viewer(page).getByRole('button', { name: 'Full screen' }).first().click();
    await expect.poll(() => page.evaluate(() => !!document.fullscreenElement)).toBe(true);
    await expect.poll(() => strip.count()).toBe(0);
    expect(await viewer(page).getByRole('button', { name: 'Show thumbnails' }).count()).toBe(1);
    await page.evaluate(() => document.exitFullscreen());
    await expect.poll(() => strip.count()).toBe(1);

    // On a desktop a swipe must pass two thirds of the width: half is not enough.
    await swipe(page, 1200, 480);
    await expect.poll(() => count(page)).toBe('4 / 31');
    await swipe(page, 1200, 200);
    await expect.poll(() => count(page)).toBe('5 / 31');

    // The video plays; opening an outside player pauses it.
    await viewer(page).getByRole('option', { name: 'clip.mp4' }).click();
    await expect.poll(() => count(page)).toBe('1 / 31');
    await expect.poll(async () => (await video(page)).t, { timeout: 15_000 }).toBeGreaterThan(0.5);
    await viewer(page).getByRole('button', { name: 'More' }).click();
    await page.getByRole('menuitem', { name: 'Open in a player on this computer' }).click();
    await expect.poll(async () => (await video(page)).paused).toBe(true);

    // Haul's own player window: the same file, the player alone.
    const [popup] = await Promise.all([
      context.waitForEvent('page'),
      page.getByRole('button', { name: 'Open in a player window' }).click(),
    ]);
    await popup.waitForLoadState();
    expect(new URL(popup.url()).searchParams.get('window')).toBe('player');
    await expect.poll(async () => (await video(popup).catch(() => ({ t: 0 }))).t, { timeout: 20_000 }).toBeGreaterThan(0.5);
    expect(await popup.locator('.viewer-head').isVisible()).toBe(false);
    expect(
      await popup
        .getByTestId('viewer-count')
        .isVisible()
        .catch(() => false),
    ).toBe(false);
    expect(await popup.getByRole('toolbar', { name: 'Player controls' }).isVisible()).toBe(true);
    // The dialog closed behind it and the first window stays paused.
    expect(await page.getByRole('button', { name: 'Open in a player window' }).count()).toBe(0);
    expect((await video(page)).paused).toBe(true);
  }, 180_000);

  it('collapses the song bar as it narrows: the volume slider first, then the quality, then settings', async () => {
    const { page } = await e2e.newPage({ viewport: { width: 1280, height: 800 } });
    await signUpInBrowser(page);
    const userId = await sessionUserId(page);
    await e2e.seedFile(userId, '', 'song.mp3', readFileSync(join(dir, 'song.mp3')) as unknown as string);
    await page.reload();
    await listView(page);
    await page.getByRole('row', { name: 'song.mp3' }).dblclick();
    const shown = page.getByRole('dialog', { name: 'song.mp3' });
    const bar = shown.getByRole('toolbar', { name: 'Player controls' });
    // The bar's own row (the settings panel below it takes in what the row gives up).
    const row = bar.locator('.media-row');
    const visible = async () => ({
      volume: await row.getByRole('slider', { name: 'Volume' }).count(),
      quality: await row.getByLabel('Quality').count(),
      settings: await row.getByRole('button', { name: 'Settings' }).count(),
    });
    await expect.poll(visible).toEqual({ volume: 1, quality: 1, settings: 1 });
    expect(await bar.getByLabel('Quality').textContent()).toBe('MP3');
    // Settings holds the speed (and what the bar had no room for).
    await bar.getByRole('button', { name: 'Settings' }).click();
    await shown.getByRole('group', { name: 'Settings' }).getByLabel('Speed').waitFor();
    await page.setViewportSize({ width: 580, height: 800 });
    await expect.poll(visible).toEqual({ volume: 0, quality: 1, settings: 1 });
    await page.setViewportSize({ width: 500, height: 800 });
    await expect.poll(visible).toEqual({ volume: 0, quality: 0, settings: 1 });
    await shown.getByRole('group', { name: 'Settings' }).getByRole('slider', { name: 'Volume' }).waitFor();
    await page.setViewportSize({ width: 400, height: 800 });
    await expect.poll(visible).toEqual({ volume: 0, quality: 0, settings: 0 });
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect.poll(visible).toEqual({ volume: 1, quality: 1, settings: 1 });
    // Rotate turns the cover.
    await bar.getByRole('button', { name: 'Rotate left' }).click();
    await expect.poll(() => shown.locator('.audio-cover').getAttribute('style')).toContain('rotate(-90deg)');
  });
});
