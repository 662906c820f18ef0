/** The public share page as a signed-out visitor sees it: one photo, video or file shown as itself, folders as a list, the app's look. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { createFolder } from '../apps/server/src/files/files.service.js';
import { type E2E, newEmail, PASSWORD, sessionUserId, shareAsOwner, signUpInBrowser, startE2E } from './harness.js';
import { ff, requireFfmpeg } from './media-fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'haul-e2e-share-page-'));
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
const BROWSER_LINK_COLOURS = ['rgb(0, 0, 238)', 'rgb(85, 26, 139)'];

let e2e: E2E;
/** Share ids by what they hold. */
const shares: Record<'photo' | 'clip' | 'song' | 'report' | 'album' | 'locked', string> = {
  photo: '',
  clip: '',
  song: '',
  report: '',
  album: '',
  locked: '',
};

/** A colour as the page computes it (a CSS variable of the app resolved through a probe element). */
const cssColour = (page: Page, value: string) =>
  page.evaluate((v) => {
    const probe = document.createElement('span');
    probe.style.color = v;
    document.body.append(probe);
    const c = getComputedStyle(probe).color;
    probe.remove();
    return c;
  }, value);

/** How far a button's label sits from its centre (px), and the alignment its styles ask for. */
const labelOffset = (button: Locator) =>
  button.evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    const inner = range.getBoundingClientRect();
    const outer = el.getBoundingClientRect();
    const s = getComputedStyle(el);
    return {
      offset: Math.abs(inner.left + inner.width / 2 - (outer.left + outer.width / 2)),
      centred: s.justifyContent === 'center' || (!s.display.includes('flex') && s.textAlign === 'center'),
    };
  });

