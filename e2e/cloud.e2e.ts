/** Cloud downloads from the browser: paste a link, pick the folder, watch it, pause and continue it, find the file. */
import { createHash, randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Server as Tracker } from 'bittorrent-tracker';
import WebTorrent from 'webtorrent';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { spawnAria2Seeder } from '../apps/server/test/bt-peers.js';
import { addNew, listView, rowNames, signUpInBrowser, startE2E, type E2E, pageApi } from './harness.js';
import { ff, requireFfmpeg } from './media-fixtures.js';

/** An origin on loopback with Range and an ETag; `slow` sends 64 KiB every 100 ms so a download can be paused. */
function origin(content: Buffer) {
  const state = { slow: true };
  const server: Server = createServer((req, res) => {
    const range = /bytes=(\d+)-/.exec(req.headers.range ?? '');
    const start = range ? Number(range[1]) : 0;
    const body = content.subarray(start);
    res.writeHead(range ? 206 : 200, {
      'content-length': body.length,
      'content-type': 'application/octet-stream',
      etag: '"v1"',
      ...(range ? { 'content-range': `bytes ${start}-${content.length - 1}/${content.length}` } : {}),
    });
    if (!state.slow) return res.end(body);
    let at = 0;
    const timer = setInterval(() => {
      if (res.destroyed) return clearInterval(timer);
      const chunk = body.subarray(at, at + 65536);
      at += chunk.length;
      if (at >= body.length || !state.slow) {
        clearInterval(timer);
        res.end(Buffer.concat([chunk, body.subarray(at)]));
      } else res.write(chunk);
    }, 100);
  });
  return { server, state };
}

let e2e: E2E;
let tracker: InstanceType<typeof Tracker>;
let seeder: InstanceType<typeof WebTorrent>;
const seedDir = mkdtempSync(join(tmpdir(), 'haul-e2e-bt-'));
const content = randomBytes(4 * 1024 * 1024);
const { server, state } = origin(content);
let link: string;
beforeAll(async () => {
  requireFfmpeg();
  e2e = await startE2E();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  link = `http://127.0.0.1:${(server.address() as { port: number }).port}/films/movie.bin`;
  tracker = new Tracker({ udp: false, http: true, ws: false, stats: false });
  await new Promise<void>((r) => tracker.listen(0, '127.0.0.1', () => r()));
  seeder = new WebTorrent({ dht: false, lsd: false, utp: false, natUpnp: false, natPmp: false, tracker: { wrtc: false } });
});
afterAll(async () => {
  server.close();
  await new Promise<void>((r) => seeder.destroy(() => r()));
  await new Promise<void>((r) => tracker.close(() => r()));
  rmSync(seedDir, { recursive: true, force: true });
  await e2e?.close();
});

const api = pageApi;

const statusOf = (page: Page, name: string) =>
  page.getByRole('listitem', { name, exact: true }).locator('[data-status]').getAttribute('data-status');

