/**
 * rclone's ownCloud and Nextcloud backends against a listening server: they send X-OC-Mtime and OC-Checksum and read
 * oc:checksums, so a second `rclone sync` of an unchanged tree moves nothing, and after edits that keep each file's
 * size it moves exactly the edited files (the time differs, then the SHA-1 tells).
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHaul, type TestHaul } from './helper.js';
import { appPassword, listen, rcloneEnv, requireTool, run } from './webdav-helper.js';


describe('rclone sync (vendor nextcloud and owncloud)', () => {
  let h: TestHaul;
  let base: string;
  let work: string;
  beforeAll(async () => {
    requireTool('rclone');
    h = await startTestHaul();
    base = await listen(h);
    work = mkdtempSync(join(tmpdir(), 'haul-dav-sync-'));
  });
  afterAll(async () => {
    await h?.destroy();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it.each(['nextcloud', 'owncloud'])('with vendor %s, transfers nothing over an unchanged tree of 500 files, then exactly the files edited', async (vendor) => {
    const who = await h.signUp();
    const { email, password } = await appPassword(h, who, `rclone ${vendor}`);
    const src = join(work, vendor);
    const earlier = new Date('2024-05-01T12:00:00Z');
    for (let d = 0; d < 5; d++) {
      mkdirSync(join(src, `folder ${d}`), { recursive: true });
      for (let f = 0; f < 100; f++) {
        const file = join(src, `folder ${d}`, `file ${f}.txt`);
        writeFileSync(file, `content of ${d}/${f} `.padEnd(64, '.'));
        utimesSync(file, earlier, earlier);
      }
    }
    const env = await rcloneEnv(work, base, vendor, email, password);
    /** Files one sync copied, from rclone's own log (its INFO line per transfer). */
    const sync = async () => {
      const { stderr } = await run('rclone', ['sync', src, 'haul:Synced', '-v', '--retries', '1', '--low-level-retries', '1'], { env, timeout: 240_000 }).catch((err) => Promise.reject(new Error(err.stderr)));
      return [...stderr.matchAll(/INFO\s+: (.+?): Copied \(/g)].map((m) => m[1]).sort();
    };
    expect(await sync()).toHaveLength(500);
    const again = await sync();
    expect(again).toEqual([]);
    // Same sizes, other bytes, a later time.
    const edited = ['folder 0/file 7.txt', 'folder 2/file 42.txt', 'folder 4/file 99.txt'];
    const later = new Date('2024-06-01T08:30:00Z');
    for (const e of edited) {
      writeFileSync(join(src, e), 'edited '.padEnd(64, '!'));
      utimesSync(join(src, e), later, later);
    }
    expect(await sync()).toEqual([...edited].sort());
    expect(await sync()).toEqual([]);
    // The times rclone set are the drive's own modified_time.
    const top = await h.api('GET', '/drive/v1/files?parent_id=', who.access_token);
    const synced = top.body.files.find((f: { name: string }) => f.name === 'Synced');
    const folders = await h.api('GET', `/drive/v1/files?parent_id=${synced.id}`, who.access_token);
    const f0 = folders.body.files.find((f: { name: string }) => f.name === 'folder 0');
    const files = await h.api('GET', `/drive/v1/files?parent_id=${f0.id}&limit=200`, who.access_token);
    const times = new Map(files.body.files.map((f: { name: string; modified_time: string }) => [f.name, f.modified_time]));
    expect(times.get('file 7.txt')).toBe(later.toISOString());
    expect(times.get('file 8.txt')).toBe(earlier.toISOString());
  }, 600_000);
});
