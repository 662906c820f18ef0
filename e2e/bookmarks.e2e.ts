/**
 * Bookmarks in Chromium, against a link origin on loopback: links kept from the URL checker, from the cloud download
 * dialog (nothing fetched) and from a downloaded file's menu ("Collect link"); the header's search narrows the list;
 * two picked are fetched into a folder and land there; the page fits a phone.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addNew, type E2E, fitsWidth, linkOrigin, listView, pageApi, signUpInBrowser, startE2E } from './harness.js';

let e2e: E2E;
let origin: Awaited<ReturnType<typeof linkOrigin>>;
let base = '';
const FILES: Record<string, Buffer> = {
  '/film.mkv': Buffer.alloc(40_000, 1),
  '/notes.txt': Buffer.alloc(3_000, 2),
  '/song.mp3': Buffer.alloc(5_000, 3),
  '/origin.bin': Buffer.alloc(2_000, 4),
};

beforeAll(async () => {
  e2e = await startE2E();
  origin = await linkOrigin((req, res) => {
    const body = FILES[req.url ?? ''];
    if (!body) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(body.length), etag: '"v1"' });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  base = origin.base;
}, 60_000);
afterAll(async () => {
  await origin?.close();
  await e2e?.close();
});

const kept = async (page: Page) => ((await pageApi(page, 'GET', '/drive/v1/bookmarks')) as { bookmarks: { name: string; url: string; source: string }[] }).bookmarks;
const rows = (page: Page) => page.getByRole('list', { name: 'Bookmarks' }).getByRole('listitem');
const rowNames = (page: Page) => rows(page).evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));

describe('bookmarks', () => {
  it('keeps links from the checker, the dialog and a file, searches them, and fetches two into a folder', { timeout: 120_000 }, async () => {
    const { page } = await e2e.newPage({ viewport: { width: 1366, height: 900 } });
    await signUpInBrowser(page);

    // Empty, it says where bookmarks come from.
    await page.goto('/drive/bookmarks');
    await page.getByText('No bookmarks yet').waitFor();
    expect(await page.getByRole('status').textContent()).toContain('Keep for later');

    // From the URL checker, with what the check found.
    await page.goto('/drive/url-checker');
    await page.getByLabel('Link', { exact: true }).fill(`${base}/film.mkv`);
    await page.getByRole('button', { name: 'Check', exact: true }).click();
    await page.getByRole('article', { name: 'film.mkv' }).getByRole('button', { name: 'Keep for later' }).click();
    await page.getByText('Kept 1 link for later').waitFor();

    // From the cloud download dialog: two typed links kept, nothing fetched.
    await page.goto('/drive/all');
    await addNew(page, 'Cloud download');
    await page.getByLabel('Links').fill(`${base}/notes.txt\n${base}/song.mp3`);
    await page.getByRole('button', { name: 'Keep for later' }).click();
    await page.getByText('Kept 2 links for later').waitFor();
    expect((await pageApi(page, 'GET', '/drive/v1/tasks?type=offline')).tasks).toEqual([]);

    // From a cloud-downloaded file's menu: its link is kept under its name; an uploaded file has no link to offer.
    await pageApi(page, 'POST', '/drive/v1/files', { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_URL', url: { url: `${base}/origin.bin` }, parent_id: '' });
    await pageApi(page, 'POST', '/drive/v1/files', { kind: 'drive#folder', name: 'Later', parent_id: '' });
    await listView(page);
    const downloaded = page.getByRole('row', { name: 'origin.bin', exact: true });
    await downloaded.waitFor({ timeout: 30_000 });
    await downloaded.click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Collect link' }).click();
    await page.getByText('Kept 1 link for later').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('row', { name: 'Later', exact: true }).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Rename' }).waitFor();
    expect(await page.getByRole('menuitem', { name: 'Collect link' }).count()).toBe(0);
    await page.keyboard.press('Escape');

    const all = await kept(page);
    expect(all.map((b) => [b.name, b.source])).toEqual([
      ['origin.bin', 'file'],
      ['song.mp3', 'dialog'],
      ['notes.txt', 'dialog'],
      ['film.mkv', 'checker'],
    ]);
    expect(all[0]!.url).toBe(`${base}/origin.bin`);

    // The list, then the header's search narrows it (by name or link).
    await page.goto('/drive/bookmarks');
    await expect.poll(() => rowNames(page)).toEqual(['origin.bin', 'song.mp3', 'notes.txt', 'film.mkv']);
    // What the check found, or that there was none, and where each came from.
    expect(await rows(page).last().textContent()).not.toContain('not checked');
    expect(await rows(page).last().textContent()).toContain('from the URL checker');
    expect(await rows(page).nth(2).textContent()).toContain('not checked');
    await page.getByLabel('Search your files').fill('.mp3');
    await expect.poll(() => rowNames(page)).toEqual(['song.mp3']);
    expect(new URL(page.url()).searchParams.get('action')).toBe('search');
    await page.getByLabel('Search your files').fill('');
    await expect.poll(() => rowNames(page)).toHaveLength(4);

    // Pick two, fetch them into "Later": both land there under their names.
    await page.getByRole('checkbox', { name: 'Select notes.txt' }).check();
    await page.getByRole('checkbox', { name: 'Select film.mkv' }).check();
    await page.getByRole('button', { name: 'Fetch 2' }).click();
    const dialog = page.getByRole('dialog', { name: 'Fetch 2 bookmarks' });
    await dialog.getByRole('option', { name: 'Later' }).click();
    await dialog.getByRole('button', { name: 'Fetch into Later' }).click();
    await page.getByText('Fetching 2 bookmarks into Later').waitFor();
    const later = ((await pageApi(page, 'GET', '/drive/v1/files?parent_id=')) as { files: { id: string; name: string }[] }).files.find((f) => f.name === 'Later')!;
    await expect
      .poll(
        async () =>
          ((await pageApi(page, 'GET', `/drive/v1/files?parent_id=${later.id}`)) as { files: { name: string; size: string }[] }).files
            .map((f) => `${f.name}:${f.size}`)
            .sort(),
        { timeout: 30_000 },
      )
      .toEqual([`film.mkv:${FILES['/film.mkv']!.length}`, `notes.txt:${FILES['/notes.txt']!.length}`]);
    // The bookmarks stay after a fetch; the picks are cleared.
    expect(await rowNames(page)).toHaveLength(4);
    expect(await page.getByRole('button', { name: /^Fetch \d/ }).count()).toBe(0);

    // Rename one, delete another.
    await page.getByRole('button', { name: 'Rename song.mp3' }).click();
    await page.getByRole('dialog', { name: 'Rename bookmark' }).getByRole('textbox', { name: 'Name' }).fill('Song for the road');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => rowNames(page)).toContain('Song for the road');
    await page.getByRole('button', { name: 'Delete origin.bin' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => rowNames(page)).toEqual(['Song for the road', 'notes.txt', 'film.mkv']);
  });

  it('fits a phone, light and dark', { timeout: 60_000 }, async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const { page } = await e2e.newPage({ viewport: { width: 390, height: 844 }, colorScheme });
      await signUpInBrowser(page);
      await pageApi(page, 'POST', '/drive/v1/bookmarks', {
        url: `${base}/a/very/long/path/that/goes/on/and/on/for/a/while/${'x'.repeat(120)}.mkv`,
        source: 'extension',
      });
      await page.goto('/drive/bookmarks');
      await rows(page).first().waitFor();
      expect(await fitsWidth(page)).toBe(true);
      await expect.poll(() => page.getByRole('button', { name: /^Fetch .*\.mkv$/ }).isVisible()).toBe(true);
    }
    // The cloud dialog's buttons, "Keep for later" among them, stay on a phone's screen.
    const { page } = await e2e.newPage({ viewport: { width: 390, height: 844 } });
    await signUpInBrowser(page);
    await addNew(page, 'Cloud download');
    await page.getByLabel('Links').fill(`${base}/film.mkv`);
    for (const name of ['Cancel', 'Keep for later', 'Download']) {
      const box = (await page.getByRole('dialog').getByRole('button', { name, exact: true }).boundingBox())!;
      expect(box.x >= 0 && box.x + box.width <= 390, name).toBe(true);
    }
  });
});
