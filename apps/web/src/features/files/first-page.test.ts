import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PHASE } from '@haul/shared/plain';
import type { DriveFile, FileList } from '@haul/shared';
import type { Session } from '@haul/client';
import { useSessionStore } from '../auth/session-store';
import { clearStoredRows, storedIds } from '../sync/stored-rows.test-support';
import { SyncEngine } from '../sync/sync-engine';
import { FIRST_PAGE_MAX_AGE_MS } from './first-page';
import { listFiles } from './files-api';

/** The early script of the built page's source, run as the browser runs it: before any of the app. */
const html = readFileSync(resolve(import.meta.dirname, '../../../index.html'), 'utf8');
const earlyScript = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!).find((s) => s.includes('__haulFirstPage'))!;
function openPage(path: string) {
  window.history.replaceState(null, '', path);
  new Function(earlyScript)();
}

const HOUR = 3_600_000;
const session = (name: string, userId = 'u1', expiresIn = HOUR): Session => ({
  accessToken: `access-${name}`,
  refreshToken: `refresh-${name}`,
  expiresAt: Date.now() + expiresIn,
  userId,
});
const row = (id: string, parent: string, user = 'u1') =>
  ({
    id,
    parent_id: parent,
    name: id,
    user_id: user,
    kind: 'drive#file',
    star: 0,
    trashed: false,
    phase: PHASE.COMPLETE,
    params: {},
  }) as DriveFile;
const list = (...files: DriveFile[]): FileList => ({
  kind: 'drive#fileList',
  files,
  next_page_token: '',
  sync_time: '2026-11-24T00:00:00Z',
});

/** A server whose answer to each listing depends on the folder asked and the token: sent requests are recorded. */
let sent: { url: string; auth: string }[];
let refuse: (url: string) => boolean;
function serve() {
  sent = [];
  refuse = () => false;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const auth = (init.headers as Record<string, string>).Authorization ?? '';
      sent.push({ url, auth });
      if (refuse(url)) return new Response('{"error":"internal"}', { status: 500, headers: { 'Content-Type': 'application/json' } });
      const parent = new URL(url, 'http://x').searchParams.get('parent_id')!;
      const user = auth.endsWith('-other') ? 'u2' : 'u1';
      return new Response(JSON.stringify(list(row(`${user}-${parent}-1`, parent, user))), {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
}
const folderPage = (parentId: string) => listFiles({ parentId, limit: 500 });
const names = (l: FileList) => l.files.map((f) => f.id);

beforeEach(async () => {
  localStorage.clear();
  delete window.__haulFirstPage;
  useSessionStore.getState().signIn(session('a'));
  await clearStoredRows();
  serve();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the first page asked for by index.html', () => {
  it('is the request the folder sync makes: the sync takes it instead of asking again, once', async () => {
    openPage('/drive/all/F1');
    expect(sent).toEqual([{ url: expect.stringContaining('parent_id=F1'), auth: 'Bearer access-a' }]);
    const engine = new SyncEngine('u1', { list: listFiles, storage: localStorage });
    await engine.syncFolder('F1');
    expect(sent).toHaveLength(1);
    expect(await storedIds()).toEqual(['u1-F1-1']);
    // Taken once: the same request again goes to the server.
    expect(names(await folderPage('F1'))).toEqual(['u1-F1-1']);
    expect(sent).toHaveLength(2);
  });

  it('covers the root of All files, whatever the address says it', async () => {
    for (const path of ['/drive', '/drive/', '/drive/all', '/drive/all/']) {
      delete window.__haulFirstPage;
      sent = [];
      openPage(path);
      expect(names(await folderPage(''))).toEqual(['u1--1']);
      expect(sent).toHaveLength(1);
    }
  });

  it('is not used for another folder, and is left for its own', async () => {
    openPage('/drive/all/F1');
    expect(names(await folderPage('F2'))).toEqual(['u1-F2-1']);
    expect(sent.map((s) => s.url)).toEqual([expect.stringContaining('parent_id=F1'), expect.stringContaining('parent_id=F2')]);
    expect(names(await folderPage('F1'))).toEqual(['u1-F1-1']);
    expect(sent).toHaveLength(2);
  });

  it('is dropped when the app holds another token: another account’s rows are never shown', async () => {
    openPage('/drive/all/F1');
    useSessionStore.getState().signIn(session('other', 'u2'));
    expect(names(await folderPage('F1'))).toEqual(['u2-F1-1']);
    expect(sent.map((s) => s.auth)).toEqual(['Bearer access-a', 'Bearer access-other']);
    expect(window.__haulFirstPage).toBeUndefined();
  });

  it('falls back to the app’s own request when it failed', async () => {
    refuse = () => sent.length === 1;
    openPage('/drive/all/F1');
    expect(names(await folderPage('F1'))).toEqual(['u1-F1-1']);
    expect(sent).toHaveLength(2);

    vi.stubGlobal('fetch', vi.fn().mockRejectedValueOnce(new TypeError('Failed to fetch')));
    openPage('/drive/all/F1');
    serve();
    expect(names(await folderPage('F1'))).toEqual(['u1-F1-1']);
    expect(sent).toHaveLength(1);
  });

  it('is asked for again when it is stale', async () => {
    openPage('/drive/all/F1');
    const now = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(now + FIRST_PAGE_MAX_AGE_MS + 1);
    await folderPage('F1');
    expect(sent).toHaveLength(2);
  });

  it('is not asked for where the app would not ask for it', () => {
    openPage('/drive/trash');
    openPage('/drive/all/F1?k=v'); // a search
    openPage('/drive/all/..%2Fx');
    localStorage.setItem('haul.sync.u1', JSON.stringify({ since: 't', folders: { F1: true } }));
    openPage('/drive/all/F1'); // whole in the local database
    localStorage.setItem('haul.sync.u1', JSON.stringify({ since: 't', fullAt: 1 }));
    openPage('/drive/all/F2');
    localStorage.removeItem('haul.sync.u1');
    useSessionStore.getState().signIn(session('a', 'u1', 30_000));
    openPage('/drive/all/F1'); // the app refreshes that token first
    useSessionStore.getState().signOut();
    openPage('/drive/all/F1');
    expect(sent).toEqual([]);
    expect(window.__haulFirstPage).toBeUndefined();
  });
});
