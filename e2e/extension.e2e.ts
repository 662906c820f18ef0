/**
 * The browser extension against a real Haul: first run opens its welcome (options) page, which tells an unreachable
 * address and a site that is not Haul apart, then connects by device sign-in (the code approved through the API, as a
 * signed-in phone would) and frames the Haul's landing page; the folder for cloud downloads is chosen there. "Send to Haul" (the context-menu handler, run in the
 * service worker: a headless browser cannot click a menu) adds cloud downloads from a link and from a selection,
 * which complete from a local origin into that folder; the popup shows them with their progress and result, opens
 * the file in Haul, refreshes an expired token, and adds pasted links. Signing out revokes the session. Every
 * request the server saw from the extension is a route of the contract.
 */
/// <reference types="chrome" />
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildExtension, contractRouteOf, launchWithExtension, recordExtensionCalls, type LoadedExtension, type SeenCall } from './extension-harness.js';
import { freePort, newEmail, PASSWORD, startE2E, type E2E } from './harness.js';

/** Bytes of a file the origin serves: the same for a name every time, so the drive's copy can be compared. */
const bytesOf = (name: string, size: number) => {
  const out = Buffer.alloc(size);
  for (let at = 0, n = 0; at < size; n++) createHash('sha256').update(`${name}:${n}`).digest().copy(out, at), (at += 32);
  return out;
};
const SHOTS = process.env.HAUL_SCREENSHOT_DIR ?? '/tmp';
const SIZES: Record<string, number> = { 'from-menu.bin': 300_000, 'sel-one.txt': 1000, 'sel-two.txt': 2000, 'pasted.bin': 2 * 1024 * 1024 };

/** A link origin on loopback: /files/NAME answers that file (pasted.bin slowly, so the popup sees it move). */
function linkOrigin(): Server {
  return createServer((req, res) => {
    const name = /^\/files\/([\w.-]+)$/.exec(req.url ?? '')?.[1];
    const size = name ? SIZES[name] : undefined;
    if (!name || !size) return res.writeHead(404).end();
    const body = bytesOf(name, size);
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length });
    if (name !== 'pasted.bin') return res.end(body);
    let at = 0;
    const timer = setInterval(() => {
      if (res.destroyed) return clearInterval(timer);
      res.write(body.subarray(at, (at += 256 * 1024)));
      if (at >= body.length) {
        clearInterval(timer);
        res.end();
      }
    }, 250);
  });
}

let e2e: E2E;
let ext: LoadedExtension;
let calls: SeenCall[];
const origin = linkOrigin();
let files: string;
let user: { email: string; accessToken: string; userId: string };
let folderId: string;

/** Calls the API as the test's user, from Node. */
async function api(method: string, path: string, body?: unknown, token = user.accessToken) {
  const res = await fetch(e2e.base + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as any };
}

const stored = (key: string) => ext.worker.evaluate((k) => chrome.storage.local.get(k).then((s) => s[k] as any), key);
const extensionPage = async (name: string): Promise<Page> => {
  const page = await ext.context.newPage();
  await page.goto(`chrome-extension://${ext.id}/${name}`);
  return page;
};
/** Runs the "Send to Haul" menu handler in the worker, as a click on the menu item would. */
const sendToHaul = (click: Record<string, unknown>) =>
  ext.worker.evaluate((c) => (globalThis as any).sendToHaul(c) as Promise<{ ok: boolean; tasks: { id: string }[]; message: string }>, click);

/** The user's cloud downloads, newest first. */
const cloudTasks = async () => (await api('GET', '/drive/v1/tasks?type=offline&limit=100')).body.tasks as any[];

