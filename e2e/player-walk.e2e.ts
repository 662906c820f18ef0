/**
 * The players as a walk through the app found them, at laptop and phone size: Left/Right seek 5 s (J/L 10 s) and
 * never leave the file, not even at its end; files change with PageUp/PageDown, Ctrl + arrows, the side buttons and
 * swipes; photos keep their arrows; a focused slider keeps its own arrows, a focused button its Space and Enter, and
 * Tab moves on through the player and out of it. One full-screen button per player, a "more" button that looks like
 * the others, sliders in the theme's accent with a visible keyboard focus, icon buttons whose tooltip is their name;
 * and a watch history with no broken or failing picture for a song.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createFolder } from '../apps/server/src/files/files.service.js';
import { recordEvent } from '../apps/server/src/events/events.repository.js';
import { type E2E, listView, rowNames, sessionUserId, signUpInBrowser, startE2E, viewer } from './harness.js';
import { makePlayerMedia } from './media-fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'haul-e2e-walk-'));
const NAMES = ['1-photo.jpg', '2-clip.mp4', '3-song.mp3', '4-photo.jpg'];
const LAPTOP = { width: 1440, height: 900 };
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

let e2e: E2E;
beforeAll(async () => {
  makePlayerMedia(dir, 20);
  e2e = await startE2E();
}, 120_000);
afterAll(async () => {
  await e2e?.close();
  rmSync(dir, { recursive: true, force: true });
});

const bytes = (name: string) => readFileSync(join(dir, name)) as unknown as string;

/** A folder of two photos around a video and a song; returns the user, the folder and the files' ids. */
async function store(page: Page) {
  const userId = await sessionUserId(page);
  const folder = await createFolder(e2e.haul.ctx, userId, '', 'Walk');
  const ids: Record<string, string> = {};
  for (const name of NAMES) ids[name] = (await e2e.seedFile(userId, folder.id, name, bytes(name.replace(/^\d-/, '')))).id;
  return { userId, folder, ids };
}

/** The folder of `store`, open and listed by name. */
async function seed(page: Page) {
  const { userId, folder, ids } = await store(page);
  await page.goto(`/drive/all/${folder.id}`);
  await listView(page);
  await page.getByRole('button', { name: 'Sort' }).click();
  await page.getByRole('menuitemradio', { name: 'Name (A to Z)' }).click();
  await expect.poll(() => rowNames(page)).toEqual(NAMES);
  return { userId, ids };
}

const count = (page: Page) => viewer(page).getByTestId('viewer-count').textContent();
const media = (page: Page, sel: string) =>
  page.locator(`.viewer ${sel}`).evaluate((el: HTMLMediaElement) => ({ t: el.currentTime, ended: el.ended, paused: el.paused }));
/** Pauses the player and puts it at `t` seconds. */
const pauseAt = (page: Page, sel: string, t: number) =>
  page.locator(`.viewer ${sel}`).evaluate((el: HTMLMediaElement, at) => {
    el.pause();
    el.currentTime = at;
  }, t);
const settle = (page: Page) => page.waitForTimeout(400);
/** Opens a row as a person would: a double click, or a tap on a phone. */
const open = (page: Page, name: string) =>
  page.viewportSize()!.width < 600 ? page.getByRole('row', { name }).tap() : page.getByRole('row', { name }).dblclick();

/** Icon buttons of the viewer whose tooltip is not their accessible name. */
const untitled = (page: Page) =>
  page
    .locator('.viewer button.icon-btn, .viewer .viewer-nav, .viewer .strip-page')
    .evaluateAll((els) =>
      els.filter((b) => b.getAttribute('title') !== b.getAttribute('aria-label')).map((b) => b.outerHTML.slice(0, 120)),
    );

/** The theme's accent as the browser computes a colour. */
const accent = (page: Page) =>
  page.evaluate(() => {
    const probe = document.body.appendChild(document.createElement('span'));
    probe.style.color = 'var(--accent)';
    const c = getComputedStyle(probe).color;
    probe.remove();
    return c;
  });
const sliderLook = (page: Page, name: string) =>
  viewer(page)
    .getByRole('slider', { name })
    .first()
    .evaluate((el) => {
      const s = getComputedStyle(el);
      const focusVisible = el.matches(':focus-visible');
      return { appearance: s.appearance, color: s.color, outline: s.outlineStyle, outlineColor: s.outlineColor, focusVisible };
    });