describe('cloud download', () => {
  it('refuses lines that are not links, in the dialog, creating nothing', async () => {
    const { page } = await e2e.newPage();
    await signUpInBrowser(page);
    await addNew(page, 'Cloud download');
    await page.getByLabel('Links').fill(`${link}\nnot a link`);
    await page.getByRole('button', { name: 'Download', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('not a link');
    expect((await api(page, 'GET', '/drive/v1/tasks?type=offline')).tasks).toEqual([]);
  });

  it('fetches a link into the chosen folder, pauses and continues it, and shows the new file in its folder', async () => {
    const { page } = await e2e.newPage();
    await signUpInBrowser(page);
    await listView(page);
    const folder = (await api(page, 'POST', '/drive/v1/files', { kind: 'drive#folder', name: 'Films', parent_id: '' })).file;

    await addNew(page, 'Cloud download');
    await page.getByLabel('Links').fill(link);
    await page.getByRole('button', { name: 'Change' }).click();
    await page.getByRole('option', { name: 'Films' }).click();
    await expect.poll(() => page.locator('.cloud-target strong').textContent()).toBe('Films');
    await page.getByRole('button', { name: 'Download', exact: true }).click();
    await page.getByText('1 cloud download added').waitFor();
    await page.getByRole('button', { name: 'Show transfers' }).click();

    // The transfer list opens on the cloud tab with the task; its progress moves while it runs.
    await expect.poll(() => page.getByRole('tab', { name: /^Cloud download/ }).getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => statusOf(page, 'movie.bin'), { timeout: 15_000 }).toBe('PHASE_TYPE_RUNNING');
    const bar = page.getByRole('listitem', { name: 'movie.bin', exact: true }).getByRole('progressbar');
    await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow')), { timeout: 15_000 }).toBeGreaterThan(0);

    await page.getByRole('button', { name: 'Pause: movie.bin' }).click();
    await expect.poll(() => statusOf(page, 'movie.bin')).toBe('PHASE_TYPE_PAUSED');
    // Paused for real on the server: the task stays paused and its progress stops.
    await page.waitForTimeout(2500);
    const held = (await api(page, 'GET', '/drive/v1/tasks?type=offline')).tasks[0];
    expect(held.phase).toBe('PHASE_TYPE_PAUSED');
    expect(held.progress).toBeLessThan(100);

    state.slow = false;
    await page.getByRole('button', { name: 'Continue: movie.bin' }).click();
    await page.getByRole('tab', { name: /^Completed/ }).click();
    await expect.poll(() => statusOf(page, 'movie.bin'), { timeout: 20_000 }).toBe('PHASE_TYPE_COMPLETE');

    // The file is in the folder with the origin's bytes, and "show in folder" opens it there, selected.
    const done = (await api(page, 'GET', '/drive/v1/tasks?type=offline')).tasks[0];
    const file = await api(page, 'GET', `/drive/v1/files/${done.file_id}`);
    expect(file.parent_id).toBe(folder.id);
    const served = Buffer.from(await (await fetch(file.web_content_link)).arrayBuffer());
    expect(createHash('sha256').update(served).digest('hex')).toBe(createHash('sha256').update(content).digest('hex'));

    await page.getByRole('button', { name: 'Show in folder: movie.bin' }).click();
    await page.waitForURL(`**/drive/all/${folder.id}`);
    await expect.poll(() => rowNames(page)).toEqual(['movie.bin']);
    await expect.poll(() => page.getByRole('row', { name: 'movie.bin' }).getAttribute('aria-selected')).toBe('true');

    // Removing the finished task can take its file along.
    await page.getByRole('button', { name: 'Remove: movie.bin' }).click();
    await page.getByLabel('Also delete the downloaded file').check();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    await expect.poll(() => rowNames(page)).toEqual([]);
    // The list may drop the row before the removal's answer is in: the task list is read until it has gone too.
    await expect.poll(async () => (await api(page, 'GET', '/drive/v1/tasks?type=offline')).tasks).toEqual([]);
  });

  it("shows a torrent's files in the drive as each is done, before the torrent is", async () => {
    for (const tool of ['aria2c', 'mktorrent']) {
      if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) throw new Error(`${tool} is missing: apt-get install -y ${tool === 'aria2c' ? 'aria2' : tool}`);
    }
    const root = join(seedDir, 'early');
    const season = join(root, 'season');
    mkdirSync(season, { recursive: true });
    writeFileSync(join(season, 'e01.bin'), randomBytes(256 * 1024));
    writeFileSync(join(season, 'e02.bin'), randomBytes(10 * 1024 * 1024));
    const torrentPath = join(root, 'season.torrent');
    const announce = `http://127.0.0.1:${(tracker.http!.address() as { port: number }).port}/announce`;
    expect(spawnSync('mktorrent', ['-a', announce, '-l', '16', '-o', torrentPath, season]).status).toBe(0);
    // 1 MiB a second: the second file takes ~10 s, long after the first is whole.
    const aria = await spawnAria2Seeder(root, torrentPath, ['--max-overall-upload-limit=1M']);
    try {
      const { page } = await e2e.newPage();
      await signUpInBrowser(page);
      await listView(page);
      const made = await api(page, 'POST', '/drive/v1/files', { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_URL', torrent: readFileSync(torrentPath).toString('base64'), parent_id: '' });
      expect(made.task.name).toBe('season');
      // Added elsewhere (through the API): the next visit lists it.
      await page.reload();
      await page.getByRole('button', { name: /Downloading 1 item/ }).click();
      const row = page.getByRole('listitem', { name: 'season', exact: true });
      // The first file is in while the torrent still runs; the row says so and opens the folder.
      await expect.poll(() => row.textContent(), { timeout: 40_000 }).toContain('1 of 2 files in your drive');
      expect(await statusOf(page, 'season')).toBe('PHASE_TYPE_RUNNING');
      await row.getByRole('button', { name: 'Show in folder: season' }).click();
      await expect.poll(() => rowNames(page)).toEqual(['season']);
      await page.getByRole('row', { name: 'season' }).dblclick();
      await expect.poll(() => rowNames(page)).toContain('e01.bin');
      // The rest joins it in the same folder.
      await expect.poll(async () => (await rowNames(page)).sort(), { timeout: 40_000 }).toEqual(['e01.bin', 'e02.bin']);
    } finally {
      aria.kill('SIGKILL');
    }
  });

  it('plays a video of a torrent from the transfer list before the torrent is done', async () => {
    const root = join(seedDir, 'play');
    mkdirSync(root, { recursive: true });
    // ~10 MB of video (a steady 4 Mbit/s), its index first, as films are usually published.
    ff(
      ...['-f', 'lavfi', '-i', 'testsrc=size=640x360:rate=25', '-t', '20', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
      ...['-b:v', '4M', '-minrate', '4M', '-maxrate', '4M', '-bufsize', '8M', '-movflags', '+faststart', join(root, 'film.mp4')],
    );
    const torrentPath = join(seedDir, 'film.torrent');
    const announce = `http://127.0.0.1:${(tracker.http!.address() as { port: number }).port}/announce`;
    expect(spawnSync('mktorrent', ['-a', announce, '-l', '16', '-o', torrentPath, join(root, 'film.mp4')]).status).toBe(0);
    // 1 MiB a second: ~10 s for the whole film.
    const aria = await spawnAria2Seeder(root, torrentPath, ['--max-overall-upload-limit=1M']);
    try {
      const { page } = await e2e.newPage();
      await signUpInBrowser(page);
      const made = await api(page, 'POST', '/drive/v1/files', { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_URL', torrent: readFileSync(torrentPath).toString('base64'), parent_id: '' });
      await page.reload();
      await page.getByRole('button', { name: /Downloading 1 item/ }).click();
      await page.getByRole('button', { name: 'Play while it downloads: film.mp4' }).click({ timeout: 30_000 });
      const dialog = page.getByRole('dialog', { name: 'Play “film.mp4”' });
      const video = dialog.locator('video');
      // The first frame is on screen while the torrent still runs.
      await expect
        .poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState >= 2 && v.videoWidth), { timeout: 30_000 })
        .toBe(640);
      const now = (await api(page, 'GET', `/drive/v1/tasks/${made.task.id}`)) as { phase: string; progress: number };
      expect(now.phase).toBe('PHASE_TYPE_RUNNING');
      expect(now.progress).toBeLessThan(100);
    } finally {
      aria.kill('SIGKILL');
    }
  });

  it("reads a magnet link's files, keeps the chosen ones, and opens the finished folder", async () => {
    const album = join(seedDir, 'Album');
    mkdirSync(album, { recursive: true });
    writeFileSync(join(album, '01 intro.flac'), randomBytes(600_000));
    writeFileSync(join(album, '02 song.flac'), randomBytes(900_000));
    writeFileSync(join(album, 'cover.jpg'), randomBytes(50_000));
    const announce = `http://127.0.0.1:${(tracker.http!.address() as { port: number }).port}/announce`;
    const magnet = await new Promise<string>((r) => seeder.seed(album, { announce: [announce] }, (t) => r(t.magnetURI)));

    const { page } = await e2e.newPage();
    await signUpInBrowser(page);
    await listView(page);
    await addNew(page, 'Cloud download');
    await page.getByLabel('Links').fill(magnet);
    await page.getByRole('button', { name: 'Choose files' }).click();
    await page.getByRole('checkbox', { name: /cover\.jpg/ }).uncheck();
    await expect.poll(() => page.locator('.torrent-files legend').textContent()).toMatch(/2 of 3 files/);
    await page.getByRole('button', { name: 'Download', exact: true }).click();
    await page.getByText('1 cloud download added').waitFor();
    await page.getByRole('button', { name: 'Show transfers' }).click();

    await page.getByRole('tab', { name: /^Completed/ }).click();
    await expect.poll(() => statusOf(page, 'Album'), { timeout: 30_000 }).toBe('PHASE_TYPE_COMPLETE');
    await page.getByRole('button', { name: 'Show in folder: Album' }).click();
    await expect.poll(() => rowNames(page)).toEqual(['Album']);
    await expect.poll(() => page.getByRole('row', { name: 'Album' }).getAttribute('aria-selected')).toBe('true');
    await page.getByRole('row', { name: 'Album' }).dblclick();
    await expect.poll(async () => (await rowNames(page)).sort()).toEqual(['01 intro.flac', '02 song.flac']);
  });
});
