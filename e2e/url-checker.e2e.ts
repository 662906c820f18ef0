/**
 * The URL checker in Chromium, against link origins on loopback: a signed-out visitor checks a web file and a .torrent
 * link, sees what they hold, and "Sign in to add it" ends in the cloud download dialog, filled (the .torrent read as a
 * torrent, with its files to pick); a bad link and a missing file are told in words; a file already on the server says
 * it adds at once; the page fits a phone.
 */
import { createHash } from 'node:crypto';
import bencode from 'bencode';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2E, fitsWidth, linkOrigin, newEmail, pageApi, PASSWORD, signInBrowser, startE2E } from './harness.js';

let e2e: E2E;
let origin: Awaited<ReturnType<typeof linkOrigin>>;
let base = '';
const email = newEmail();
const FILM = Buffer.alloc(2_500_000, 3);
const torrent = Buffer.from(
  bencode.encode({
    announce: 'http://127.0.0.1:1/announce',
    info: {
      name: 'Concert',
      'piece length': 16384,
      pieces: createHash('sha1').update('x').digest(),
      files: [
        { length: 3000, path: ['01 opening.flac'] },
        { length: 2000, path: ['poster.jpg'] },
      ],
    },
  }),
);

beforeAll(async () => {
  e2e = await startE2E();
  origin = await linkOrigin((req, res) => {
    const body = req.url === '/film.mkv' ? FILM : req.url === '/concert.torrent' ? torrent : null;
    if (!body) return void res.writeHead(404).end();
    const type = req.url === '/film.mkv' ? 'video/x-matroska' : 'application/x-bittorrent';
    res.writeHead(200, { 'content-type': type, 'content-length': String(body.length), etag: '"v1"' });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  base = origin.base;
  await fetch(`${e2e.base}/v1/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: PASSWORD }) });
}, 60_000);
afterAll(async () => {
  await origin?.close();
  await e2e?.close();
});

async function check(page: Page, link: string): Promise<void> {
  await page.getByLabel('Link', { exact: true }).fill(link);
  await page.getByRole('button', { name: 'Check', exact: true }).click();
}

async function signIn(page: Page): Promise<void> {
  await page.waitForURL((u) => u.pathname === '/drive/login' && u.searchParams.has('redirect'));
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

describe('the URL checker', () => {
  it('tells a signed-out visitor what a web link holds, and adds it after sign-in through the filled dialog', async () => {
    const { page } = await e2e.newPage();
    await page.goto('/drive/url-checker');
    await page.getByRole('heading', { name: 'Check a link' }).waitFor();
    await check(page, 'just some words');
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('must start with http://');
    await check(page, `${base}/missing.iso`);
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('There is no file at this link.');
    await check(page, `${base}/film.mkv`);
    const card = page.getByRole('article', { name: 'film.mkv' });
    await card.waitFor();
    expect(await card.textContent()).toMatch(/Web file · 2\.\d MB · video\/x-matroska/);
    // The checked link stays in the address, so it can be sent on.
    expect(new URL(page.url()).searchParams.get('url')).toBe(`${base}/film.mkv`);
    await card.getByRole('link', { name: 'Sign in to add it' }).click();
    await signIn(page);
    const dialog = page.getByRole('dialog', { name: 'Cloud download' });
    await dialog.waitFor();
    expect(await dialog.getByRole('textbox', { name: 'Links' }).inputValue()).toBe(`${base}/film.mkv`);
    await dialog.getByRole('button', { name: 'Download', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it("reads a .torrent link's files, and hands the torrent itself to the dialog", async () => {
    const { page } = await e2e.newPage();
    await page.goto(`/drive/url-checker?url=${encodeURIComponent(`${base}/concert.torrent`)}`);
    const card = page.getByRole('article', { name: 'Concert' });
    await card.waitFor();
    expect(await card.textContent()).toMatch(/Torrent file · 4\.9 KB · 2 files/);
    expect(await card.getByRole('list', { name: 'Files in the torrent' }).getByRole('listitem').allTextContents()).toEqual([
      expect.stringContaining('Concert/01 opening.flac'),
      expect.stringContaining('Concert/poster.jpg'),
    ]);
    await card.getByRole('link', { name: 'Sign in to add it' }).click();
    await signIn(page);
    const dialog = page.getByRole('dialog', { name: 'Cloud download' });
    await dialog.getByRole('group', { name: /Concert/ }).waitFor();
    // The torrent stands in for the link: nothing is left to fetch as a web file.
    expect(await dialog.getByRole('textbox', { name: 'Links' }).inputValue()).toBe('');
    await dialog.getByRole('checkbox', { name: /poster\.jpg/ }).uncheck();
    await dialog.getByRole('button', { name: 'Download', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    const tasks = await pageApi(page, 'GET', '/drive/v1/tasks?type=offline');
    expect(tasks.tasks[0]).toMatchObject({ name: 'Concert', params: { kind: 'bt', file_ids: '0' } });
  });

  it('says a file the server already holds is added at once, and fits a phone', async () => {
    const { page } = await e2e.newPage({ viewport: { width: 390, height: 800 } });
    // Signed in, the account's larger allowance applies to the checks repeated below.
    await signInBrowser(page, email);
    await page.goto('/drive/url-checker');
    await check(page, `${base}/film.mkv`);
    const card = page.getByRole('article', { name: 'film.mkv' });
    await card.waitFor();
    // The first test's download may still be running: the answer turns instant once it has landed.
    await expect
      .poll(
        async () => {
          await check(page, `${base}/film.mkv`);
          await card.waitFor();
          return card.textContent();
        },
        { timeout: 30_000, intervals: [1000] },
      )
      .toContain('Already on this server');
    expect(await fitsWidth(page)).toBe(true);
  });
});
