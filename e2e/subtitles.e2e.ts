/**
 * Subtitles in the player, in Chromium: the panel lists the track inside an MP4 (mov_text) and a sidecar .srt by
 * language; choosing one shows its cue at the right time on the <video>'s TextTrack; the delay moves it; a file picked
 * from another folder plays too; the choice comes back when the video is opened again; the panel fits a phone.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createFolder } from '../apps/server/src/files/files.service.js';
import { type E2E, fitsWidth, listView, sessionUserId, signUpInBrowser, startE2E, viewer } from './harness.js';
import { ff, requireFfmpeg } from './media-fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'haul-e2e-subtitles-'));
const EMBEDDED = '1\n00:00:01,000 --> 00:00:02,000\nEmbedded one\n\n2\n00:00:03,000 --> 00:00:04,000\nEmbedded two\n';
const SIDECAR = '1\n00:00:02,000 --> 00:00:03,000\nSidecar <i>hello</i>\n\n2\n00:00:05,000 --> 00:00:06,000\nSidecar bye\n';
const PICKED = 'WEBVTT\n\n00:00:06.000 --> 00:00:07.000\nPicked line\n';

let e2e: E2E;
beforeAll(async () => {
  requireFfmpeg();
  writeFileSync(join(dir, 'in.srt'), EMBEDDED);
  ff(
    ...['-f', 'lavfi', '-i', 'testsrc=size=320x180:rate=25', '-i', join(dir, 'in.srt'), '-t', '8', '-map', '0:v', '-map', '1'],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:s', 'mov_text', '-metadata:s:s:0', 'language=fre'],
    ...['-movflags', '+faststart', join(dir, 'film.mp4')],
  );
  e2e = await startE2E();
}, 120_000);
afterAll(async () => {
  await e2e?.close();
  rmSync(dir, { recursive: true, force: true });
});

const panel = (page: Page) => page.getByRole('dialog', { name: 'Subtitles' });
/** The TextTrack of the <track> for `id` (found in video.textTracks): its mode and the text of its active cues. */
const activeCues = (page: Page, id: string) =>
  page.locator('.viewer video').evaluate((v: HTMLVideoElement, trackId) => {
    const node = v.querySelector<HTMLTrackElement>(`track[data-id="${trackId}"]`);
    const i = Array.from(v.textTracks).findIndex((t) => t === node?.track);
    if (i < 0) return null;
    const t = v.textTracks[i]!;
    return { mode: t.mode, cues: Array.from(t.activeCues ?? []).map((c) => (c as VTTCue).text) };
  }, id);
/** Pauses the video and seeks to `t` seconds. */
const pauseAt = (page: Page, t: number) =>
  page.locator('.viewer video').evaluate((v: HTMLVideoElement, at) => {
    v.pause();
    v.currentTime = at;
  }, t);
const cuesAt = async (page: Page, id: string, t: number, want: string[]) => {
  await pauseAt(page, t);
  await expect.poll(() => activeCues(page, id).then((a) => a?.cues), { timeout: 10_000 }).toEqual(want);
};

/**
 * Opens Film.mp4 from its row (a double click, or a tap on a phone); once more if the first was taken by the list
 * re-rendering as the folder's sync lands.
 */
async function openRow(page: Page) {
  const row = page.getByRole('row', { name: 'Film.mp4' });
  for (let attempt = 0; ; attempt++) {
    await (page.viewportSize()!.width < 600 ? row.tap() : row.dblclick());
    const opened = await viewer(page)
      .locator('video')
      .waitFor({ timeout: 8000 })
      .then(() => true, () => false);
    // The viewer may be open with its player still loading (a busy machine): it covers the row, so no click again.
    if (opened || attempt === 2 || (await viewer(page).isVisible())) break;
  }
  await viewer(page).locator('video').waitFor();
}

