/** Uploads from the browser: files and folders, instant when the content is stored, pause, continue and cancel. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { createBLAKE3 } from 'hash-wasm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { type E2E, listView, rowNames, signUpInBrowser, startE2E, uploadStatus } from './harness.js';

let e2e: E2E;
let dir: string;
beforeAll(async () => {
  e2e = await startE2E();
  dir = mkdtempSync(join(tmpdir(), 'haul-e2e-up-'));
});
afterAll(async () => {
  await e2e?.close();
  rmSync(dir, { recursive: true, force: true });
});

const blake3 = async (b: Buffer) => {
  const h = await createBLAKE3();
  h.init();
  h.update(b);
  return h.digest('hex');
};

/** Every file of the signed-in user, straight from the API with the page's own token. */
async function serverFiles(page: Page): Promise<{ name: string; hash: string; size: string; parent_id: string; kind: string }[]> {
  return page.evaluate(async () => {
    const token = JSON.parse(localStorage.getItem('haul.session')!).state.session.accessToken;
    const res = await fetch('/drive/v1/files?parent_id=*&limit=500', { headers: { Authorization: `Bearer ${token}` } });
    return (await res.json()).files;
  });
}

describe('uploads', () => {
  it('uploads files, and the same content again instantly without sending its bytes', async () => {
    const { page } = await e2e.newPage();
    await signUpInBrowser(page);
    await listView(page);
    const a = randomBytes(300_000);
    const b = Buffer.from('hello from the browser\n');
    const patches: string[] = [];
    page.on('request', (r) => r.method() === 'PATCH' && r.url().includes('/drive/v1/uploads/') && patches.push(r.url()));
    // Hashing runs in a Web Worker, off the page's main thread.
    const workers: string[] = [];
    page.on('worker', (w) => workers.push(w.url()));

    await page.getByTestId('upload-files').setInputFiles([
      { name: 'random.bin', mimeType: 'application/octet-stream', buffer: a },
      { name: 'hello.txt', mimeType: 'text/plain', buffer: b },
    ]);
    await expect.poll(() => uploadStatus(page, 'random.bin'), { timeout: 20_000 }).toBe('UPLOAD_TASK_COMPLETE');
    await expect.poll(() => uploadStatus(page, 'hello.txt'), { timeout: 20_000 }).toBe('UPLOAD_TASK_COMPLETE');
    await expect.poll(() => rowNames(page), { timeout: 10_000 }).toEqual(expect.arrayContaining(['random.bin', 'hello.txt']));
    const files = await serverFiles(page);
    expect(files.find((f) => f.name === 'random.bin')).toMatchObject({ size: String(a.length), hash: await blake3(a) });
    expect(files.find((f) => f.name === 'hello.txt')).toMatchObject({ hash: await blake3(b) });
    expect(patches.length).toBeGreaterThanOrEqual(2);
    expect(workers.some((u) => u.includes('hash.worker'))).toBe(true);

    // The same bytes under another name: created from the stored content, no bytes sent.
    patches.length = 0;
    await page.getByTestId('upload-files').setInputFiles([{ name: 'copy of random.bin', mimeType: 'application/octet-stream', buffer: a }]);
    await expect.poll(() => uploadStatus(page, 'copy of random.bin'), { timeout: 20_000 }).toBe('UPLOAD_TASK_COMPLETE');
    expect(patches).toEqual([]);
    await expect.poll(() => rowNames(page), { timeout: 10_000 }).toContain('copy of random.bin');

    // The same file for the same folder again: asked first. Skip adds nothing; keep both uploads a second copy.
    const again = [{ name: 'hello.txt', mimeType: 'text/plain', buffer: b }];
    await page.getByTestId('upload-files').setInputFiles(again);
    await page.getByRole('dialog', { name: '1 file was uploaded here before' }).getByRole('button', { name: 'Skip' }).click();
    await page.waitForTimeout(1500);
    expect((await serverFiles(page)).filter((f) => f.name.startsWith('hello')).length).toBe(1);
    await page.getByTestId('upload-files').setInputFiles(again);
    await page.getByRole('dialog').getByRole('button', { name: 'Keep both' }).click();
    await expect
      .poll(async () => (await serverFiles(page)).filter((f) => f.name.startsWith('hello')).map((f) => f.hash))
      .toEqual([await blake3(b), await blake3(b)]);
  });

  it('uploads a whole folder into a matching folder tree', async () => {
    const { page } = await e2e.newPage();
    await signUpInBrowser(page);
    await listView(page);
    const root = join(dir, 'Trip');
    mkdirSync(join(root, 'day 1'), { recursive: true });
    writeFileSync(join(root, 'plan.txt'), 'plan');
    writeFileSync(join(root, 'day 1', 'beach.jpg'), randomBytes(2000));
    writeFileSync(join(root, 'day 1', 'notes.txt'), 'notes');
    await page.getByTestId('upload-folder').setInputFiles(root);
    await expect.poll(async () => (await serverFiles(page)).filter((f) => f.kind === 'drive#file').length, { timeout: 20_000 }).toBe(3);
    const all = await serverFiles(page);
    const trip = all.find((f) => f.name === 'Trip' && f.kind === 'drive#folder')!;
    const day1 = all.find((f) => f.name === 'day 1')!;
    expect(trip.parent_id).toBe('');
    expect(day1.parent_id).toBe((trip as unknown as { id: string }).id);
    expect(
      all
        .filter((f) => f.parent_id === (day1 as unknown as { id: string }).id)
        .map((f) => f.name)
        .sort(),
    ).toEqual(['beach.jpg', 'notes.txt']);
    await expect.poll(() => rowNames(page)).toEqual(['Trip']);
  });

  it('uploads a folder tree dropped from the desktop into a matching tree', async () => {
    const { page } = await e2e.newPage();
    await signUpInBrowser(page);
    await listView(page);
    const root = join(dir, 'Album');
    mkdirSync(join(root, 'side b', 'demos'), { recursive: true });
    const cover = randomBytes(3000);
    writeFileSync(join(root, 'cover.jpg'), cover);
    writeFileSync(join(root, 'side b', 'track 1.txt'), 'one');
    writeFileSync(join(root, 'side b', 'demos', 'take 2.txt'), 'two');
    // A drop as the desktop delivers it: Chromium's input domain with the folder's path, so the page reads a real
    // DataTransfer (webkitGetAsEntry, emptied once the event is over), not one built by the test.
    const cdp = await page.context().newCDPSession(page);
    const box = (await page.getByText('This folder is empty').boundingBox())!;
    const at = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    const data = { items: [], files: [root], dragOperationsMask: 1 };
    for (const type of ['dragEnter', 'dragOver', 'drop'] as const) await cdp.send('Input.dispatchDragEvent', { type, ...at, data });

    await expect.poll(async () => (await serverFiles(page)).filter((f) => f.kind === 'drive#file').length, { timeout: 20_000 }).toBe(3);
    const all = (await serverFiles(page)) as unknown as { id: string; name: string; kind: string; parent_id: string; hash: string }[];
    const child = (parentId: string, name: string) => all.find((f) => f.parent_id === parentId && f.name === name);
    const album = child('', 'Album')!;
    expect(album.kind).toBe('drive#folder');
    expect(child(album.id, 'cover.jpg')?.hash).toBe(await blake3(cover));
    const sideB = child(album.id, 'side b')!;
    expect(sideB.kind).toBe('drive#folder');
    expect(child(sideB.id, 'track 1.txt')?.kind).toBe('drive#file');
    const demos = child(sideB.id, 'demos')!;
    expect(child(demos.id, 'take 2.txt')?.hash).toBe(await blake3(Buffer.from('two')));
    expect(all).toHaveLength(6);
    await expect.poll(() => rowNames(page)).toEqual(['Album']);
  });

  it('completes at once for a second account uploading the same bytes, without sending them', async () => {
    const content = randomBytes(700_000);
    const first = (await e2e.newPage()).page;
    await signUpInBrowser(first);
    await listView(first);
    await first.getByTestId('upload-files').setInputFiles([{ name: 'original.bin', mimeType: 'application/octet-stream', buffer: content }]);
    await expect.poll(() => uploadStatus(first, 'original.bin'), { timeout: 20_000 }).toBe('UPLOAD_TASK_COMPLETE');

    // Another person, in a browser of their own.
    const { page } = await e2e.newPage();
    await signUpInBrowser(page);
    await listView(page);
    const patches: string[] = [];
    page.on('request', (r) => r.method() === 'PATCH' && r.url().includes('/drive/v1/uploads/') && patches.push(r.url()));
    await page.getByTestId('upload-files').setInputFiles([{ name: 'mine.bin', mimeType: 'application/octet-stream', buffer: content }]);
    await expect.poll(() => uploadStatus(page, 'mine.bin'), { timeout: 20_000 }).toBe('UPLOAD_TASK_COMPLETE');
    expect(patches).toEqual([]);
    const files = await serverFiles(page);
    expect(files.map((f) => f.name)).toEqual(['mine.bin']);
    expect(files[0]).toMatchObject({ size: String(content.length), hash: await blake3(content) });
    expect((await serverFiles(first)).map((f) => f.name)).toEqual(['original.bin']);
  });

  it('continues an upload after a reload, once the file is picked again, from where the server stopped', async () => {
    const { page } = await e2e.newPage();
    // Leaving while bytes are on their way asks first: this person means it.
    page.on('dialog', (d) => void d.accept());
    await signUpInBrowser(page);
    await listView(page);
    const size = 60 * 1024 * 1024;
    const content = randomBytes(size);
    const path = join(dir, 'holiday.mp4');
    writeFileSync(path, content);
    const patches: number[] = [];
    page.on('request', (r) => r.method() === 'PATCH' && r.url().includes('/drive/v1/uploads/') && patches.push(Number(r.headers()['upload-offset'])));
    // A slow uplink (4 MB/s), so the reload lands mid-way.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 4 * 1024 * 1024 });
    await page.getByTestId('upload-files').setInputFiles(path);
    // The second 16 MiB PATCH is under way: the server holds the first and part of the second.
    await expect.poll(() => patches.some((o) => o >= 16 * 1024 * 1024), { timeout: 30_000 }).toBe(true);
    await page.waitForTimeout(1500);
    await page.reload();

    // After the reload the task waits, paused, for its file.
    await page.getByRole('complementary', { name: 'Transfers' }).getByRole('button', { expanded: false }).click();
    await expect.poll(() => uploadStatus(page, 'holiday.mp4')).toBe('UPLOAD_TASK_PAUSE');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    const before = patches.length;
    await page.getByTestId('upload-files').setInputFiles(path);
    await expect.poll(() => uploadStatus(page, 'holiday.mp4'), { timeout: 60_000 }).toBe('UPLOAD_TASK_COMPLETE');

    const after = patches.slice(before);
    expect(after.length).toBeGreaterThan(0);
    // It went on from the server's offset: what was sent after the reload is less than the file.
    expect(after[0]).toBeGreaterThan(16 * 1024 * 1024);
    expect(size - after[0]!).toBeLessThan(size);
    const files = await serverFiles(page);
    expect(files.map((f) => f.name)).toEqual(['holiday.mp4']);
    expect(files[0]).toMatchObject({ size: String(size), hash: await blake3(content) });
  }, 120_000);

  it('pauses and continues an upload where it stopped, and cancels another', async () => {
    const { page } = await e2e.newPage();
    await signUpInBrowser(page);
    await listView(page);
    // Slow every chunk down so there is time to pause mid-way.
    await page.route('**/drive/v1/uploads/**', async (route) => {
      if (route.request().method() === 'PATCH') await new Promise((r) => setTimeout(r, 1500));
      await route.continue();
    });
    const big = randomBytes(24 * 1024 * 1024); // two tus chunks
    // Picked from disk, as a person does: 24 MB handed over as bytes took over 30 s through the browser's protocol
    // on a busy machine.
    writeFileSync(join(dir, 'big.bin'), big);
    await page.getByTestId('upload-files').setInputFiles(join(dir, 'big.bin'));
    await expect.poll(() => uploadStatus(page, 'big.bin'), { timeout: 30_000 }).toBe('TRANSMISSION');
    // Leaving while bytes are on their way asks first.
    const asked = page.waitForEvent('dialog').then(async (d) => {
      const type = d.type();
      await d.dismiss();
      return type;
    });
    await page.close({ runBeforeUnload: true });
    expect(await asked).toBe('beforeunload');
    await page.getByRole('tab', { name: /^Uploading/ }).click();
    await page.getByRole('button', { name: 'Pause: big.bin' }).click();
    await expect.poll(() => uploadStatus(page, 'big.bin')).toBe('UPLOAD_TASK_PAUSE');
    const paused = Number(await page.getByRole('progressbar', { name: 'big.bin' }).getAttribute('aria-valuenow'));
    await page.getByRole('tab', { name: /^Uploading/ }).click();
    await page.getByRole('button', { name: 'Continue: big.bin' }).click();
    await expect.poll(() => uploadStatus(page, 'big.bin'), { timeout: 60_000 }).toBe('UPLOAD_TASK_COMPLETE');
    expect(paused).toBeLessThan(100);
    const files = await serverFiles(page);
    expect(files.find((f) => f.name === 'big.bin')).toMatchObject({ size: String(big.length), hash: await blake3(big) });

    writeFileSync(join(dir, 'unwanted.bin'), randomBytes(24 * 1024 * 1024));
    await page.getByTestId('upload-files').setInputFiles(join(dir, 'unwanted.bin'));
    await expect.poll(() => uploadStatus(page, 'unwanted.bin'), { timeout: 30_000 }).toBe('TRANSMISSION');
    await page.getByRole('tab', { name: /^Uploading/ }).click();
    await page.getByRole('button', { name: 'Cancel upload: unwanted.bin' }).click();
    await expect.poll(() => page.getByRole('listitem', { name: 'unwanted.bin' }).count()).toBe(0);
    await page.waitForTimeout(2000);
    expect((await serverFiles(page)).map((f) => f.name)).not.toContain('unwanted.bin');
  }, 120_000);
  it('tries a passing failure again, fails a refusal at once, and opens the limit dialog for a limit', async () => {
    const { page } = await e2e.newPage();
    await signUpInBrowser(page);
    await listView(page);
    // The first creation of flaky.bin meets a busy server; tried again 3 s later, it goes through.
    let creations = 0;
    await page.route('**/drive/v1/files', async (route) => {
      const req = route.request();
      if (req.method() === 'POST' && (req.postDataJSON() as { name?: string }).name === 'flaky.bin' && creations++ === 0) {
        return route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: 'service_unavailable', error_description: 'Busy.' }) });
      }
      await route.continue();
    });
    await page.getByTestId('upload-files').setInputFiles([{ name: 'flaky.bin', mimeType: 'application/octet-stream', buffer: randomBytes(1000) }]);
    await expect.poll(() => uploadStatus(page, 'flaky.bin'), { timeout: 30_000 }).toBe('UPLOAD_TASK_COMPLETE');
    expect(creations).toBe(2);

    // The bytes refused outright: the task fails with the server's words, and nothing is sent again.
    let refusal = { error: 'permission_denied', error_description: 'This upload is not allowed.' };
    const patches: string[] = [];
    await page.route('**/drive/v1/uploads/**', async (route) => {
      if (route.request().method() !== 'PATCH') return route.continue();
      patches.push(route.request().url());
      await route.fulfill({ status: 403, contentType: 'application/json', body: JSON.stringify(refusal) });
    });
    await page.getByTestId('upload-files').setInputFiles([{ name: 'refused.bin', mimeType: 'application/octet-stream', buffer: randomBytes(1000) }]);
    await expect.poll(() => uploadStatus(page, 'refused.bin'), { timeout: 30_000 }).toBe('UPLOAD_TASK_FAILED');
    expect(patches).toHaveLength(1);
    expect(await page.getByRole('listitem', { name: 'refused.bin' }).textContent()).toContain('This upload is not allowed.');

    // A limit met while sending fails the task at once and says which limit.
    refusal = { error: 'monthly_upload_size_exceeded', error_description: "This month's upload allowance is used up." };
    await page.getByTestId('upload-files').setInputFiles([{ name: 'limited.bin', mimeType: 'application/octet-stream', buffer: randomBytes(1000) }]);
    await page.getByRole('dialog', { name: 'Monthly upload limit reached' }).waitFor({ timeout: 30_000 });
    await page.keyboard.press('Escape');
    expect(await uploadStatus(page, 'limited.bin')).toBe('UPLOAD_TASK_FAILED');
    expect(patches).toHaveLength(2);
  }, 120_000);

  it("tells a free account about files of 4 GB or more first, and shows the server's refusal when sent anyway", async () => {
    const { page } = await e2e.newPage();
    await signUpInBrowser(page);
    // A 4 GiB + 1 byte file made of one repeated 1 MiB part: the browser does not copy it, so it costs no memory.
    const pick = () =>
      page.evaluate(() => {
        const mb = new Blob([new Uint8Array(1024 * 1024)]);
        const file = new File([...Array<Blob>(4096).fill(mb), new Blob(['x'])], 'huge.iso', { type: 'application/octet-stream' });
        const dt = new DataTransfer();
        dt.items.add(file);
        const input = document.querySelector<HTMLInputElement>('[data-testid=upload-files]')!;
        input.files = dt.files;
        input.dispatchEvent(new Event('change', { bubbles: true }));
      });
    await page.getByTestId('upload-files').waitFor({ state: 'attached' });
    await pick();
    const dialog = page.getByRole('dialog', { name: '1 file is 4 GB or larger' });
    await dialog.getByRole('button', { name: 'Close' }).first().click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    expect(await page.getByRole('listitem', { name: 'huge.iso' }).count()).toBe(0);

    await pick();
    await dialog.getByRole('button', { name: 'Upload anyway' }).click();
    await expect.poll(() => uploadStatus(page, 'huge.iso'), { timeout: 30_000 }).toBe('UPLOAD_TASK_FAILED');
    expect(await page.getByRole('listitem', { name: 'huge.iso' }).textContent()).toContain('files this large need a premium plan');
  });
});
