/**
 * The browser extension catching links and previewing them, against a real Haul, a local site, a BitTorrent tracker
 * and a seeder on loopback. Both switches of catching start off; turned on in the options page, a magnet link clicked
 * on a page becomes a cloud download (and is left alone once turned off again), and a .torrent file the browser
 * starts to download is read by the extension and added, the browser's download cancelled only once Haul took it (a
 * file Haul refuses goes on downloading). The popup previews a magnet link's files, adds only the ones left ticked,
 * and shows the download's progress and result. Every request the server saw from the extension is a contract route.
 *
 * The extension runs with its optional permissions granted up front (extension-harness.ts): headless, nothing can
 * answer the browser's prompt that asks for them when a switch is turned on.
 */
/// <reference types="chrome" />
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Server as Tracker } from 'bittorrent-tracker';
import type { Page } from 'playwright-core';
import WebTorrent from 'webtorrent';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildExtension,
  contractRouteOf,
  launchWithExtension,
  recordExtensionCalls,
  withOptionalPermissionsGranted,
  type LoadedExtension,
  type SeenCall,
} from './extension-harness.js';
import { newEmail, PASSWORD, startE2E, type E2E } from './harness.js';

/** Marks the test's own calls: the rest the server sees come from the extension (its GETs carry no Origin here). */
const BY_TEST = 'x-e2e-test';
const CLICKED_MAGNET = `magnet:?xt=urn:btih:${randomBytes(20).toString('hex')}&dn=clicked-on-a-page`;
let reelTorrent: Buffer;

/** The local site: a page with a magnet link and two .torrent links, served slowly so a download is caught mid-way. */
function site(): Server {
  return createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path === '/page') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(`<!doctype html><title>Links</title>
        <a id="magnet" href="${CLICKED_MAGNET.replace(/&/g, '&amp;')}">The magnet</a>
        <a id="reel" href="/files/Reel.torrent">Reel.torrent</a>
        <a id="broken" href="/files/broken.torrent">broken.torrent</a>
        <script>window.seen = []; document.addEventListener('click', (e) => window.seen.push(e.defaultPrevented));</script>`);
    }
    if (path === '/files/notes.pdf') {
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': 2500 });
      return res.end(req.method === 'HEAD' ? undefined : Buffer.alloc(2500));
    }
    const body = path === '/files/Reel.torrent' ? reelTorrent : path === '/files/broken.torrent' ? Buffer.from('not a torrent at all') : null;
    if (!body) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/x-bittorrent', 'content-length': body.length });
    // Half now, the rest a moment later: the browser's download is still running when the extension sees it.
    res.write(body.subarray(0, body.length >> 1));
    setTimeout(() => res.end(body.subarray(body.length >> 1)), 1500);
  });
}

let e2e: E2E;
let ext: LoadedExtension;
let calls: SeenCall[];
let tracker: InstanceType<typeof Tracker>;
let seeder: InstanceType<typeof WebTorrent>;
const seedDir = mkdtempSync(join(tmpdir(), 'haul-e2e-extension-bt-'));
const origin = site();
let siteBase: string;
let granted: string;
let token: string;
let albumMagnet: string;

