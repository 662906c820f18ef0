/**
 * The built-in engine's thread over its life: it starts with a job, downloads (an aria2c seeder on loopback, found
 * through a local tracker), ends once it has been idle for `idleMs`, and a later job starts a new one that downloads
 * as well. The files and their content hashes are checked each time, so a thread ended too early (before its clients
 * closed their files) or a piece lost on the way shows.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Server as Tracker } from 'bittorrent-tracker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BuiltinTorrentEngine } from '../src/offline/torrent-engine.js';
import { contentHashOf } from '../src/storage/content-hash.js';
import { spawnAria2Seeder } from './bt-peers.js';

const work = mkdtempSync(join(tmpdir(), 'haul-bt-thread-'));
const children: ChildProcess[] = [];
let tracker: InstanceType<typeof Tracker>;
let torrent: Buffer;
let content: Buffer;

async function until(ok: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  tracker = new Tracker({ udp: false, http: true, ws: false, stats: false });
  await new Promise<void>((r) => tracker.listen(0, '127.0.0.1', () => r()));
  const announce = `http://127.0.0.1:${(tracker.http!.address() as { port: number }).port}/announce`;
  const seedDir = join(work, 'seed');
  mkdirSync(seedDir);
  // 3 MB and a bit in 256 KiB pieces: many pieces, a short last one.
  content = randomBytes(3 * 1024 * 1024 + 12_345);
  writeFileSync(join(seedDir, 'data.bin'), content);
  const torrentPath = join(work, 'data.torrent');
  const made = spawnSync('mktorrent', ['-a', announce, '-l', '18', '-o', torrentPath, join(seedDir, 'data.bin')]);
  if (made.status !== 0) throw new Error(`mktorrent: ${made.stderr}`);
  torrent = readFileSync(torrentPath);
  children.push(await spawnAria2Seeder(seedDir, torrentPath));
});

afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await new Promise<void>((r) => tracker.close(() => r()));
  rmSync(work, { recursive: true, force: true });
});

describe(BuiltinTorrentEngine.name, { timeout: 90_000 }, () => {
  const sut = new BuiltinTorrentEngine({ dht: false, allowPrivateNetwork: true, idleMs: 300 });

  const fetchInto = async (name: string) => {
    const dir = join(work, name);
    const got = await sut.download({
      source: torrent,
      dir,
      fileIds: [],
      signal: AbortSignal.timeout(60_000),
      onMeta: async () => true,
      onProgress: () => {},
    });
    expect(got).not.toBeNull();
    const [file] = got!.files;
    expect(readFileSync(file!.diskPath).equals(content)).toBe(true);
    expect(file!.hash).toBe(await contentHashOf(content));
  };

  it('ends its thread once idle, and starts a new one for the next job', async () => {
    expect(sut.threadRunning).toBe(false);
    const first = fetchInto('first');
    expect(sut.threadRunning).toBe(true);
    await first;
    await until(() => !sut.threadRunning);

    const second = fetchInto('second');
    expect(sut.threadRunning).toBe(true);
    await second;
    await until(() => !sut.threadRunning);
  });

  it('keeps its thread while a job runs, however long past the idle time', async () => {
    const slow = new AbortController();
    // A magnet nobody seeds: the job waits for metadata well past idleMs, and the thread must stay for it.
    const waiting = sut.inspect(`magnet:?xt=urn:btih:${randomBytes(20).toString('hex')}`, join(work, 'none'), slow.signal, 60_000).catch((err: Error) => err);
    await new Promise((r) => setTimeout(r, 1500));
    expect(sut.threadRunning).toBe(true);
    slow.abort();
    expect(String(await waiting)).toMatch(/Stopped/);
    await until(() => !sut.threadRunning);
  });
});
