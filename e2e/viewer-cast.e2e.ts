/**
 * Casting and "copy video link" in Chromium: the Cast button follows the browser's availability report (headless
 * Chromium has no device: hidden; a reported device: shown, and it asks the browser with the original playing), and
 * the copied link streams the video to a player without a session.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { type E2E, listView, sessionUserId, signUpInBrowser, startE2E } from './harness.js';
import { makePlayerMedia } from './media-fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'haul-e2e-cast-'));
let e2e: E2E;
beforeAll(async () => {
  makePlayerMedia(dir, 2);
  e2e = await startE2E();
}, 120_000);
afterAll(async () => {
  await e2e?.close();
  rmSync(dir, { recursive: true, force: true });
});

const viewer = (page: Page) => page.locator('.viewer');
const playedFor = (page: Page) => page.locator('.viewer video').evaluate((el: HTMLVideoElement) => el.currentTime);

async function openClip(page: Page): Promise<Buffer> {
  await signUpInBrowser(page);
  const userId = await sessionUserId(page);
  const bytes = readFileSync(join(dir, 'clip.mp4'));
  await e2e.seedFile(userId, '', 'clip.mp4', bytes as unknown as string);
  await page.goto('/drive/all');
  await listView(page);
  await page.getByRole('row', { name: 'clip.mp4' }).dblclick();
  await expect.poll(() => playedFor(page), { timeout: 15_000 }).toBeGreaterThan(0.3);
  return bytes;
}

describe('cast and copy video link', () => {
  it('hides Cast without a device, and copies a signed link that streams the video', async () => {
    const { page, context } = await e2e.newPage();
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const bytes = await openClip(page);
    // Chromium has Remote Playback, and reports no device here.
    const report = await page.evaluate(async () => {
      if (!('remote' in HTMLMediaElement.prototype)) return 'absent';
      const v = document.querySelector('.viewer video') as HTMLVideoElement;
      return new Promise<string>((resolve) => {
        v.remote.watchAvailability((a) => resolve(String(a))).catch((e: Error) => resolve(e.name));
        setTimeout(() => resolve('silent'), 2000);
      });
    });
    expect(['false', 'NotSupportedError', 'silent']).toContain(report);
    expect(await viewer(page).getByRole('button', { name: /^Cast/ }).count()).toBe(0);

    await viewer(page).getByRole('button', { name: 'More' }).click();
    await page.getByRole('menuitem', { name: 'Copy video link' }).click();
    await expect.poll(() => page.getByText(/The link is copied/).count()).toBeGreaterThan(0);
    const link = await page.evaluate(() => navigator.clipboard.readText());
    expect(link).toMatch(/^https?:\/\//);
    // An outside player holds no session: the signature alone lets it stream, with Range.
    const whole = await fetch(link);
    expect(whole.status).toBe(200);
    expect(Buffer.compare(Buffer.from(await whole.arrayBuffer()), bytes)).toBe(0);
    const part = await fetch(link, { headers: { range: 'bytes=4-7' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).toString('latin1')).toBe('ftyp');
  }, 90_000);

  it('shows Cast once a device is reported, and asks the browser to cast the original link', async () => {
    const { page } = await e2e.newPage();
    // A device appears: the availability callback says so (what a Chromecast on the network would make Chromium say).
    await page.addInitScript(() => {
      const calls: string[] = [];
      (window as unknown as { castCalls: string[] }).castCalls = calls;
      RemotePlayback.prototype.watchAvailability = function (cb: (a: boolean) => void) {
        setTimeout(() => cb(true), 50);
        return Promise.resolve(1);
      };
      RemotePlayback.prototype.cancelWatchAvailability = () => Promise.resolve();
      RemotePlayback.prototype.prompt = function () {
        const v = document.querySelector('.viewer video') as HTMLVideoElement;
        calls.push(v.currentSrc);
        return Promise.resolve();
      };
    });
    await openClip(page);
    const cast = viewer(page).getByRole('button', { name: 'Cast to a device' });
    await expect.poll(() => cast.count()).toBe(1);
    await page.locator('.viewer video').hover();
    await cast.click();
    await expect.poll(() => page.evaluate(() => (window as unknown as { castCalls: string[] }).castCalls.length)).toBe(1);
    const src = await page.evaluate(() => (window as unknown as { castCalls: string[] }).castCalls[0]!);
    // The original's signed link (what a device can fetch), not a Media Source blob.
    expect(src).toMatch(/^https?:\/\//);
    expect((await fetch(src, { headers: { range: 'bytes=4-7' } })).status).toBe(206);
  }, 90_000);
});
