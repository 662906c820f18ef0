/** Starts a real Haul (SQLite, built web app) on a free port and a headless Chromium to drive it. */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { expect, onTestFinished, TestRunner } from 'vitest';
import { buildHaul, type Haul } from '../apps/server/src/app.js';
import { loadConfig, type Config } from '../apps/server/src/config.js';
import { placeFile } from '../apps/server/src/files/files.service.js';
import type { MailInbox } from '../apps/server/test/mail-inbox.js';
import { Readable } from 'node:stream';
import { createServer as createHttpServer, type RequestListener } from 'node:http';
import { createServer } from 'node:net';

export const CHROMIUM = process.env.HAUL_CHROMIUM ?? '/usr/bin/chromium';
const WEB_DIR = resolve(import.meta.dirname, '../apps/web/dist');

export interface E2E {
  haul: Haul;
  base: string;
  browser: Browser;
  newPage: (opts?: Parameters<Browser['newContext']>[0]) => Promise<{ page: Page; context: BrowserContext }>;
  /** The SMTP server the mail goes to, when started with `mail`. */
  inbox: MailInbox | null;
  /** Stores bytes as a file of the user's, as the end of an upload does. */
  seedFile: (userId: string, parentId: string, name: string, content: string | Buffer) => Promise<{ id: string }>;
  close: () => Promise<void>;
}

/** A port nothing listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => resolve(typeof addr === 'object' && addr ? addr.port : 0));
    });
  });
}

/** How a test file wants its server and browser. */
export interface E2EOptions {
  /** Pin links to the base URL (HAUL_PUBLIC_URL), as most files assume; false: links follow the address the page used. */
  pinPublicUrl?: boolean;
  /** More Chromium switches, e.g. --host-resolver-rules to open Haul under another name. */
  browserArgs?: string[];
  /** Mail through SMTP to a server in this process (`e2e.inbox`), so tests read the codes; sign-up then asks for one. */
  mail?: boolean;
  /** Server settings beyond the harness's own (a shorter device poll interval, sign-in providers). */
  config?: Partial<Config>;
}

export async function startE2E(opts: E2EOptions = {}): Promise<E2E> {
  if (!existsSync(CHROMIUM))
    throw new Error(`Chromium not found at ${CHROMIUM}: install it with "apt-get install -y chromium" (or set HAUL_CHROMIUM).`);
  if (!existsSync(join(WEB_DIR, 'index.html'))) throw new Error('The web app is not built: run "npm run build -w @haul/web" first.');
  const dataDir = mkdtempSync(join(tmpdir(), 'haul-e2e-'));
  // The public URL must be known before start (upload URLs are built from it), so pick the port first.
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // Loaded only when asked for: the other files need no SMTP server.
  const inbox = opts.mail ? new (await import('../apps/server/test/mail-inbox.js')).MailInbox() : null;
  await inbox?.start();
  const haul = await buildHaul(
    // Private networks allowed: the tests' link origins listen on loopback.
    {
      ...loadConfig({}),
      dataDir,
      databaseUrl: null,
      webDir: WEB_DIR,
      logLevel: 'silent',
      host: '127.0.0.1',
      port,
      publicUrl: base,
      publicUrlPinned: opts.pinPublicUrl ?? true,
      allowPrivateNetwork: true,
      torrentDht: false,
      // Every answer the app gets is checked against the contract; a breach answers 500 and the test sees it.
      checkResponses: true,
      // Tests make accounts as they need them; first-run setup has its own test (e2e/first-run-setup.e2e.ts).
      firstRunSetup: false,
      // Each browser test signs up new accounts: the guide would start on every one (guide.e2e.ts turns it on).
      beginnerGuide: false,
      ...(inbox ? { smtpUrl: inbox.url, mailFrom: 'Haul <haul@haul.test>' } : {}),
      ...opts.config,
    },
    { logger: false },
  );
  await haul.app.listen({ port, host: '127.0.0.1' });
  haul.offline.start();
  haul.media.start();
  haul.archives.start();
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      // Players start on open, as after the click that opened them; headless runs have no user to click.
      '--autoplay-policy=no-user-gesture-required',
      ...(opts.browserArgs ?? []),
    ],
  });
  const contexts: BrowserContext[] = [];
  // The page policy (CSP) must never have to refuse anything the app itself does: any refusal fails the file.
  const refused: string[] = [];
  return {
    haul,
    base,
    browser,
    inbox,
    newPage: async (opts) => {
      // No service worker: each fresh context would fetch the whole app shell to keep it, hundreds of times a run, for
      // nothing these tests look at; e2e/installed-app.e2e.ts runs the worker in a profile of its own.
      const context = await browser.newContext({ baseURL: base, locale: 'en-US', serviceWorkers: 'block', ...opts });
      contexts.push(context);
      // A browser opened inside a test closes when the test ends (one opened in a hook lives with the file): an open
      // app keeps syncing and polling, and a file's last tests ran 3-8x slower behind its first tests' pages.
      if (TestRunner.getCurrentTest()) onTestFinished(() => context.close().catch(() => undefined));
      const page = await context.newPage();
      page.on('console', (m) => {
        if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) refused.push(`${page.url()}: ${m.text()}`);
      });
      return { page, context };
    },
    seedFile: async (userId, parentId, name, content) => {
      const blob = await haul.ctx.blobs.put(Readable.from([Buffer.from(content)]));
      return placeFile(haul.ctx, userId, { parentId, name, hash: blob.hash, size: blob.size });
    },
    close: async () => {
      for (const c of contexts) await c.close().catch(() => undefined);
      await browser.close();
      await haul.close();
      await inbox?.stop();
      rmSync(dataDir, { recursive: true, force: true });
      if (refused.length) throw new Error(`The page policy refused what the app did:\n${refused.join('\n')}`);
    },
  };
}

