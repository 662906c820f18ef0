/** BitTorrent peers for tests: an aria2c seeder that no one here wrote, found through the test's tracker only. */
import { spawn, type ChildProcess } from 'node:child_process';
import { freeLoopbackPort } from '../src/offline/qbittorrent-daemon.js';

/** aria2c seeding `torrentPath` from `dir` (files as the torrent names them); `extra` adds options (a rate limit). */
export async function spawnAria2Seeder(dir: string, torrentPath: string, extra: string[] = []): Promise<ChildProcess> {
  return spawn(
    'aria2c',
    [
      `--dir=${dir}`,
      '--seed-ratio=0.0',
      '--bt-seed-unverified=true',
      '--enable-dht=false',
      '--enable-dht6=false',
      '--bt-enable-lpd=false',
      '--enable-peer-exchange=false',
      `--listen-port=${await freeLoopbackPort()}`,
      '--summary-interval=0',
      '--console-log-level=warn',
      ...extra,
      torrentPath,
    ],
    { stdio: 'ignore' },
  );
}
