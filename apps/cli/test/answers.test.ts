/**
 * How haul answers, against a real server: `get -o` into folders that do not exist yet, an unknown task id, and
 * failures under --json (the server's error object on stdout, beside the words on stderr, with the same exit codes).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MiB, startHarness, type Harness } from './harness.js';

let h: Harness;
const bytes = randomBytes(50_000);

beforeAll(async () => {
  h = await startHarness(64 * MiB);
  writeFileSync(join(h.work, 'photo.jpg'), bytes);
  await h.json(['upload', join(h.work, 'photo.jpg')]);
});

afterAll(() => h?.stop());

describe('haul answers', () => {
  it('get -o makes the folders the output path needs', async () => {
    const deep = await h.run(['get', '/photo.jpg', '-o', 'not/there/yet/copy.jpg']);
    expect(deep.code, deep.stderr).toBe(0);
    expect(readFileSync(join(h.work, 'not/there/yet/copy.jpg')).equals(bytes)).toBe(true);
    // A path ending in "/" is a folder to put the file in under its own name.
    const into = await h.run(['get', '/photo.jpg', '-o', 'fresh/']);
    expect(into.code, into.stderr).toBe(0);
    expect(readFileSync(join(h.work, 'fresh', 'photo.jpg')).equals(bytes)).toBe(true);
  });

  it('haul tasks with an unknown id fails as not found, watched or not', async () => {
    const run = await h.run(['tasks', 'NoSuchTask']);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/No cloud download "NoSuchTask" exists/);
    expect((await h.run(['tasks', '--watch', 'NoSuchTask'])).code).toBe(3);
    const asJson = await h.run(['--json', 'tasks', 'NoSuchTask']);
    expect(asJson.code).toBe(3);
    expect(JSON.parse(asJson.stdout)).toMatchObject({ error: 'file_not_found' });
  });

  it('with --json, a failure is the error object on stdout too, with the same exit code', async () => {
    const missing = await h.run(['--json', 'ls', '/Nope']);
    expect(missing.code).toBe(3);
    expect(JSON.parse(missing.stdout)).toEqual({ error: 'file_not_found', error_description: 'No "Nope" in "/".' });
    expect(missing.stderr).toMatch(/No "Nope"/);

    const nobody = await h.run(['--json', 'ls'], { config: join(h.work, 'nobody') });
    expect(nobody.code).toBe(4);
    expect(JSON.parse(nobody.stdout)).toMatchObject({ error: 'unauthenticated', error_description: expect.stringMatching(/haul login/) });

    await h.json(['mkdir', '/Taken']);
    const taken = await h.run(['--json', 'mkdir', '/Taken']);
    expect(taken.code).toBe(8);
    expect(JSON.parse(taken.stdout)).toMatchObject({ error: 'already_exists' });

    // Wrong usage, found by the command itself or by the option parser.
    const usage = await h.run(['--json', 'mv', 'only-one']);
    expect(usage.code).toBe(2);
    expect(JSON.parse(usage.stdout)).toMatchObject({ error: 'invalid_argument' });
    const unknown = await h.run(['--json', 'ls', '--bogus']);
    expect(unknown.code).toBe(2);
    expect(JSON.parse(unknown.stdout)).toMatchObject({ error: 'invalid_argument', error_description: expect.stringMatching(/--bogus/) });

    // Without --json, stdout stays empty on failure.
    expect((await h.run(['ls', '/Nope'])).stdout).toBe('');
  });
});