let counter = 0;
/** A fresh email for each account a test creates. */
export const newEmail = () => `user${Date.now().toString(36)}${counter++}@example.com`;
export const PASSWORD = 'correct horse battery';

/** Signs up through the sign-in screen and waits for the drive. */
export async function signUpInBrowser(page: Page, email = newEmail(), password = PASSWORD): Promise<string> {
  await page.goto('/drive/login');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL('**/drive/all');
  return email;
}

/** Holds the page's GET requests to `path` (a slow network for that call) until the returned `release` is called. */
export async function holdRequests(page: Page, path: string): Promise<() => void> {
  let release = () => undefined as void;
  const held = new Promise<void>((r) => (release = r));
  await page.route(
    (url) => url.pathname === path,
    async (route) => {
      if (route.request().method() === 'GET') await held;
      await route.continue();
    },
  );
  return release;
}

/** Checks that `control` stays disabled while held requests wait, and is enabled once `release` lets them through. */
export async function disabledUntilReleased(control: Locator, release: () => void): Promise<void> {
  await control.waitFor();
  expect(await control.isDisabled()).toBe(true);
  release();
  await expect.poll(() => control.isEnabled()).toBe(true);
}

/** Signs in through the sign-in screen with the tests' password and waits for the drive. */
export async function signInBrowser(page: Page, email: string): Promise<void> {
  await page.goto('/drive/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL('**/drive/all');
}

/** The page is no wider than the window: nothing to scroll sideways. */
export const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

/** Calls the API as the page's signed-in person (the session the web app keeps); answers the parsed JSON. */
export const pageApi = (page: Page, method: string, path: string, body?: unknown) =>
  page.evaluate(
    async ({ method, path, body }) => {
      const token = JSON.parse(localStorage.getItem('haul.session')!).state.session.accessToken;
      const res = await fetch(path, {
        method,
        headers: { Authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body ? JSON.stringify(body) : undefined,
      });
      return res.json();
    },
    { method, path, body },
  );

/** The signed-in user's id, read from the session the web app keeps. */
export async function sessionUserId(page: Page): Promise<string> {
  return page.evaluate(() => JSON.parse(localStorage.getItem('haul.session') ?? '{}').state.session.userId as string);
}

/** Shares the items as a link that never expires, as the owner (the share dialog's call); with a pass code if given. */
export async function shareAsOwner(owner: Page, fileIds: string[], passCode?: string): Promise<string> {
  const args = { ids: fileIds, code: passCode };
  const res = await owner.evaluate(async ({ ids, code }) => {
    const token = JSON.parse(localStorage.getItem('haul.session') ?? '{}').state.session.accessToken as string;
    const r = await fetch('/drive/v1/share', {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ file_ids: ids, share_to: code ? 'encryptedlink' : 'publiclink', pass_code: code, expiration_days: -1 }),
    });
    return { status: r.status, body: (await r.json()) as { share_id: string } };
  }, args);
  expect(res.status).toBe(200);
  return res.body.share_id;
}