/** Pictures of the page that failed (a 4xx/5xx answer or no answer), gathered from now on. */
function failedImages(page: Page): string[] {
  const failed: string[] = [];
  page.on('response', (r) => r.request().resourceType() === 'image' && r.status() >= 400 && failed.push(`${r.status()} ${r.url()}`));
  page.on('requestfailed', (r) => r.resourceType() === 'image' && failed.push(`failed ${r.url()}`));
  return failed;
}

describe('player walk', () => {
  it('at laptop size: arrows seek 5 s and stay in the file, sliders keep their keys, one full screen, tooltips', async () => {
    const { page } = await e2e.newPage({ viewport: LAPTOP });
    await signUpInBrowser(page);
    await seed(page);

    // A photo: the arrows go to the next and previous file; its icon buttons name themselves in a tooltip.
    await open(page, '1-photo.jpg');
    await expect.poll(() => count(page)).toBe('1 / 4');
    await viewer(page).getByRole('button', { name: 'Next file' }).waitFor();
    expect(await untitled(page)).toEqual([]);
    expect(await viewer(page).getByRole('button', { name: 'Full screen' }).count()).toBe(1);
    expect(await viewer(page).getByRole('button', { name: 'Next file' }).getAttribute('aria-keyshortcuts')).toBe('PageDown');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => count(page)).toBe('2 / 4');

    // The video: Left/Right are 5 s, J/L 10 s.
    await expect.poll(async () => (await media(page, 'video')).t, { timeout: 15_000 }).toBeGreaterThan(0.3);
    await pauseAt(page, 'video', 2);
    await page.keyboard.press('ArrowRight');
    await expect.poll(async () => (await media(page, 'video')).t).toBeCloseTo(7, 1);
    await page.keyboard.press('ArrowLeft');
    await expect.poll(async () => (await media(page, 'video')).t).toBeCloseTo(2, 1);
    await page.keyboard.press('j');
    await expect.poll(async () => (await media(page, 'video')).t).toBe(0);
    // At the start, Left stays in the file.
    await page.keyboard.press('ArrowLeft');
    await settle(page);
    expect(await count(page)).toBe('2 / 4');
    // At the end, the last frame stays and Right does not move on; nor does a video that plays to its end.
    await page.keyboard.press('l');
    await expect.poll(async () => (await media(page, 'video')).ended).toBe(true);
    await page.keyboard.press('ArrowRight');
    await settle(page);
    expect(await count(page)).toBe('2 / 4');
    await page.locator('.viewer video').evaluate((el: HTMLVideoElement) => {
      el.currentTime = el.duration - 0.5;
      return el.play();
    });
    await expect.poll(async () => (await media(page, 'video')).ended).toBe(true);
    await settle(page);
    expect(await count(page)).toBe('2 / 4');
    expect(await page.locator('.viewer video').count()).toBe(1);

    // One full-screen button (the bar's), a "more" button like the other icon buttons, tooltips.
    expect(await viewer(page).getByRole('button', { name: 'Full screen' }).count()).toBe(1);
    const bar = viewer(page).getByRole('toolbar', { name: 'Player controls' });
    expect(await bar.getByRole('button', { name: 'Full screen' }).count()).toBe(1);
    const looks = (name: string) =>
      viewer(page)
        .getByRole('button', { name, exact: true })
        .evaluate((el) => {
          const s = getComputedStyle(el);
          const stroke = Number.parseFloat(getComputedStyle(el.querySelector('svg')!).strokeWidth);
          const disabled = (el as HTMLButtonElement).disabled;
          return { color: s.color, opacity: s.opacity, disabled, stroke, title: el.getAttribute('title') };
        });
    const more = await looks('More');
    const download = await looks('Download');
    expect(more).toMatchObject({ color: download.color, opacity: '1', disabled: false, title: 'More' });
    // Three dots drawn with the line of the other icons are specks; they are drawn bolder.
    expect(more.stroke).toBeGreaterThan(download.stroke * 1.5);
    expect(await untitled(page)).toEqual([]);

    // The sliders take the theme's accent, light and dark, with their own look.
    for (const theme of ['light', 'dark']) {
      await page.evaluate((t) => (document.documentElement.dataset.theme = t), theme);
      for (const name of ['Position', 'Volume']) {
        const look = await sliderLook(page, name);
        expect(look.appearance).toBe('none');
        expect(look.color).toBe(await accent(page));
      }
    }
    await page.evaluate(() => (document.documentElement.dataset.theme = 'light'));

    // A focused volume slider keeps its arrows: the volume moves, the video stays where it is.
    await pauseAt(page, 'video', 3);
    const volume = viewer(page).getByRole('slider', { name: 'Volume' });
    await volume.focus();
    const before = Number(await volume.inputValue());
    await page.keyboard.press('ArrowLeft');
    await expect.poll(async () => Number(await volume.inputValue())).toBe(before - 10);
    await page.keyboard.press('ArrowRight');
    await expect.poll(async () => Number(await volume.inputValue())).toBe(before);
    expect((await media(page, 'video')).t).toBeCloseTo(3, 1);
    // A focused position slider steps in seconds too.
    await viewer(page).getByRole('slider', { name: 'Position' }).focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(async () => (await media(page, 'video')).t).toBeCloseTo(8, 0);
    await settle(page);
    await page.keyboard.press('ArrowLeft');
    await expect.poll(async () => (await media(page, 'video')).t).toBeCloseTo(3, 0);
    expect(await count(page)).toBe('2 / 4');

    // Files change with the documented keys: PageDown, then Ctrl + Left back, then PageDown to the song.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('PageDown');
    await expect.poll(() => count(page)).toBe('3 / 4');
    await settle(page);
    await page.keyboard.press('Control+ArrowLeft');
    await expect.poll(() => count(page)).toBe('2 / 4');
    // The address follows each change; the next key waits for it to settle.
    await expect.poll(() => page.locator('.viewer video').count()).toBe(1);
    await settle(page);
    await page.keyboard.press('PageDown');
    await expect.poll(() => count(page)).toBe('3 / 4');

    // The song: Left/Right 5 s; once it ended (stop after this), Right stays.
    await expect.poll(async () => (await media(page, 'audio')).t, { timeout: 15_000 }).toBeGreaterThan(0.3);
    expect(await viewer(page).getByRole('button', { name: 'Full screen' }).count()).toBe(1);
    expect(await untitled(page)).toEqual([]);
    await pauseAt(page, 'audio', 4);
    await page.keyboard.press('ArrowRight');
    await expect.poll(async () => (await media(page, 'audio')).t).toBeCloseTo(9, 1);
    await page.keyboard.press('ArrowLeft');
    await expect.poll(async () => (await media(page, 'audio')).t).toBeCloseTo(4, 1);
    const mode = viewer(page).getByRole('button', { name: 'Play mode' });
    while ((await mode.getAttribute('data-mode')) !== 'pause') await mode.click();
    // Hovered (the pointer is still on it), its light text keeps a dark fill.
    const fill = await mode.evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(fill).toBe('rgba(255, 255, 255, 0.18)');
    await page.locator('.viewer audio').evaluate((el: HTMLAudioElement) => {
      el.currentTime = el.duration - 0.3;
      return el.play();
    });
    await expect.poll(async () => (await media(page, 'audio')).ended).toBe(true);
    await page.keyboard.press('ArrowRight');
    await settle(page);
    expect(await count(page)).toBe('3 / 4');

    // Its volume slider shows a keyboard focus in the theme's accent.
    await viewer(page).getByRole('button', { name: /^(Mute|Unmute)$/ }).focus();
    await page.keyboard.press('Tab');
    const focused = await sliderLook(page, 'Volume');
    expect(focused).toMatchObject({ appearance: 'none', outline: 'solid', focusVisible: true, outlineColor: await accent(page) });
    await page.screenshot({ path: join(tmpdir(), 'player-walk-song.png') });
  }, 180_000);

  it('on a phone: swipes change files, arrows stay in the video, one full-screen button', async () => {
    const { page } = await e2e.newPage(PHONE);
    await signUpInBrowser(page);
    await seed(page);
    await open(page, '2-clip.mp4');
    await expect.poll(() => count(page)).toBe('2 / 4');
    await expect.poll(async () => (await media(page, 'video')).t, { timeout: 15_000 }).toBeGreaterThan(0.3);
    expect(await viewer(page).getByRole('button', { name: 'Full screen' }).count()).toBe(1);
    expect(await untitled(page)).toEqual([]);
    await pauseAt(page, 'video', 6);
    await page.keyboard.press('ArrowRight');
    await expect.poll(async () => (await media(page, 'video')).ended).toBe(true);
    await page.keyboard.press('ArrowRight');
    await settle(page);
    expect(await count(page)).toBe('2 / 4');
    await page.screenshot({ path: join(tmpdir(), 'player-walk-phone.png') });

    // A swipe past half the width goes on to the song, and back.
    const swipe = (from: number, to: number) =>
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
    await swipe(320, 60);
    await expect.poll(() => count(page)).toBe('3 / 4');
    await swipe(60, 320);
    await expect.poll(() => count(page)).toBe('2 / 4');
  }, 120_000);

  it('lets Tab move on through the video player and out of it; Space and Enter press a focused button, not the player', async () => {
    const { page } = await e2e.newPage({ viewport: LAPTOP });
    await signUpInBrowser(page);
    await seed(page);
    await open(page, '2-clip.mp4');
    await expect.poll(() => count(page)).toBe('2 / 4');
    await expect.poll(async () => (await media(page, 'video')).t, { timeout: 15_000 }).toBeGreaterThan(0.3);
    await pauseAt(page, 'video', 1);
    // Opened, the viewer has the keyboard (not the list behind it).
    expect(await page.evaluate(() => document.activeElement?.matches('.viewer'))).toBe(true);
    const bar = viewer(page).getByRole('toolbar', { name: 'Player controls' });
    const focus = () =>
      page.evaluate(() => {
        const el = document.activeElement as HTMLElement;
        return { name: el.getAttribute('aria-label') ?? el.textContent?.trim() ?? '', inBar: !!el.closest('.media-bar') };
      });

    // Tab goes from control to control, and on past the last one out of the player's bar.
    await bar.getByRole('button', { name: 'Play', exact: true }).focus();
    const walked: { name: string; inBar: boolean }[] = [];
    for (let i = 0; i < 8 && (walked.at(-1)?.inBar ?? true); i++) {
      await page.keyboard.press('Tab');
      walked.push(await focus());
    }
    // (The resolution comes between Speed and Full screen once the video's renditions are made.)
    const names = walked.map((f) => f.name);
    expect(names.slice(0, 3), JSON.stringify(walked)).toEqual(['Mute', 'Volume', 'Speed']);
    expect(names.slice(0, -1), JSON.stringify(walked)).toContain('Full screen');
    expect(walked.at(-1)!.inBar, JSON.stringify(walked)).toBe(false);

    // Space and Enter on a focused button press it; the video stays paused and out of full screen.
    const mute = bar.getByRole('button', { name: /^(Mute|Unmute)$/ });
    await mute.focus();
    await page.keyboard.press('Space');
    await expect.poll(() => mute.getAttribute('aria-label')).toBe('Unmute');
    await page.keyboard.press('Enter');
    await expect.poll(() => mute.getAttribute('aria-label')).toBe('Mute');
    await settle(page);
    expect((await media(page, 'video')).paused).toBe(true);
    expect(await page.evaluate(() => document.fullscreenElement)).toBeNull();

    // With no control focused, Space is the player's again.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Space');
    await expect.poll(async () => (await media(page, 'video')).paused).toBe(false);
  }, 90_000);

  for (const [size, opts] of [
    ['laptop', { viewport: LAPTOP }],
    ['phone', PHONE],
  ] as const) {
    it(`lists a song in the watch history with its icon, no failing or broken picture (${size})`, async () => {
      const { page } = await e2e.newPage(opts);
      await signUpInBrowser(page);
      const { userId, ids } = await store(page);
      const db = e2e.haul.ctx.db;
      for (const [name, seconds, duration] of [
        ['2-clip.mp4', '4', '8'],
        ['3-song.mp3', '10', '20'],
      ] as const) {
        const row = await db.selectFrom('files').selectAll().where('id', '=', ids[name]!).executeTakeFirstOrThrow();
        await recordEvent(db, userId, 'TYPE_PLAY', row, e2e.haul.ctx.clock.now(), { play_seconds: seconds, play_duration: duration });
      }
      const failed = failedImages(page);
      await page.goto('/drive/watch-history');
      const list = page.getByRole('list', { name: 'Watch history' });
      await expect.poll(() => list.getByRole('listitem').count()).toBe(2);
      // The video shows its frame once made; the song its icon.
      const frame = list.getByRole('listitem', { name: '2-clip.mp4' }).locator('img');
      await expect
        .poll(() => frame.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth).catch(() => 0), { timeout: 20_000 })
        .toBeGreaterThan(0);
      const song = list.getByRole('listitem', { name: '3-song.mp3' });
      expect(await song.locator('.history-thumb svg').count()).toBe(1);
      await settle(page);
      const broken = await page.locator('img').evaluateAll((imgs) =>
        (imgs as HTMLImageElement[]).filter((i) => i.complete && i.naturalWidth === 0).map((i) => i.src),
      );
      expect(broken).toEqual([]);
      expect(failed).toEqual([]);
      expect(await list.getByRole('button', { name: 'Remove 3-song.mp3 from the history' }).getAttribute('title')).toBe(
        'Remove 3-song.mp3 from the history',
      );
    }, 90_000);
  }
});
