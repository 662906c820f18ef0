/**
 * Bookmarks from the browser extension: links pasted into the popup are kept for later ("Keep for later"), not
 * fetched; they show in the drive's Bookmarks with the extension as their source; every call the extension made is a
 * route of the contract. The extension is connected by storing a session, as device sign-in would leave it
 * (e2e/extension.e2e.ts walks device sign-in itself).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { toSession } from '@haul/client';
import { buildExtension, contractRouteOf, launchWithExtension, recordExtensionCalls, type LoadedExtension, type SeenCall } from './extension-harness.js';
import { newEmail, PASSWORD, startE2E, type E2E } from './harness.js';

let e2e: E2E;
let ext: LoadedExtension;
let calls: SeenCall[];
let tokens: TokenResponse;

async function api(method: string, path: string, body?: unknown) {
  const res = await fetch(e2e.base + path, {
    method,
    headers: { authorization: `Bearer ${tokens.access_token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return (await res.json()) as any;
}

beforeAll(async () => {
  const dist = buildExtension();
  e2e = await startE2E();
  calls = recordExtensionCalls(e2e.haul);
  const signUp = await fetch(`${e2e.base}/v1/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: newEmail(), password: PASSWORD }),
  });
  tokens = (await signUp.json()) as TokenResponse;
  ext = await launchWithExtension(dist);
  await ext.worker.evaluate((s) => chrome.storage.local.set(s), { server: e2e.base, session: toSession(tokens) });
}, 60_000);
afterAll(async () => {
  await ext?.close();
  await e2e?.close();
});

describe('bookmarks from the extension', () => {
  it('keeps pasted links for later without fetching them, through contract routes only', { timeout: 60_000 }, async () => {
    const popup = await ext.context.newPage();
    await popup.goto(`chrome-extension://${ext.id}/popup.html`);
    const box = popup.getByLabel('Links to fetch, one a line');
    await box.fill('https://example.com/later/one.iso\nmagnet:?xt=urn:btih:0123456789abcdef0123456789abcdef01234567&dn=Two\nnot a link');
    await popup.getByRole('button', { name: 'Keep for later' }).click();
    await popup.getByRole('status').filter({ hasText: "2 links kept in Haul's bookmarks, to fetch later." }).waitFor();
    // What was not a link stays in the box, to be put right.
    expect(await box.inputValue()).toBe('not a link');

    const { bookmarks } = await api('GET', '/drive/v1/bookmarks');
    expect(bookmarks.map((b: { name: string; kind: string; source: string }) => [b.name, b.kind, b.source])).toEqual([
      ['Two', 'magnet', 'extension'],
      ['one.iso', 'http', 'extension'],
    ]);
    expect((await api('GET', '/drive/v1/tasks?type=offline')).tasks).toEqual([]);

    const named = calls.map((c) => ({ ...c, route: contractRouteOf(c) }));
    expect(named.filter((c) => !c.route)).toEqual([]);
    expect(named.map((c) => c.route)).toContain('createBookmark');
  });
});
