/** Where Haul reads what the daemon wrote: only regular files inside the task's folder, under names without tricks. */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { diskPathIn } from './qbittorrent-engine.js';
import { TorrentError } from './torrent-types.js';

const root = mkdtempSync(join(tmpdir(), 'haul-qbt-paths-'));
const dir = join(root, 'task.bt');
mkdirSync(join(dir, 'pack', 'sub'), { recursive: true });
writeFileSync(join(dir, 'pack', 'sub', 'c.bin'), 'four');
writeFileSync(join(root, 'outside.txt'), 'four');
symlinkSync(join(root, 'outside.txt'), join(dir, 'pack', 'link.txt'));
symlinkSync(root, join(dir, 'up'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe(diskPathIn.name, () => {
  it('gives the path of a regular file the daemon wrote inside the task folder', async () => {
    expect(await diskPathIn(dir, 'pack/sub/c.bin', 4)).toBe(join(dir, 'pack', 'sub', 'c.bin'));
  });

  it('refuses names that climb out, are absolute, or hold backslashes or control characters', async () => {
    for (const name of ['../outside.txt', 'pack/../../outside.txt', '/etc/passwd', 'pack\\sub\\c.bin', 'pack/sub/c\u0007.bin', 'pack//c.bin', './pack/sub/c.bin']) {
      const err = await diskPathIn(dir, name, 4).catch((e: unknown) => e);
      expect(err, name).toBeInstanceOf(TorrentError);
      expect((err as TorrentError).retryable, name).toBe(false);
    }
  });

  it('refuses links, a file of another size, and a file reached through a linked folder', async () => {
    await expect(diskPathIn(dir, 'pack/link.txt', 4)).rejects.toThrow(/not on disk/);
    await expect(diskPathIn(dir, 'pack/sub/c.bin', 5)).rejects.toThrow(/not on disk/);
    await expect(diskPathIn(dir, 'up/outside.txt', 4)).rejects.toThrow(/outside the task's folder/);
  });
});
