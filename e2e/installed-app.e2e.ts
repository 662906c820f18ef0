/**
 * The installed app: installable once its service worker is ready (a persistent profile: Chromium refuses installs in
 * an incognito one), its manifest's share target, magnet handler and .torrent file handler, a share from another app
 * opening the cloud download dialog filled (signed in, and across sign-in), and the drive opening offline with the
 * offline banner while API calls are never answered from a cache.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import bencode from 'bencode';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEADLESS_CHROMIUM_ARGS } from './chromium-args.js';
import { CHROMIUM, PASSWORD, signUpInBrowser, startE2E, type E2E } from './harness.js';

let e2e: E2E;
let context: BrowserContext;
let page: Page;
const profile = mkdtempSync(join(tmpdir(), 'haul-e2e-installed-'));
/** Share-target POSTs that reached the server: none while the service worker takes them. */
const postedToServer: string[] = [];
/** Every address the page was at, the share's redirect included (the drive cleans it at once). */
const visited: string[] = [];
const refused: string[] = [];

beforeAll(async () => {
  e2e = await startE2E();
  e2e.haul.app.server.on('request', (req: IncomingMessage) => {
    if (req.method === 'POST' && req.url?.startsWith('/drive/share-target')) postedToServer.push(req.url);
  });
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    baseURL: e2e.base,
    locale: 'en-US',
    args: [...HEADLESS_CHROMIUM_ARGS],
  });
  page = context.pages()[0] ?? (await context.newPage());
  page.on('framenavigated', (f) => f === page.mainFrame() && visited.push(f.url()));
  page.on('console', (m) => m.type() === 'error' && /Content Security Policy/i.test(m.text()) && refused.push(m.text()));
});
afterAll(async () => {
  await context?.close();
  rmSync(profile, { recursive: true, force: true });
  await e2e?.close();
  expect(refused, 'the page policy refused what the app did').toEqual([]);
});

/** Submits a share as another app's share sheet does: a multipart POST navigation to the manifest's action. */
async function share(fields: Record<string, string>, file?: { name: string; mimeType: string; buffer: Buffer }) {
  await page.evaluate((fields) => {
    const form = Object.assign(document.createElement('form'), {
      method: 'post',
      action: '/drive/share-target',
      enctype: 'multipart/form-data',
      id: 'share',
    });
    for (const [name, value] of Object.entries(fields)) form.append(Object.assign(document.createElement('textarea'), { name, value }));
    form.append(Object.assign(document.createElement('input'), { type: 'file', name: 'files', id: 'share-file' }));
    document.body.append(form);
  }, fields);
  if (file) await page.setInputFiles('#share-file', file);
  await page.evaluate(() => (document.getElementById('share') as HTMLFormElement).submit());
}

const links = () => page.getByLabel('Links').inputValue();
const api = (on: Page, path: string) =>
  on.evaluate(async (path) => {
    const token = JSON.parse(localStorage.getItem('haul.session')!).state.session.accessToken as string;
    try {
      const res = await fetch(path, { headers: { Authorization: `Bearer ${token}` } });
      return { status: res.status, body: await res.json() };
    } catch (err) {
      return { failed: String(err) };
    }
  }, path);

/** A .torrent with two files (no peer is needed to read its list). */
const torrent = Buffer.from(
  bencode.encode({
    announce: 'http://127.0.0.1:1/announce',
    info: {
      name: 'Album',
      'piece length': 16384,
      pieces: createHash('sha1').update('x').digest(),
      files: [
        { length: 3000, path: ['01 intro.flac'] },
        { length: 2000, path: ['cover.jpg'] },
      ],
    },
  }),
);

let email: string;

