/**
 * `haul upload` run again on a folder after a break, against a real server: what arrived is skipped, the upload that
 * was cut off continues from the server's bytes, the rest is sent, and no "name (1)" copy is made. A file changed since
 * follows --on-conflict; a missing destination folder is made.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../server/test/child-server.js';
import { MiB, startHarness, type Harness } from './harness.js';

/** Bytes a second let through to uploads: the large file takes ~4 s, so the run can be stopped in its middle. */
const RATE = 3 * MiB;
const FILES = 36;
/** The file the first run is stopped in: the ones before it arrived whole, the ones after it not at all. */
const BIG = 12;
const name = (i: number) => `f${String(i).padStart(2, '0')}.bin`;
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

let h: Harness;
let shoot: string;
const content = new Map<string, Buffer>();

interface Outcome {
  path: string;
  status: 'uploaded' | 'already_there' | 'skipped' | 'failed';
  sent?: string;
  instant?: boolean;
  replaced?: string;
  file?: { id: string; name: string };
}
const byStatus = (list: Outcome[]) => list.reduce<Record<string, number>>((n, o) => ({ ...n, [o.status]: (n[o.status] ?? 0) + 1 }), {});
const names = async (path: string) => ((await h.json(['ls', path])) as { name: string }[]).map((f) => f.name).sort();

beforeAll(async () => {
  h = await startHarness(RATE);
  shoot = join(h.work, 'Shoot');
  mkdirSync(shoot);
  for (let i = 0; i < FILES; i++) {
    const bytes = randomBytes(i === BIG ? 12 * MiB : 10_000 + i);
    content.set(name(i), bytes);
    writeFileSync(join(shoot, name(i)), bytes);
  }
});

afterAll(() => h?.stop());

describe('haul upload, run again', () => {
  it('makes a missing destination folder, and says so', async () => {
    const run = await h.run(['upload', join(shoot, name(0)), '--to', '/Shots/2026']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/Made the folder \/Shots \(it did not exist\)/);
    expect(run.stderr).toMatch(/Made the folder \/Shots\/2026/);
    expect(await names('/Shots/2026')).toEqual([name(0)]);
    // A file where a folder of the path should be is refused, not replaced.
    const blocked = await h.run(['upload', join(shoot, name(1)), '--to', `/Shots/2026/${name(0)}/deeper`]);
    expect(blocked.code).toBe(8);
  });

  it('skips what arrived, continues the cut-off upload, sends the rest, and copies nothing', async () => {
    await h.json(['mkdir', '-p', '/Shots']);
    const first = h.start(['upload', shoot, '--to', '/Shots']);
    // Stopped while the large file is on its way (files go four at a time: small ones beside it may have arrived).
    await until(async () => h.bytesReceived(), (n) => n >= MiB, 60_000);
    first.child.kill('SIGKILL');
    await first.done;
    const kept = h.bytesReceived();
    expect(kept).toBeGreaterThan(0);
    const arrived = await names('/Shots/Shoot');
    expect(arrived).not.toContain(name(BIG));
    // Of the small files started before it, at most the three beside it can still have been on their way.
    expect(arrived.length).toBeGreaterThanOrEqual(BIG - 3);

    const again: Outcome[] = await h.json(['upload', shoot, '--to', '/Shots']);
    const listed = await names('/Shots/Shoot');
    expect(listed.filter((n) => /\(\d+\)/.test(n))).toEqual([]);
    expect(listed).toEqual([...content.keys()].sort());
    expect(byStatus(again)).toEqual({ already_there: arrived.length, uploaded: FILES - arrived.length });
    // Results keep the order of the files given, whatever order they ended in.
    expect(again.map((o) => o.path)).toEqual([...content.keys()].map((n) => join(shoot, n)));
    const big = again.find((o) => o.path.endsWith(name(BIG)))!;
    expect(big.status).toBe('uploaded');
    // Only what the server lacked went over the wire.
    expect(Number(big.sent)).toBeLessThan(content.get(name(BIG))!.length);

    // Once more: everything is there; the summary says so.
    const third = await h.run(['upload', shoot, '--to', '/Shots']);
    expect(third.code, third.stderr).toBe(0);
    expect(third.stdout.trim()).toBe(`0 uploaded, ${FILES} already there, 0 skipped, 0 failed.`);
    expect(await names('/Shots/Shoot')).toHaveLength(FILES);
  });

  it('follows --on-conflict for a file changed since: skip (the default, saying why), rename, overwrite', async () => {
    // The same size with other bytes (only the hash tells), and another size.
    const changed = { [name(3)]: randomBytes(content.get(name(3))!.length), [name(4)]: randomBytes(123) };
    for (const [n, b] of Object.entries(changed)) writeFileSync(join(shoot, n), b);
    const others = FILES - 2;

    const skip = await h.run(['upload', shoot, '--to', '/Shots']);
    expect(skip.code, skip.stderr).toBe(0);
    expect(skip.stdout.trim()).toBe(`0 uploaded, ${others} already there, 2 skipped, 0 failed.`);
    expect(skip.stderr).toMatch(new RegExp(`Skipped: .*${name(3)}: a file of that name with other content is there.*--on-conflict rename.*--on-conflict overwrite`));
    expect(await names('/Shots/Shoot')).toHaveLength(FILES);

    const rename: Outcome[] = await h.json(['upload', shoot, '--to', '/Shots', '--on-conflict', 'rename']);
    expect(byStatus(rename)).toEqual({ already_there: others, uploaded: 2 });
    expect(rename.filter((o) => o.status === 'uploaded').map((o) => o.file!.name).sort()).toEqual(['f03 (1).bin', 'f04 (1).bin']);
    // Renamed copies are found again by the next run with the same rule, also under the older form "name(1)".
    expect((await h.run(['mv', '/Shots/Shoot/f04 (1).bin', '/Shots/Shoot/f04(1).bin'])).code).toBe(0);
    expect(byStatus(await h.json(['upload', shoot, '--to', '/Shots', '--on-conflict', 'rename']))).toEqual({ already_there: FILES });
    expect(await names('/Shots/Shoot')).toHaveLength(FILES + 2);

    const before = (await h.json(['ls', `/Shots/Shoot/${name(3)}`]))[0].id;
    const overwrite: Outcome[] = await h.json(['upload', shoot, '--to', '/Shots', '--on-conflict', 'overwrite']);
    expect(byStatus(overwrite)).toEqual({ already_there: others, uploaded: 2 });
    const replaced = overwrite.find((o) => o.path.endsWith(name(3)))!;
    expect(replaced.file!.name).toBe(name(3));
    expect(replaced.replaced).toBe(before);
    // The old one went to the trash (restorable), not away.
    const old = await h.haul.call('GET', `/drive/v1/files/${before}`, await h.token());
    expect(old.trashed).toBe(true);
    mkdirSync(join(h.work, 'back'));
    const got = join(h.work, 'back', name(3));
    await h.json(['get', `/Shots/Shoot/${name(3)}`, '-o', got]);
    expect(sha256(readFileSync(got))).toBe(sha256(changed[name(3)]!));
    expect(await names('/Shots/Shoot')).toHaveLength(FILES + 2);
  });

  it('refuses an unknown conflict rule as wrong usage', async () => {
    const run = await h.run(['upload', shoot, '--on-conflict', 'merge']);
    expect(run.code).toBe(2);
  });
});
