/**
 * Zip downloads in the browser: a folder from its context menu, a mixed selection from the selection bar, and a share
 * as a signed-out visitor on a phone (all of it, or the items ticked). Every zip is opened by unzip and its entries
 * and bytes checked.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Download, Page } from 'playwright-core';
import { createFolder } from '../apps/server/src/files/files.service.js';
import { fitsWidth, listView, sessionUserId, shareAsOwner, signUpInBrowser, startE2E, type E2E } from './harness.js';

const dir = mkdtempSync(join(tmpdir(), 'haul-e2e-zip-'));
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

let e2e: E2E;
let owner: Page;
let tripId = '';

beforeAll(async () => {
  if (spawnSync('unzip', ['-v']).status !== 0) throw new Error('these tests read zips with unzip: apt-get install unzip');
  e2e = await startE2E();
  ({ page: owner } = await e2e.newPage());
  await signUpInBrowser(owner);
  const me = await sessionUserId(owner);
  const trip = await createFolder(e2e.haul.ctx, me, '', 'Trip');
  tripId = trip.id;
  await e2e.seedFile(me, trip.id, 'plan.txt', 'day one: the coast');
  const photos = await createFolder(e2e.haul.ctx, me, trip.id, 'Photos');
  await e2e.seedFile(me, photos.id, 'beach.bin', Buffer.alloc(70_000, 7));
  await createFolder(e2e.haul.ctx, me, trip.id, 'Empty');
  await e2e.seedFile(me, '', 'notes.txt', 'bring towels');
});
afterAll(async () => {
  await e2e?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Saves a download and answers its entries: path → content ('' for a folder), as unzip reads them. */
async function unzipped(download: Download): Promise<Record<string, string>> {
  const file = join(dir, `${Date.now()}-${download.suggestedFilename()}`);
  await download.saveAs(file);
  const listed = spawnSync('unzip', ['-Z1', file], { encoding: 'utf8' });
  expect(listed.status, listed.stderr).toBe(0);
  const out: Record<string, string> = {};
  for (const path of listed.stdout.split('\n').filter(Boolean)) {
    out[path] = path.endsWith('/') ? '' : spawnSync('unzip', ['-p', file, path], { encoding: 'latin1' }).stdout;
  }
  expect(spawnSync('unzip', ['-tq', file]).status).toBe(0);
  return out;
}

const TRIP = {
  'Trip/': '',
  'Trip/Empty/': '',
  'Trip/Photos/': '',
  'Trip/Photos/beach.bin': '\u0007'.repeat(70_000),
  'Trip/plan.txt': 'day one: the coast',
};
const row = (page: Page, name: string) => page.getByRole('row', { name, exact: true });

describe('zip downloads', () => {
  it('downloads a folder from its menu, and a selection from the selection bar, as zips that unzip reads', async () => {
    await owner.goto('/drive/all');
    await listView(owner);
    await row(owner, 'Trip').click({ button: 'right' });
    const [folderZip] = await Promise.all([owner.waitForEvent('download'), owner.getByRole('menuitem', { name: 'Download as zip' }).click()]);
    expect(folderZip.suggestedFilename()).toBe('Trip.zip');
    expect(await unzipped(folderZip)).toEqual(TRIP);

    // One file alone downloads as itself: the zip entry is not offered for it.
    await row(owner, 'notes.txt').click({ button: 'right' });
    expect(await owner.getByRole('menuitem', { name: 'Download as zip' }).count()).toBe(0);
    await owner.keyboard.press('Escape');

    // A folder and a file chosen together.
    await row(owner, 'Trip').click();
    await row(owner, 'notes.txt').click({ modifiers: ['Control'] });
    const bar = owner.getByRole('toolbar', { name: 'Selection' });
    const [both] = await Promise.all([owner.waitForEvent('download'), bar.getByRole('button', { name: 'Download as zip' }).click()]);
    expect(both.suggestedFilename()).toBe('Trip (+1).zip');
    expect(await unzipped(both)).toEqual({ ...TRIP, 'notes.txt': 'bring towels' });
  });

  it('gives a signed-out visitor on a phone the whole share, or the items ticked, as a zip', async () => {
    const shareId = await shareAsOwner(owner, [tripId]);
    const { page } = await e2e.newPage(PHONE);
    await page.goto(`/s/${shareId}`);
    const all = page.getByRole('button', { name: 'Download all' });
    await all.waitFor();
    expect(await fitsWidth(page)).toBe(true);
    const [whole] = await Promise.all([page.waitForEvent('download'), all.click()]);
    expect(whole.suggestedFilename()).toBe('Trip.zip');
    expect(await unzipped(whole)).toEqual(TRIP);

    await page.getByRole('checkbox', { name: 'plan.txt' }).check();
    await page.getByRole('checkbox', { name: 'Photos' }).check();
    // Both buttons (zip and save, with their counts) still fit the phone's width.
    expect(await fitsWidth(page)).toBe(true);
    const [chosen] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download 2 as zip' }).click()]);
    expect(await unzipped(chosen)).toEqual({ 'Photos/': '', 'Photos/beach.bin': '\u0007'.repeat(70_000), 'plan.txt': 'day one: the coast' });

    // Inside a folder of the share, "Download all" is that folder.
    await page.getByRole('checkbox', { name: 'plan.txt' }).uncheck();
    await page.getByRole('checkbox', { name: 'Photos' }).uncheck();
    await page.getByRole('button', { name: 'Photos' }).click();
    await page.getByRole('button', { name: 'beach.bin', exact: true }).waitFor();
    const [inner] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download all' }).click()]);
    expect(inner.suggestedFilename()).toBe('Photos.zip');
    expect(Object.keys(await unzipped(inner))).toEqual(['Photos/', 'Photos/beach.bin']);
  });
});