describe('installed app', () => {
  it('is installable once its service worker is ready, with the share target, the magnet and the .torrent handlers', async () => {
    email = await signUpInBrowser(page);
    // The worker has filled its cache of the app (install waits for it) and controls the page.
    await page.evaluate(() => navigator.serviceWorker.ready);
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(`${e2e.base}/drive/sw.js`);
    const cdp = await context.newCDPSession(page);
    expect((await cdp.send('Page.getInstallabilityErrors')).installabilityErrors).toEqual([]);
    const manifest = await cdp.send('Page.getAppManifest');
    expect(manifest.errors).toEqual([]);
    expect(manifest.url).toBe(`${e2e.base}/drive/manifest.webmanifest`);
    // CDP's parsed manifest drops file_handlers and mixes up share_target's fields: the raw text is what is checked.
    const raw = JSON.parse(manifest.data!);
    expect(raw).toMatchObject({ name: 'Haul', start_url: '/drive/', scope: '/drive/', display: 'standalone' });
    expect(raw.share_target).toEqual({
      action: '/drive/share-target',
      method: 'POST',
      enctype: 'multipart/form-data',
      params: { title: 'title', text: 'text', url: 'url', files: [{ name: 'files', accept: ['.torrent', 'application/x-bittorrent'] }] },
    });
    expect(raw.protocol_handlers).toEqual([{ protocol: 'magnet', url: '/drive/all?action=create_task&url=%s' }]);
    expect(raw.file_handlers).toEqual([{ action: '/drive/all', accept: { 'application/x-bittorrent': ['.torrent'] } }]);
    // Each icon is a PNG of the size it claims.
    for (const icon of raw.icons as { src: string; sizes: string }[]) {
      const png = Buffer.from(await (await fetch(`${e2e.base}${icon.src}`)).arrayBuffer());
      expect(`${png.readUInt32BE(16)}x${png.readUInt32BE(20)}`, icon.src).toBe(icon.sizes);
    }
  });

  it('offers once to open magnet links with Haul', async () => {
    const offer = page.getByRole('button', { name: 'Open magnet links with Haul' });
    await offer.click();
    await page.getByText("Confirm in your browser's prompt").waitFor();
    await expect.poll(() => offer.count()).toBe(0);
    await page.reload();
    await page.getByRole('navigation').first().waitFor();
    expect(await offer.count()).toBe(0);
  });

  it('opens the cloud download dialog filled with the links a share brought, and reads the share only once', async () => {
    await share({
      title: 'Tonight',
      text: 'Watch this: https://example.com/film.mkv, then the rest.',
      url: 'magnet:?xt=urn:btih:c9e15763f722f23e98a29decdfae341b98d53056',
    });
    await expect.poll(links).toBe('magnet:?xt=urn:btih:c9e15763f722f23e98a29decdfae341b98d53056\nhttps://example.com/film.mkv');
    // The address lost its one-time key, and the service worker, not the server, took the POST.
    expect(new URL(page.url()).search).toBe('');
    expect(postedToServer).toEqual([]);
    const key = visited.map((u) => new URL(u).searchParams.get('shared')).find(Boolean);
    expect(key).toBeTruthy();
    await page.keyboard.press('Escape');
    await page.goto(`/drive/all?shared=${key}`);
    await page.getByText('What was shared is no longer here').waitFor();
    expect(await page.getByLabel('Links').count()).toBe(0);
  });

  it('keeps a share for a signed-out visitor until they have signed in', async () => {
    await page.evaluate(() => localStorage.removeItem('haul.session'));
    await page.goto('/drive/login');
    await share({ title: '', text: 'https://example.com/after-sign-in.iso', url: '' });
    await page.waitForURL(/\/drive\/login\?/);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect.poll(links).toBe('https://example.com/after-sign-in.iso');
    expect(postedToServer).toEqual([]);
    await page.keyboard.press('Escape');
  });

  it("reads a shared .torrent file's list, and says plainly when a shared file is not a torrent", async () => {
    await share(
      { title: 'album.torrent', text: '', url: '' },
      { name: 'album.torrent', mimeType: 'application/x-bittorrent', buffer: torrent },
    );
    await expect.poll(() => page.locator('.torrent-files legend').textContent()).toMatch(/Album\s*2 of 2 files/);
    await page.getByRole('checkbox', { name: /cover\.jpg/ }).waitFor();
    expect(await links()).toBe('');
    await page.keyboard.press('Escape');

    await share({ title: '', text: '', url: '' }, { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a torrent') });
    await expect.poll(() => page.getByRole('dialog').getByRole('alert').textContent()).toContain('“notes.txt” is not a .torrent file.');
    await page.keyboard.press('Escape');
    // Nothing was added on the way.
    expect(await api(page, '/drive/v1/tasks?type=offline')).toMatchObject({ status: 200, body: { tasks: [] } });
  });

  it('opens the drive offline with the offline banner, and never answers an API call from a cache', async () => {
    expect(await api(page, '/drive/v1/about')).toMatchObject({ status: 200 });
    await context.setOffline(true);
    // The app opened afresh with no network (a page made before going offline may keep the browser's online flag).
    const offline = await context.newPage();
    await offline.goto('/drive/');
    // The shell (header, sidebar) from the worker's copy, and the banner.
    await offline.getByRole('status').filter({ hasText: 'You are offline.' }).waitFor();
    await offline.getByRole('navigation').first().waitFor();
    // A call that was answered a moment ago fails now: no cache holds it.
    expect(await api(offline, '/drive/v1/about')).toMatchObject({ failed: expect.stringMatching(/TypeError/) });
    // …and what failed for want of a network says so.
    await offline.locator('[data-sonner-toast]').filter({ hasText: 'You are offline. Check your connection' }).first().waitFor();
    const kept = await offline.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys())
        for (const req of await (await caches.open(name)).keys()) urls.push(new URL(req.url).pathname);
      return urls;
    });
    expect(kept).toContain('/drive/index.html');
    // Only the built app: the page, its files, the manifest. No answer of the API, no download, no share.
    expect(
      kept.filter((u) => !(['/drive/index.html', '/drive/manifest.webmanifest'].includes(u) || /^\/drive\/(assets|icons)\//.test(u))),
    ).toEqual([]);

    await context.setOffline(false);
    await expect.poll(() => offline.getByRole('status').filter({ hasText: 'You are offline.' }).count()).toBe(0);
    expect(await api(offline, '/drive/v1/about')).toMatchObject({ status: 200 });
    await offline.close();
  });
});