const api = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(e2e.base + path, {
    method,
    headers: { authorization: `Bearer ${token}`, [BY_TEST]: '1', ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return (await res.json()) as any;
};
const cloudTasks = async () => (await api('GET', '/drive/v1/tasks?type=offline&limit=100')).tasks as any[];
const extensionPage = async (name: string): Promise<Page> => {
  const page = await ext.context.newPage();
  await page.goto(`chrome-extension://${ext.id}/${name}`);
  return page;
};
/** Seeds a folder of files on the local tracker; answers the torrent's magnet link and .torrent file. */
const seed = (name: string, files: Record<string, number>) => {
  const dir = join(seedDir, name);
  mkdirSync(dir, { recursive: true });
  for (const [file, size] of Object.entries(files)) writeFileSync(join(dir, file), randomBytes(size));
  const announce = `http://127.0.0.1:${(tracker.http!.address() as { port: number }).port}/announce`;
  return new Promise<{ magnet: string; file: Buffer }>((r) => seeder.seed(dir, { announce: [announce] }, (t) => r({ magnet: t.magnetURI, file: t.torrentFile })));
};

beforeAll(async () => {
  granted = withOptionalPermissionsGranted(buildExtension());
  e2e = await startE2E();
  // Not the test's own calls, nor the web app in the welcome page's frame (its document, assets and same-origin calls).
  calls = recordExtensionCalls(e2e.haul, (req) => !req.headers[BY_TEST] && req.headers['sec-fetch-dest'] === 'empty' && req.headers['sec-fetch-site'] !== 'same-origin');
  await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
  siteBase = `http://127.0.0.1:${(origin.address() as { port: number }).port}`;
  tracker = new Tracker({ udp: false, http: true, ws: false, stats: false });
  await new Promise<void>((r) => tracker.listen(0, '127.0.0.1', () => r()));
  seeder = new WebTorrent({ dht: false, lsd: false, utp: false, natUpnp: false, natPmp: false, tracker: { wrtc: false } });
  reelTorrent = (await seed('Reel', { 'reel.bin': 300_000 })).file;
  albumMagnet = (await seed('Album', { '01 intro.flac': 600_000, '02 song.flac': 900_000, 'cover.jpg': 50_000 })).magnet;

  const signUp = await fetch(`${e2e.base}/v1/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json', [BY_TEST]: '1' }, body: JSON.stringify({ email: newEmail(), password: PASSWORD }) });
  const tokens = (await signUp.json()) as { access_token: string; refresh_token: string; expires_in: number; sub: string };
  token = tokens.access_token;
  ext = await launchWithExtension(granted);
  // Signed in as device sign-in leaves it (extension.e2e.ts goes through that itself).
  const session = { accessToken: tokens.access_token, refreshToken: tokens.refresh_token, expiresAt: Date.now() + tokens.expires_in * 1000, userId: tokens.sub };
  await ext.worker.evaluate((s) => chrome.storage.local.set(s), { server: e2e.base, session });
}, 60_000);
afterAll(async () => {
  await ext?.close();
  origin.close();
  await new Promise<void>((r) => (seeder ? seeder.destroy(() => r()) : r()));
  await new Promise<void>((r) => (tracker ? tracker.close(() => r()) : r()));
  await e2e?.close();
  rmSync(seedDir, { recursive: true, force: true });
  rmSync(granted, { recursive: true, force: true });
});

/** Clicks the magnet link on a fresh copy of the page; answers whether the click's default was prevented. */
async function clickMagnet(page?: Page): Promise<boolean> {
  const tab = page ?? (await ext.context.newPage());
  if (!page) await tab.goto(`${siteBase}/page`);
  const before = await tab.evaluate(() => (window as any).seen.length as number);
  await tab.locator('#magnet').click();
  await expect.poll(() => tab.evaluate(() => (window as any).seen.length as number)).toBe(before + 1);
  return tab.evaluate(() => (window as any).seen.at(-1) as boolean);
}

const magnetTasks = async () => (await cloudTasks()).filter((t) => t.params.url === CLICKED_MAGNET);

describe('catching links on pages', () => {
  let options: Page;

  it('starts with both switches off, and leaves a magnet click alone', async () => {
    options = await extensionPage('options.html');
    const magnets = options.getByLabel('Send magnet links I click to Haul');
    const torrents = options.getByLabel('Send .torrent files I download to Haul (instead of saving them)');
    await magnets.waitFor();
    expect(await magnets.isChecked()).toBe(false);
    expect(await torrents.isChecked()).toBe(false);
    expect(await ext.worker.evaluate(() => chrome.scripting.getRegisteredContentScripts())).toEqual([]);
    expect(await clickMagnet()).toBe(false);
    await new Promise((r) => setTimeout(r, 1000));
    expect(await magnetTasks()).toEqual([]);
  });

  it('adds a clicked magnet link once turned on, and not after it is turned off again', async () => {
    await options.getByLabel('Send magnet links I click to Haul').check();
    await expect.poll(() => ext.worker.evaluate(() => chrome.scripting.getRegisteredContentScripts().then((s) => s.map((c) => c.id)))).toEqual(['haul-magnet-clicks']);
    expect(await ext.worker.evaluate(() => chrome.storage.local.get('catching').then((s) => s.catching))).toEqual({ magnets: true, torrents: false });

    const page = await ext.context.newPage();
    await page.goto(`${siteBase}/page`);
    expect(await clickMagnet(page)).toBe(true);
    await expect.poll(async () => (await magnetTasks()).length).toBe(1);
    expect(await ext.worker.evaluate(() => chrome.action.getBadgeText({}))).toBe('+1');

    await options.getByLabel('Send magnet links I click to Haul').uncheck();
    await expect.poll(() => ext.worker.evaluate(() => chrome.scripting.getRegisteredContentScripts())).toEqual([]);
    // The page open all along still has the script: it was told, and lets the click through.
    expect(await clickMagnet(page)).toBe(false);
    expect(await clickMagnet()).toBe(false);
    await new Promise((r) => setTimeout(r, 1000));
    expect(await magnetTasks()).toHaveLength(1);
  });

  it('adds a .torrent file the browser downloads, cancelling the browser’s download only once Haul took it', async () => {
    await options.getByLabel('Send .torrent files I download to Haul (instead of saving them)').check();
    await expect.poll(() => ext.worker.evaluate(() => chrome.storage.local.get('catching').then((s) => s.catching.torrents))).toBe(true);
    await ext.worker.evaluate(() => {
      const g = globalThis as any;
      g.downloadStates = [];
      chrome.downloads.onChanged.addListener((d) => d.state && g.downloadStates.push({ id: d.id, state: d.state.current, error: d.error?.current }));
    });
    const page = await ext.context.newPage();
    await page.goto(`${siteBase}/page`);

    await page.locator('#reel').click();
    await expect.poll(async () => (await cloudTasks()).map((t) => t.name)).toContain('Reel');
    const reel = await ext.worker.evaluate((url) => chrome.downloads.search({ url }), `${siteBase}/files/Reel.torrent`);
    // Cancelled, and gone from the browser's list: Haul has the file.
    await expect.poll(() => ext.worker.evaluate((url) => chrome.downloads.search({ url }), `${siteBase}/files/Reel.torrent`)).toEqual([]);
    const states = await ext.worker.evaluate(() => (globalThis as any).downloadStates as { state: string; error?: string }[]);
    expect(states.map((s) => s.state)).not.toContain('complete');
    expect(states).toContainEqual(expect.objectContaining({ state: 'interrupted', error: 'USER_CANCELED' }));
    expect(reel.every((d) => d.state !== 'complete')).toBe(true);

    // Haul refuses this one (not a torrent): the browser's download goes on to the end, and the badge says it failed.
    await page.locator('#broken').click();
    await expect
      .poll(() => ext.worker.evaluate((url) => chrome.downloads.search({ url }).then((d) => d.map((x) => x.state)), `${siteBase}/files/broken.torrent`), { timeout: 15_000 })
      .toEqual(['complete']);
    expect(await ext.worker.evaluate(() => chrome.action.getBadgeText({}))).toBe('!');
    expect((await cloudTasks()).map((t) => t.name)).not.toContain('broken.torrent');
  });
});

describe('the popup', () => {
  it('previews a magnet link’s files, adds only the ticked ones, and shows the download to its end', async () => {
    const popup = await extensionPage('popup.html');
    await popup.getByLabel('Links to fetch, one a line').fill(albumMagnet);
    const files = popup.locator('.torrent-files');
    await files.getByRole('checkbox', { name: /cover\.jpg/ }).waitFor({ timeout: 40_000 });
    expect(await popup.locator('.torrent-head strong').textContent()).toBe('Album');
    expect(await files.getByRole('checkbox').count()).toBe(3);
    await files.getByRole('checkbox', { name: /cover\.jpg/ }).uncheck();
    await expect.poll(() => files.locator('legend').textContent()).toBe('2 of 3 files');
    await popup.setViewportSize({ width: 360, height: 600 });
    await popup.screenshot({ path: join(process.env.HAUL_SCREENSHOT_DIR ?? '/tmp', 'haul-extension-preview.png') });
    await popup.getByRole('button', { name: 'Add' }).click();
    await popup.getByRole('status').filter({ hasText: 'Added to Haul, into My drive.' }).waitFor();

    const album = (await cloudTasks()).find((t) => t.name === 'Album');
    // The route's path is /drive/v1/torrent:inspect (Fastify writes a colon in a path as "::").
    const listing = await api('POST', '/drive/v1/torrent:inspect', { url: albumMagnet });
    const cover = listing.files.find((f: { path: string }) => f.path.endsWith('cover.jpg')).index;
    expect(album.params.file_ids.split(',').map(Number).sort()).toEqual(listing.files.map((f: { index: number }) => f.index).filter((i: number) => i !== cover).sort());

    const row = popup.getByRole('list', { name: 'Latest cloud downloads' }).getByRole('listitem', { name: 'Album' });
    await row.getByText(/^Done/).waitFor({ timeout: 40_000 });
    const done = await api('GET', `/drive/v1/tasks/${album.id}`);
    const inAlbum = (await api('GET', `/drive/v1/files?parent_id=${done.file_id}`)).files.map((f: { name: string }) => f.name).sort();
    expect(inAlbum).toEqual(['01 intro.flac', '02 song.flac']);
    expect(await row.getByRole('link', { name: 'Album' }).getAttribute('href')).toBe(`${e2e.base}/drive/all?action=open_file&file_ids=${done.file_id}`);
  });

  it('says what a web link holds, asked of the server’s URL checker, before adding it', async () => {
    const popup = await extensionPage('popup.html');
    await popup.getByLabel('Links to fetch, one a line').fill(`${siteBase}/files/notes.pdf`);
    await expect.poll(() => popup.locator('.torrent-head').textContent(), { timeout: 20_000 }).toMatch(/^notes\.pdf · 2\.\d KB · application\/pdf$/);
    await popup.getByLabel('Links to fetch, one a line').fill(`${siteBase}/files/missing.iso`);
    await expect.poll(() => popup.locator('.torrent').textContent(), { timeout: 20_000 }).toMatch(/^Not checked \(.+\); it can still be added\.$/);
  });

  it('called nothing outside the contract', () => {
    const named = calls.map((c) => ({ ...c, route: contractRouteOf(c) }));
    expect(named.filter((c) => !c.route)).toEqual([]);
    const used = new Set(named.filter((c) => c.method !== 'OPTIONS').map((c) => c.route));
    for (const route of ['createFile', 'checkUrl', 'listTasks']) expect(used).toContain(route);
  });
});
