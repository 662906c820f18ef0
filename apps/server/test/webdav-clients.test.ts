/**
 * WebDAV against real clients on a listening server: Debian's litmus, every suite, with no failure and no warning;
 * rclone (a webdav remote of vendor "other") copies a tree with names in several scripts up and back, and
 * `rclone check --download` compares every byte.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { names, startTestHaul, type TestHaul } from './helper.js';
import { appPassword, listen, rcloneEnv, requireTool, run } from './webdav-helper.js';


describe('WebDAV clients', () => {
  let h: TestHaul;
  let base: string;
  let work: string;
  beforeAll(async () => {
    requireTool('litmus');
    requireTool('rclone');
    h = await startTestHaul();
    base = await listen(h);
    work = mkdtempSync(join(tmpdir(), 'haul-dav-'));
  });
  afterAll(async () => {
    await h?.destroy();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it.each(['basic', 'copymove', 'props', 'locks', 'http'])('passes litmus %s', async (suite) => {
    const who = await h.signUp();
    const { email, password } = await appPassword(h, who, `litmus ${suite}`);
    // litmus stops at the first failing suite and writes its logs into the working folder: one run per suite.
    const cwd = join(work, suite);
    mkdirSync(cwd);
    const out = await run('litmus', [`${base}/dav/`, email, password], { cwd, env: { ...process.env, TESTS: suite }, timeout: 120_000 }).then(
      (r) => r.stdout,
      (err: { stdout?: string; message: string }) => err.stdout ?? err.message,
    );
    const summary = /of (\d+) tests run: (\d+) passed, (\d+) failed/.exec(out);
    expect(summary, out).toBeTruthy();
    expect(Number(summary![3]), out).toBe(0);
    expect(Number(summary![2])).toBe(Number(summary![1]));
    expect(out, 'no warnings').not.toMatch(/WARNING/);
  }, 180_000);

  it('copies a tree in and out with rclone, every byte the same', async () => {
    const who = await h.signUp();
    const { email, password } = await appPassword(h, who, 'rclone');
    const src = join(work, 'src');
    mkdirSync(join(src, 'Fotos été', '日本語'), { recursive: true });
    mkdirSync(join(src, 'Ελληνικά'), { recursive: true });
    writeFileSync(join(src, 'Fotos été', 'naïve café.txt'), 'héllo wörld\n');
    writeFileSync(join(src, 'Fotos été', '日本語', 'データ.bin'), Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7919) % 251)));
    writeFileSync(join(src, 'Ελληνικά', 'αρχείο μου.md'), '# γεια\n');
    writeFileSync(join(src, 'emoji 🎉 and spaces.txt'), '🎉');
    const env = await rcloneEnv(work, base, 'other', email, password);
    const rclone = (...args: string[]) => run('rclone', [...args, '--retries', '1', '--low-level-retries', '1'], { env, timeout: 120_000 });
    await rclone('copy', src, 'haul:Upload');
    // What arrived is in the drive like anything else: the REST listing shows it.
    const top = await h.api('GET', '/drive/v1/files?parent_id=', who.access_token);
    const upload = top.body.files.find((f: { name: string }) => f.name === 'Upload');
    expect(await names(h, who.access_token, upload.id)).toEqual(expect.arrayContaining(['Fotos été', 'Ελληνικά', 'emoji 🎉 and spaces.txt']));
    await rclone('check', '--download', src, 'haul:Upload');
    const back = join(work, 'back');
    await rclone('copy', 'haul:Upload', back);
    expect(readFileSync(join(back, 'Fotos été', '日本語', 'データ.bin'))).toEqual(readFileSync(join(src, 'Fotos été', '日本語', 'データ.bin')));
    await rclone('check', '--download', src, back).catch((err) => Promise.reject(new Error(err.stderr)));
  }, 180_000);
});
