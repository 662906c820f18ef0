/** Uploading names that are already taken in the folder: asked once for the batch (replace, keep both, skip, cancel). */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { type E2E, listView, rowNames, signUpInBrowser, startE2E } from './harness.js';

let e2e: E2E;
let dir: string;
beforeAll(async () => {
  e2e = await startE2E();
  dir = mkdtempSync(join(tmpdir(), 'haul-e2e-clash-'));
});
afterAll(async () => {
  await e2e?.close();
  rmSync(dir, { recursive: true, force: true });
});

type ServerFile = { id: string; name: string; parent_id: string; kind: string; trashed: boolean; web_content_link?: string };

/** The page's own API calls, with its token. */
function api<T>(page: Page, path: string): Promise<T> {
  return page.evaluate(async (p) => {
    const token = JSON.parse(localStorage.getItem('haul.session')!).state.session.accessToken;
    return (await fetch(p, { headers: { Authorization: `Bearer ${token}` } })).json();
  }, path);
}
const live = (page: Page) => api<{ files: ServerFile[] }>(page, '/drive/v1/files?parent_id=*&limit=500').then((r) => r.files);
const trash = (page: Page) =>
  api<{ files: ServerFile[] }>(page, `/drive/v1/files?parent_id=*&filters=${encodeURIComponent('{"trashed":{"eq":true}}')}`).then((r) => r.files);
/** The bytes of the live file of this name at the top level. */
async function textOf(page: Page, name: string): Promise<string> {
  const file = (await live(page)).find((f) => f.name === name && f.parent_id === '')!;
  const link = (await api<ServerFile>(page, `/drive/v1/files/${file.id}`)).web_content_link!;
  return page.evaluate(async (url) => (await fetch(url)).text(), link);
}
const text = (name: string, body: string) => ({ name, mimeType: 'text/plain', buffer: Buffer.from(body) });
const upload = (page: Page, files: ReturnType<typeof text>[]) => page.getByTestId('upload-files').setInputFiles(files);
const topNames = async (page: Page) => (await live(page)).filter((f) => f.parent_id === '').map((f) => f.name).sort();

describe('name clashes on upload', () => {
  it('asks once for the batch, naming the clashing files; replace, keep both, skip and cancel each do what they say', async () => {
    const { page } = await e2e.newPage();
    await signUpInBrowser(page);
    await listView(page);
    await upload(page, [text('b.jpg', 'first b'), text('notes.txt', 'first notes')]);
    await expect.poll(() => rowNames(page), { timeout: 20_000 }).toEqual(expect.arrayContaining(['b.jpg', 'notes.txt']));
    const oldB = (await live(page)).find((f) => f.name === 'b.jpg')!;

    // Replace: the new content takes the name; the old file is in the trash.
    await upload(page, [text('b.jpg', 'second b!'), text('notes.txt', 'second notes!'), text('new.txt', 'new')]);
    const dialog = page.getByRole('dialog', { name: '2 files have the same names as files here' });
    await dialog.waitFor();
    expect(await dialog.getByRole('listitem').allTextContents()).toEqual(['b.jpg', 'notes.txt']);
    await dialog.getByRole('button', { name: 'Replace' }).click();
    await expect.poll(() => topNames(page), { timeout: 20_000 }).toEqual(['b.jpg', 'new.txt', 'notes.txt']);
    await expect.poll(() => textOf(page, 'b.jpg'), { timeout: 20_000 }).toBe('second b!');
    expect(await textOf(page, 'notes.txt')).toBe('second notes!');
    expect((await trash(page)).map((f) => f.id)).toContain(oldB.id);
    await expect.poll(() => rowNames(page), { timeout: 10_000 }).toEqual(expect.arrayContaining(['b.jpg', 'new.txt', 'notes.txt']));

    // Keep both: a number is added to the new one's name.
    await upload(page, [text('b.jpg', 'third b, kept')]);
    await page.getByRole('dialog', { name: '1 file has the same name as a file here' }).getByRole('button', { name: 'Keep both' }).click();
    await expect.poll(() => topNames(page), { timeout: 20_000 }).toEqual(['b (1).jpg', 'b.jpg', 'new.txt', 'notes.txt']);
    expect(await textOf(page, 'b.jpg')).toBe('second b!');

    // Skip: the clashing file is left out, the others go.
    await upload(page, [text('new.txt', 'skipped new'), text('other.txt', 'other')]);
    await page.getByRole('dialog', { name: '1 file has the same name as a file here' }).getByRole('button', { name: 'Skip' }).click();
    await expect.poll(() => topNames(page), { timeout: 20_000 }).toEqual(['b (1).jpg', 'b.jpg', 'new.txt', 'notes.txt', 'other.txt']);
    expect(await textOf(page, 'new.txt')).toBe('new');

    // Cancel: nothing of the batch is uploaded.
    await upload(page, [text('other.txt', 'cancelled other'), text('never.txt', 'never')]);
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await page.waitForTimeout(1500);
    expect(await topNames(page)).toEqual(['b (1).jpg', 'b.jpg', 'new.txt', 'notes.txt', 'other.txt']);

    // Many clashes: a short list and how many more.
    const many = Array.from({ length: 7 }, (_, i) => text(`m${i}.txt`, `m${i}`));
    await upload(page, many);
    await expect.poll(() => topNames(page), { timeout: 20_000 }).toContain('m6.txt');
    await upload(page, many.map((f) => text(f.name, `${f.buffer} again`)));
    const seven = page.getByRole('dialog', { name: '7 files have the same names as files here' });
    await seven.waitFor();
    expect(await seven.getByRole('listitem').allTextContents()).toEqual(['m0.txt', 'm1.txt', 'm2.txt', 'm3.txt', 'm4.txt', 'and 2 more']);
    await seven.getByRole('button', { name: 'Cancel' }).click();
  });

  it('uploads a folder whose name is taken into a new folder with a suffix, and says so', async () => {
    const { page } = await e2e.newPage();
    await signUpInBrowser(page);
    await listView(page);
    const root = join(dir, 'Photos');
    mkdirSync(root, { recursive: true });
    writeFileSync(join(root, 'a.txt'), 'a');
    await page.getByTestId('upload-folder').setInputFiles(root);
    await expect.poll(() => rowNames(page), { timeout: 20_000 }).toEqual(['Photos']);
    await page.getByTestId('upload-folder').setInputFiles(root);
    const note = page.getByText(/A folder named “Photos” is already here, so the upload went into a new folder, “Photos \([0-9A-F]{4}\)”/);
    await note.waitFor({ timeout: 20_000 });
    const renamed = /“(Photos \([0-9A-F]{4}\))”/.exec((await note.textContent())!)![1]!;
    await expect.poll(async () => (await rowNames(page)).sort(), { timeout: 20_000 }).toEqual(['Photos', renamed].sort());
    // The files of the second pick went into the new folder, without asking: it was empty.
    await expect.poll(async () => (await live(page)).filter((f) => f.name === 'a.txt').length, { timeout: 20_000 }).toBe(2);
    expect(await page.getByRole('dialog').count()).toBe(0);
  });
});