beforeAll(async () => {
  requireFfmpeg();
  ff('-f', 'lavfi', '-i', 'testsrc=size=640x480:rate=1', '-frames:v', '1', join(dir, 'photo.jpg'));
  ff(
    ...['-f', 'lavfi', '-i', 'testsrc=size=640x360:rate=25', '-t', '3', '-c:v', 'libx264', '-pix_fmt', 'yuv420p'],
    ...['-movflags', '+faststart', join(dir, 'clip.mp4')],
  );
  ff('-f', 'lavfi', '-i', 'sine=frequency=440', '-t', '3', '-c:a', 'libmp3lame', join(dir, 'song.mp3'));
  e2e = await startE2E();
  const { page: owner } = await e2e.newPage();
  await signUpInBrowser(owner);
  const ownerId = await sessionUserId(owner);
  const photo = await e2e.seedFile(ownerId, '', 'photo.jpg', readFileSync(join(dir, 'photo.jpg')));
  const clip = await e2e.seedFile(ownerId, '', 'clip.mp4', readFileSync(join(dir, 'clip.mp4')));
  const song = await e2e.seedFile(ownerId, '', 'song.mp3', readFileSync(join(dir, 'song.mp3')));
  const report = await e2e.seedFile(ownerId, '', 'report.pdf', '%PDF-1.4 quarterly figures');
  const album = await createFolder(e2e.haul.ctx, ownerId, '', 'Album');
  await e2e.seedFile(ownerId, album.id, 'beach.jpg', readFileSync(join(dir, 'photo.jpg')));
  await e2e.seedFile(ownerId, album.id, 'list.txt', 'towels');
  shares.photo = await shareAsOwner(owner, [photo.id]);
  shares.clip = await shareAsOwner(owner, [clip.id]);
  shares.song = await shareAsOwner(owner, [song.id]);
  shares.report = await shareAsOwner(owner, [report.id]);
  shares.album = await shareAsOwner(owner, [album.id]);
  shares.locked = await shareAsOwner(owner, [photo.id], 'kite');
});
afterAll(async () => {
  await e2e?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('public share page', () => {
  it('shows a single shared photo large, with its name, size, Download and Save, and no table (phone)', async () => {
    const { page } = await e2e.newPage(PHONE);
    await page.goto(`/s/${shares.photo}`);
    await page.getByRole('heading', { name: 'photo.jpg' }).waitFor();
    const img = page.locator('.single-stage img');
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(640);
    // Large: the width of the phone, not a thumbnail in a row.
    const box = (await img.boundingBox())!;
    expect(box.width).toBeGreaterThan(350);
    const size = page.locator('main').getByText(/\d+(\.\d)? KB/);
    expect(await size.count()).toBe(1);
    await page.getByRole('button', { name: 'Download', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Save to my drive' }).waitFor();
    expect(await page.getByRole('list', { name: 'Shared files' }).count()).toBe(0);
    expect(await page.getByRole('checkbox').count()).toBe(0);
    // Buttons and labels fit the phone's width, nothing scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: '/tmp/share-page-photo-390.png' });

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download', exact: true }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('photo.jpg');

    // The picture opens the viewer.
    await page.getByRole('button', { name: 'View photo.jpg' }).click();
    const viewer = page.getByRole('dialog', { name: 'photo.jpg' });
    await expect.poll(() => viewer.getByRole('img', { name: 'photo.jpg' }).evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(640);
  });

  it('shows a single shared video under a play button that opens the viewer', async () => {
    const { page } = await e2e.newPage();
    await page.goto(`/s/${shares.clip}`);
    await page.getByRole('heading', { name: 'clip.mp4' }).waitFor();
    // The first frame stands in for a poster.
    await expect.poll(() => page.locator('.single-stage video').evaluate((el: HTMLVideoElement) => el.videoWidth)).toBe(640);
    expect(await page.locator('.single-stage video').evaluate((el: HTMLVideoElement) => el.paused)).toBe(true);
    await page.getByRole('button', { name: 'Download', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Save to my drive' }).waitFor();
    await page.getByRole('button', { name: 'Play clip.mp4' }).click();
    await expect
      .poll(() => page.locator('.viewer video').evaluate((el: HTMLVideoElement) => el.currentTime), { timeout: 15_000 })
      .toBeGreaterThan(0.3);
    // The viewer took the keyboard from the button behind it: Space pauses the video, and Escape gives it back.
    expect(await page.evaluate(() => !!document.activeElement?.closest('.viewer'))).toBe(true);
    await page.keyboard.press('Space');
    await expect.poll(() => page.locator('.viewer video').evaluate((el: HTMLVideoElement) => el.paused)).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('.viewer').count()).toBe(0);
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Play clip.mp4');
  });

  it('shows a single shared song with a play button that opens the viewer', async () => {
    const { page } = await e2e.newPage(PHONE);
    await page.goto(`/s/${shares.song}`);
    await page.getByRole('heading', { name: 'song.mp3' }).waitFor();
    await page.getByRole('button', { name: 'Save to my drive' }).waitFor();
    await page.getByRole('button', { name: 'Play song.mp3' }).click();
    await expect
      .poll(() => page.locator('.viewer audio').evaluate((el: HTMLAudioElement) => el.currentTime), { timeout: 15_000 })
      .toBeGreaterThan(0.3);
  });

  it('shows a single file of another kind as a card', async () => {
    const { page } = await e2e.newPage();
    await page.goto(`/s/${shares.report}`);
    const card = page.locator('.single-card');
    await card.getByRole('heading', { name: 'report.pdf' }).waitFor();
    await card.locator('.ficon svg').waitFor();
    await card.getByText(/^26 B · /).waitFor();
    await card.getByRole('button', { name: 'Save to my drive' }).waitFor();
    expect(await page.getByRole('list', { name: 'Shared files' }).count()).toBe(0);
    expect(await page.locator('.single-stage').count()).toBe(0);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      card.getByRole('button', { name: 'Download', exact: true }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('report.pdf');

    // Saving signs in first, then carries on here.
    await card.getByRole('button', { name: 'Save to my drive' }).click();
    await page.waitForURL('**/drive/login?**');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByLabel('Email').fill(newEmail());
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(`**/s/${shares.report}?**`);
    await page.getByRole('dialog').getByRole('button', { name: 'Save to “All files”' }).click();
    await page.getByText('Saved 1 item to “All files”').waitFor();
    await page.getByRole('link', { name: 'My drive' }).waitFor();
  });

  it('keeps the list for a folder, with check boxes in the app’s style, and browses into it', async () => {
    for (const opts of [{}, PHONE]) {
      const { page } = await e2e.newPage(opts);
      await page.goto(`/s/${shares.album}`);
      const list = page.getByRole('list', { name: 'Shared files' });
      // A share of one folder opens at its contents.
      await expect.poll(() => page.locator('.public-name').allTextContents()).toEqual(['beach.jpg', 'list.txt']);
      expect(await page.locator('.single-stage, .single-card').count()).toBe(0);

      const box = list.getByRole('checkbox', { name: 'list.txt' });
      const accent = await cssColour(page, 'var(--accent)');
      expect(await box.evaluate((el) => getComputedStyle(el).appearance)).toBe('none');
      await box.check();
      expect(await box.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(accent);
      await page.getByRole('button', { name: 'Save 1 item to my drive' }).waitFor();
      await page.getByRole('button', { name: 'Download', exact: true }).waitFor();
    }
  });

  it('draws the sign-in link in the app’s colours, never the browser’s link blue or purple, in both themes', async () => {
    const { page } = await e2e.newPage();
    for (const theme of ['light', 'dark']) {
      await page.goto(`/s/${shares.photo}`);
      await page.evaluate((th) => localStorage.setItem('haul.theme', th), theme);
      await page.reload();
      await page.getByRole('heading', { name: 'photo.jpg' }).waitFor();
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
      const signIn = page.getByRole('link', { name: 'Sign in' });
      const colour = await signIn.evaluate((el) => getComputedStyle(el).color);
      expect(BROWSER_LINK_COLOURS).not.toContain(colour);
      expect([await cssColour(page, 'var(--accent)'), await cssColour(page, 'var(--text)')]).toContain(colour);
    }
  });

  it('centres button labels, on a desktop and on a phone', async () => {
    for (const [opts, id] of [
      [{}, shares.photo],
      [PHONE, shares.photo],
      [PHONE, shares.report],
    ] as const) {
      const { page } = await e2e.newPage(opts);
      await page.goto(`/s/${id}`);
      const buttons = [
        page.getByRole('link', { name: 'Sign in' }),
        page.getByRole('button', { name: 'Download', exact: true }),
        page.getByRole('button', { name: 'Save to my drive' }),
      ];
      for (const b of buttons) {
        await b.waitFor();
        const { offset, centred } = await labelOffset(b);
        expect(centred).toBe(true);
        expect(offset).toBeLessThan(2);
      }
    }
  });

  it('asks for the pass code first, centring its button, then shows the photo', async () => {
    const { page } = await e2e.newPage(PHONE);
    await page.goto(`/s/${shares.locked}`);
    const open = page.getByRole('button', { name: 'Open' });
    await open.waitFor();
    const { offset, centred } = await labelOffset(open);
    expect(centred).toBe(true);
    expect(offset).toBeLessThan(2);
    await page.getByLabel('Pass code').fill('KITE');
    await open.click();
    await page.getByRole('heading', { name: 'photo.jpg' }).waitFor();
    await expect.poll(() => page.locator('.single-stage img').evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(640);
  });
});