async function openFilm(page: Page, folderId: string) {
  await page.goto(`/drive/all/${folderId}`);
  await listView(page);
  await openRow(page);
  await expect.poll(() => page.locator('.viewer video').evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThanOrEqual(1);
}

describe('subtitles in the player', () => {
  it('lists embedded and sidecar tracks, shows the right cue, shifts it by the delay, and remembers the choice', async () => {
    const { page } = await e2e.newPage({ viewport: { width: 1280, height: 800 } });
    await signUpInBrowser(page);
    const userId = await sessionUserId(page);
    const folder = await createFolder(e2e.haul.ctx, userId, '', 'Films');
    const other = await createFolder(e2e.haul.ctx, userId, '', 'Other subs');
    await e2e.seedFile(userId, folder.id, 'Film.mp4', readFileSync(join(dir, 'film.mp4')));
    const sidecar = await e2e.seedFile(userId, folder.id, 'Film.en.srt', SIDECAR);
    const picked = await e2e.seedFile(userId, other.id, 'Extra.vtt', PICKED);
    await openFilm(page, folder.id);

    await viewer(page).getByRole('button', { name: 'Subtitles' }).click();
    const tracks = panel(page).getByRole('radiogroup', { name: 'Subtitle track' });
    await expect.poll(() => tracks.getByRole('radio').count()).toBe(3);
    await expect.poll(() => tracks.getByRole('radio', { name: 'Off' }).isChecked()).toBe(true);
    await tracks.getByRole('radio', { name: 'French' }).waitFor();
    await tracks.getByRole('radio', { name: 'English (Film.en.srt)' }).check();

    const side = `f${sidecar.id}`;
    await expect.poll(() => activeCues(page, side).then((a) => a?.mode)).toBe('showing');
    await cuesAt(page, side, 2.5, ['Sidecar <i>hello</i>']);
    await cuesAt(page, side, 4.0, []);

    // Later by a second: the same cue now runs 3–4 s.
    await panel(page).getByRole('button', { name: 'Subtitles 0.5 s later' }).click();
    await panel(page).getByRole('button', { name: 'Subtitles 0.5 s later' }).click();
    await expect.poll(() => panel(page).getByTestId('subtitle-delay').textContent()).toBe('+1.0 s');
    await cuesAt(page, side, 2.5, []);
    await cuesAt(page, side, 3.5, ['Sidecar <i>hello</i>']);

    // The track inside the MP4, with the same delay: its first cue (1–2 s) now shows at 2–3 s.
    await tracks.getByRole('radio', { name: 'French' }).check();
    await expect.poll(() => activeCues(page, side).then((a) => a?.mode)).toBe('disabled');
    await cuesAt(page, 's1', 2.5, ['Embedded one']);
    await cuesAt(page, 's1', 1.5, []);

    // Raised two lines: the cues sit above the bottom line.
    await panel(page).getByRole('button', { name: 'Raise subtitles' }).click();
    await panel(page).getByRole('button', { name: 'Raise subtitles' }).click();
    await expect
      .poll(() => page.locator('.viewer video').evaluate((v: HTMLVideoElement) => (v.querySelector<HTMLTrackElement>('track[data-id="s1"]')!.track.cues![0] as VTTCue).line))
      .toBe(-3);
    await panel(page).getByLabel('Text size').selectOption('large');
    await expect.poll(() => page.locator('.viewer video').getAttribute('data-subtitle-size')).toBe('large');

    // Opened again: the same track, delay and size.
    await page.keyboard.press('Escape');
    await panel(page).waitFor({ state: 'hidden' });
    await page.keyboard.press('Escape');
    await viewer(page).waitFor({ state: 'hidden' });
    await openFilm(page, folder.id);
    await expect.poll(() => activeCues(page, 's1').then((a) => a?.mode)).toBe('showing');
    await cuesAt(page, 's1', 2.5, ['Embedded one']);
    await expect.poll(() => page.locator('.viewer video').getAttribute('data-subtitle-size')).toBe('large');
    await viewer(page).getByRole('button', { name: 'Subtitles' }).click();
    await expect.poll(() => tracks.getByRole('radio', { name: 'French' }).isChecked()).toBe(true);
    await expect.poll(() => panel(page).getByTestId('subtitle-delay').textContent()).toBe('+1.0 s');

    // A subtitle file from another folder, picked through the panel.
    await panel(page).getByRole('button', { name: 'Choose a subtitle file…' }).click();
    await panel(page).getByRole('button', { name: 'Other subs' }).click();
    await panel(page).getByRole('button', { name: 'Extra.vtt' }).click();
    const pick = `f${picked.id}`;
    await expect.poll(() => tracks.getByRole('radio', { name: 'Extra.vtt' }).isChecked()).toBe(true);
    await cuesAt(page, pick, 7.5, ['Picked line']);
  });

  it('fits the panel on a 390 px phone', async () => {
    const { page } = await e2e.newPage({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    await signUpInBrowser(page);
    const userId = await sessionUserId(page);
    const folder = await createFolder(e2e.haul.ctx, userId, '', 'Phone');
    await e2e.seedFile(userId, folder.id, 'Film.mp4', readFileSync(join(dir, 'film.mp4')));
    await e2e.seedFile(userId, folder.id, 'Film.zh-CN.with.a.rather.long.name.srt', SIDECAR);
    await page.goto(`/drive/all/${folder.id}`);
    await listView(page);
    // Both rows in (the folder's sync may land after the first paint and redraw the list under a tap).
    await expect.poll(() => page.getByRole('row').count()).toBe(2);
    await openRow(page);
    // Paused, the player's bar stays on screen (while it plays it hides after 2.5 s, and a slow tap can miss it).
    await viewer(page).locator('video').evaluate((v: HTMLVideoElement) => v.pause());
    await viewer(page).getByRole('button', { name: 'Subtitles' }).tap();
    await expect.poll(() => panel(page).getByRole('radio').count()).toBe(3);
    const box = (await panel(page).boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(await fitsWidth(page)).toBe(true);
    // Every control of the panel is inside the screen.
    const outside = await panel(page)
      .locator('button, select, input')
      .evaluateAll((els) => els.map((el) => el.getBoundingClientRect()).filter((r) => r.left < 0 || r.right > 390).length);
    expect(outside).toBe(0);
  });
});