/** Switches the file view to the list (rows are easier to address than cards); waits for the screen first. */
export async function listView(page: Page): Promise<void> {
  const toggle = page.getByRole('button', { name: /^(List view|Grid view)$/ });
  await toggle.first().waitFor();
  if ((await toggle.first().getAttribute('aria-label')) === 'List view') await toggle.first().click();
  const list = page.getByRole('button', { name: 'Grid view' });
  // The view is a setting kept on the account: a sync arriving just after the click may set the grid back. Once more.
  if (!(await list.waitFor({ timeout: 5_000 }).then(() => true, () => false))) {
    if ((await toggle.first().getAttribute('aria-label')) === 'List view') await toggle.first().click();
    await list.waitFor();
  }
}

/** Names of the files the list shows, in order: its rows with an item, not the row of column titles. */
export function rowNames(page: Page): Promise<string[]> {
  return page
    .getByRole('row')
    .and(page.locator('[data-item]'))
    .evaluateAll((rows) => rows.map((r) => r.getAttribute('aria-label') ?? ''));
}

/** An upload's status in the transfer list (data-status), looking in both tabs; null when it is in neither. */
export async function uploadStatus(page: Page, name: string): Promise<string | null> {
  for (const tab of ['Uploading', 'Completed']) {
    await page.getByRole('tab', { name: new RegExp(`^${tab}`) }).click();
    const item = page.getByRole('listitem', { name, exact: true });
    if (await item.count()) return item.locator('[data-status]').getAttribute('data-status');
  }
  return null;
}

/** Opens an entry of the account menu. */
export async function fromAccountMenu(page: Page, item: string): Promise<void> {
  await page.getByRole('button', { name: 'Account' }).click();
  await page.getByRole('menuitem', { name: item }).click();
}

/** Picks one of the "+ New" menu's entries (Cloud download, Upload files, Upload folder, New folder). */
export async function addNew(page: Page, entry: 'Cloud download' | 'Upload files' | 'Upload folder' | 'New folder'): Promise<void> {
  await page.getByRole('button', { name: 'New', exact: true }).click();
  await page.getByRole('menuitem', { name: entry }).click();
}

/** A link origin on loopback that answers 404 to everything: what a cloud download that fails fetches from. */
export async function goneOrigin(): Promise<{ url: string; close: () => Promise<void> }> {
  const origin = await linkOrigin((_req, res) => res.writeHead(404).end());
  return { url: `${origin.base}/gone.iso`, close: origin.close };
}

/** A link origin on loopback answering with `handler`: its base address, and how to close it. */
export async function linkOrigin(handler: RequestListener): Promise<{ base: string; close: () => Promise<void> }> {
  const server = createHttpServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    base: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Rows of the user in this browser's copy of the drive (IndexedDB `drive`: the ids records of the user's chunks). */
export const localRows = (page: Page, userId: string) =>
  page.evaluate(
    (uid) =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('drive');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          // A user's chunks are the keys from [user] up to [user, []].
          const read = open.result.transaction('chunk_ids').objectStore('chunk_ids').getAll(IDBKeyRange.bound([uid], [uid, []]));
          read.onsuccess = () => {
            open.result.close();
            resolve((read.result as { ids: string }[]).reduce((n, c) => n + (c.ids ? c.ids.split('\n').length : 0), 0));
          };
          read.onerror = () => reject(read.error);
        };
      }),
    userId,
  );

/**
 * Waits until the open folder's list (list view) holds all `files` of its files: the grid's aria-rowcount, which
 * counts its header row too. Files seeded behind the page's back arrive by the next sync, so a list may show some first.
 */
export async function folderWhole(page: Page, name: string, files: number): Promise<void> {
  await expect.poll(() => page.getByRole('grid', { name }).getAttribute('aria-rowcount'), { timeout: 30_000 }).toBe(String(files + 1));
}

/** The open viewer (the dialog with the file counter). */
export const viewer = (page: Page) => page.getByRole('dialog', { name: /.+/ }).filter({ has: page.getByTestId('viewer-count') });