beforeAll(async () => {
  const dist = buildExtension();
  // One-second polls keep the sign-in short; the pace rules themselves are tested on the server.
  e2e = await startE2E({ config: { devicePollIntervalSeconds: 1 } });
  calls = recordExtensionCalls(e2e.haul);
  await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
  files = `http://127.0.0.1:${(origin.address() as { port: number }).port}/files`;
  const email = newEmail();
  const signUp = await fetch(`${e2e.base}/v1/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: PASSWORD }) });
  const tokens = (await signUp.json()) as { access_token: string; sub: string };
  user = { email, accessToken: tokens.access_token, userId: tokens.sub };
  folderId = (await api('POST', '/drive/v1/files', { kind: 'drive#folder', name: 'From the web', parent_id: '' })).body.file.id;
  ext = await launchWithExtension(dist);
}, 60_000);
afterAll(async () => {
  await ext?.close();
  origin.close();
  await e2e?.close();
});

describe('browser extension', () => {
  it('opens its options on first run and connects by device sign-in, telling bad addresses apart', async () => {
    // First run: the welcome page (the options) opens by itself.
    await expect.poll(() => ext.context.pages().find((p) => p.url() === `chrome-extension://${ext.id}/options.html#welcome`)).toBeTruthy();
    const options = ext.context.pages().find((p) => p.url() === `chrome-extension://${ext.id}/options.html#welcome`)!;
    // No address yet: nothing to frame.
    expect(await options.locator('#welcome-section').isHidden()).toBe(true);
    const address = options.getByLabel('Your Haul’s address');
    const connect = options.getByRole('button', { name: 'Connect' });
    const alert = options.getByRole('alert');

    await address.fill(`http://127.0.0.1:${await freePort()}`);
    await connect.click();
    await alert.filter({ hasText: 'cannot be reached' }).waitFor();
    // The link origin answers, but not as Haul (no API, no CORS for the extension).
    await address.fill(files.replace('/files', ''));
    await connect.click();
    await alert.filter({ hasText: 'does not answer as a Haul server' }).waitFor();

    await address.fill(`${e2e.base}/drive/all`);
    await connect.click();
    const shown = options.getByLabel('Code to approve');
    await expect.poll(() => shown.textContent()).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
    const code = (await shown.textContent())!;
    await options.screenshot({ path: join(SHOTS, 'haul-extension-connect.png') });
    expect(await options.getByRole('link', { name: 'Open the approval page' }).getAttribute('href')).toBe(`${e2e.base}/drive/qr-login?code=${code}`);
    // Approved as the signed-in owner does it on the approval page: a sudo token, then yes.
    const sudo = (await api('POST', '/v1/user/sudo', { password: PASSWORD })).body.sudo_token;
    const info = await api('GET', `/v1/user/device/authorize?user_code=${code}`);
    expect(info.body.client_name).toBe('Haul browser extension');
    expect((await api('POST', '/v1/user/device/authorize', { user_code: code, approve: true, sudo_token: sudo })).status).toBe(200);

    await options.getByText(`Connected to ${new URL(e2e.base).host} as ${user.email}.`).waitFor({ timeout: 15_000 });
    // The welcome page frames the Haul's landing page now that its address is known.
    await options.getByRole('heading', { name: 'About your Haul' }).waitFor();
    expect(await options.locator('iframe#landing').getAttribute('src')).toBe(`${e2e.base}/drive/landing`);
    expect(await stored('server')).toBe(e2e.base);
    expect((await stored('session')).userId).toBe(user.userId);

    // The folder for cloud downloads: walk into "From the web" and keep it.
    await options.getByRole('list', { name: 'Folders here' }).getByRole('button', { name: 'From the web' }).click();
    await options.getByText('Looking in From the web').waitFor();
    await options.getByRole('button', { name: 'Use this folder' }).click();
    await options.getByText('Cloud downloads now go into From the web.').waitFor();
    expect(await stored('folder')).toEqual({ id: folderId, name: 'From the web' });
    await options.screenshot({ path: join(SHOTS, 'haul-extension-options.png') });
    await options.close();
  });

  it('sends a link, the links of a selection and nothing for a bad link, from the context menu', async () => {
    // The four items exist (update fails on an unknown id).
    for (const id of ['send-link', 'send-selection', 'send-media', 'send-page'])
      await ext.worker.evaluate((i) => chrome.contextMenus.update(i, {}), id);

    const sent = await sendToHaul({ menuItemId: 'send-link', linkUrl: `${files}/from-menu.bin`, pageUrl: 'http://127.0.0.1/' });
    expect(sent).toMatchObject({ ok: true, message: 'Added to Haul, into From the web.' });
    expect(sent.tasks).toHaveLength(1);
    const selection = `Two files: ${files}/sel-one.txt, and (${files}/sel-two.txt). Also ftp://nope.example/x`;
    const fromSelection = await sendToHaul({ menuItemId: 'send-selection', selectionText: selection, pageUrl: 'http://127.0.0.1/' });
    expect(fromSelection).toMatchObject({ ok: true, message: '2 links added to Haul, into From the web.' });
    const bad = await sendToHaul({ menuItemId: 'send-media', srcUrl: 'data:image/png;base64,AAAA', pageUrl: 'http://127.0.0.1/' });
    expect(bad).toEqual({ ok: false, tasks: [], message: 'Nothing to send: Haul fetches http, https and magnet links.' });
    expect(await ext.worker.evaluate(() => chrome.action.getBadgeText({}))).toBe('!');

    // They complete, and the files are in the chosen folder with the origin's bytes.
    await expect.poll(async () => (await cloudTasks()).map((t) => `${t.name}:${t.phase}`).sort(), { timeout: 30_000 }).toEqual(
      ['from-menu.bin', 'sel-one.txt', 'sel-two.txt'].map((n) => `${n}:PHASE_TYPE_COMPLETE`),
    );
    const inFolder = (await api('GET', `/drive/v1/files?parent_id=${folderId}`)).body.files as { name: string; size: string }[];
    expect(inFolder.map((f) => `${f.name}:${f.size}`).sort()).toEqual(['from-menu.bin:300000', 'sel-one.txt:1000', 'sel-two.txt:2000']);
  });

  it('lists the downloads in the popup with their result, opens the file, refreshes the token and adds pasted links', async () => {
    // An access token past its time: the popup's first call refreshes it (the refresh token rotates).
    const before = await stored('session');
    await ext.worker.evaluate((s) => chrome.storage.local.set({ session: { ...s, expiresAt: Date.now() - 1000 } }), before);
    const popup = await extensionPage('popup.html');
    const list = popup.getByRole('list', { name: 'Latest cloud downloads' });
    const done = list.getByRole('listitem', { name: 'from-menu.bin' });
    await done.getByText('Done · 293.0 KB').waitFor();
    await expect.poll(async () => (await stored('session')).refreshToken).not.toBe(before.refreshToken);
    expect(await popup.getByText('Into From the web').count()).toBe(1);
    // The badge's "!" was seen.
    expect(await ext.worker.evaluate(() => chrome.action.getBadgeText({}))).toBe('');

    // A finished one opens its file in Haul (the drive's open_file link), in a new tab.
    const fileId = (await cloudTasks()).find((t) => t.name === 'from-menu.bin').file_id;
    const opened: string[] = [];
    ext.context.once('page', (tab) => {
      opened.push(tab.url());
      tab.on('framenavigated', (f) => void (f === tab.mainFrame() && opened.push(f.url())));
    });
    await done.getByRole('link', { name: 'from-menu.bin' }).click();
    await expect.poll(() => opened).toContain(`${e2e.base}/drive/all?action=open_file&file_ids=${fileId}`);

    // Pasted: a link and a line that is not one, which stays in the box.
    const box = popup.getByLabel('Links to fetch, one a line');
    await box.fill(`${files}/pasted.bin\nnot a link`);
    await popup.getByRole('button', { name: 'Add' }).click();
    await popup.getByRole('status').filter({ hasText: 'Added to Haul, into From the web. 1 line was not a link Haul can fetch.' }).waitFor();
    expect(await box.inputValue()).toBe('not a link');
    // Live: a bar while it runs, then its result.
    const pasted = list.getByRole('listitem', { name: 'pasted.bin' });
    await pasted.getByRole('progressbar').waitFor();
    await pasted.getByText('Done · 2.0 MB').waitFor({ timeout: 30_000 });
    expect(await pasted.getByRole('progressbar').count()).toBe(0);
    await popup.setViewportSize({ width: 360, height: 520 });
    await popup.screenshot({ path: join(SHOTS, 'haul-extension-popup.png') });

    // Nothing fetchable: said, and nothing sent.
    await box.fill('just words');
    await popup.getByRole('button', { name: 'Add' }).click();
    await popup.getByRole('status').filter({ hasText: 'Nothing to send' }).waitFor();
    await popup.close();
  });

  it('signs out: the session ends on the server, and sending says so', async () => {
    const { refreshToken } = await stored('session');
    const options = await extensionPage('options.html');
    await options.getByRole('button', { name: 'Sign out' }).click();
    await options.getByRole('button', { name: 'Connect' }).waitFor();
    expect(await options.getByLabel('Your Haul’s address').inputValue()).toBe(e2e.base);
    expect(await stored('session')).toBeUndefined();
    expect(await stored('folder')).toBeUndefined();

    const refused = await fetch(`${e2e.base}/v1/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'refresh_token', refresh_token: refreshToken }),
    });
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: string }).error).toBe('invalid_grant');

    const after = await sendToHaul({ menuItemId: 'send-page', pageUrl: `${files}/from-menu.bin` });
    expect(after).toMatchObject({ ok: false, message: expect.stringContaining('signed out') });
    const popup = await extensionPage('popup.html');
    await popup.getByRole('alert').filter({ hasText: 'You are signed out of Haul' }).waitFor();
  });

  it('called nothing outside the contract', () => {
    // The check itself tells a route of the contract from one that is not, by path and by method.
    expect(contractRouteOf({ method: 'GET', path: '/drive/v1/tasks/abc' })).toBe('getTask');
    expect(contractRouteOf({ method: 'GET', path: '/drive/v1/not-a-route' })).toBeNull();
    expect(contractRouteOf({ method: 'PUT', path: '/v1/auth/token' })).toBeNull();
    const named = calls.map((c) => ({ ...c, route: contractRouteOf(c) }));
    expect(named.filter((c) => !c.route)).toEqual([]);
    const used = new Set(named.filter((c) => c.method !== 'OPTIONS').map((c) => c.route));
    // The calls were seen at all: each part of the slice went through the server.
    for (const route of ['startDeviceLogin', 'refreshToken', 'getMe', 'listFiles', 'createFile', 'listTasks', 'revokeToken']) expect(used).toContain(route);
  });
});
