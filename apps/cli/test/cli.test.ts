/**
 * The haul command run as a real process against a real server (itself a child process, as `npm start` runs it):
 * sign in, upload a folder tree, kill an upload half-way and run it again, download and compare SHA-256, continue a
 * broken download, add a magnet link served by a seeder on loopback and watch it finish, share, and the exit codes.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Server as Tracker } from 'bittorrent-tracker';
import WebTorrent from 'webtorrent';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HaulProcess, throttledProxy, until } from '../../server/test/child-server.js';
import { freeLoopbackPort } from '../../server/src/offline/qbittorrent-daemon.js';
import { startHaulCli, type RunOptions } from './harness.js';

const MiB = 1024 * 1024;
/** Bytes a second the proxy lets uploads through: a 24 MiB upload takes ~8 s, so a kill at 2 MiB is surely mid-way. */
const RATE = 3 * MiB;
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

let work: string;
let haul: HaulProcess;
let direct: string;
let proxy: Awaited<ReturnType<typeof throttledProxy>>;
let tracker: InstanceType<typeof Tracker>;
let seeder: InstanceType<typeof WebTorrent>;

/** Starts `haul ARGS` with its own config directory; `input` goes to its stdin. */
const start = (args: string[], opts: RunOptions = {}) => startHaulCli(direct, work, args, opts);
const haulCli = (args: string[], opts?: Parameters<typeof start>[1]) => start(args, opts).done;
const json = async (args: string[], opts?: Parameters<typeof start>[1]) => {
  const r = await haulCli(['--json', ...args], opts);
  expect(r.code, `haul ${args.join(' ')}: ${r.stderr}`).toBe(0);
  return JSON.parse(r.stdout);
};
/** Bytes the server holds of unfinished uploads. */
const bytesReceived = () => {
  const dir = join(work, 'data', 'uploads');
  return existsSync(dir) ? readdirSync(dir).reduce((n, f) => n + statSync(join(dir, f)).size, 0) : 0;
};

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'haul-cli-'));
  const port = await freeLoopbackPort();
  // Links the server gives (upload and download addresses) go through a proxy that slows what clients send.
  proxy = await throttledProxy(port, RATE);
  haul = new HaulProcess(port, {
    HAUL_DATA_DIR: join(work, 'data'),
    HAUL_PUBLIC_URL: proxy.base,
    HAUL_ALLOW_PRIVATE_NETWORK: '1',
    HAUL_TORRENT_DHT: '0',
    HAUL_LOG_LEVEL: 'warn',
    HAUL_CHECK_RESPONSES: '1',
    HAUL_DEVICE_POLL_INTERVAL: '1',
  });
  direct = haul.base;
  await haul.start();
  await haul.call('POST', '/v1/auth/signup', undefined, { email: 'cli@example.com', password: 'correct horse battery' });
  tracker = new Tracker({ udp: false, http: true, ws: false, stats: false });
  await new Promise<void>((r) => tracker.listen(0, '127.0.0.1', () => r()));
  seeder = new WebTorrent({ dht: false, lsd: false, utp: false, natUpnp: false, natPmp: false, tracker: { wrtc: false } } as never);
}, 120_000);

afterAll(async () => {
  await haul?.stop();
  proxy?.server.close();
  await new Promise<void>((r) => (seeder ? seeder.destroy(() => r()) : r()));
  await new Promise<void>((r) => (tracker ? tracker.close(() => r()) : r()));
  rmSync(work, { recursive: true, force: true });
});

describe('haul', { timeout: 120_000 }, () => {
  it('says what to do when not signed in, on wrong usage, and for a wrong password', async () => {
    const out = await haulCli(['ls'], { config: join(work, 'nobody') });
    expect(out.code).toBe(4);
    expect(out.stderr).toMatch(/haul login/);
    const usage = await haulCli(['mv', 'only-one']);
    expect(usage.code).toBe(2);
    const wrong = await haulCli(['login', '--email', 'cli@example.com', '--password-stdin'], { input: 'not it\n' });
    expect(wrong.code).toBe(4);
    expect(wrong.stderr).toMatch(/email or password is incorrect/i);
    const help = await haulCli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Exit codes:/);
  });

  it('signs in with the password on stdin and keeps the session readable by its owner only', async () => {
    const r = await haulCli(['login', '--email', 'cli@example.com', '--password-stdin'], { input: 'correct horse battery\n' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Signed in to .* as cli@example.com/);
    expect(statSync(join(work, 'config', 'config.json')).mode & 0o077).toBe(0);
    expect((await json(['whoami'])).email).toBe('cli@example.com');
  });

  it('signs in with a code approved from another signed-in device, and stops when it is refused', async () => {
    const owner = await haul.call('POST', '/v1/auth/signin', undefined, { username: 'cli@example.com', password: 'correct horse battery' });
    /** Runs `haul login --device`, answers the code it prints from the owner's session, and waits for the exit. */
    const withCode = async (config: string, approve: boolean) => {
      const run = start(['login', '--device', '--name', 'Build box'], { config });
      let err = '';
      run.child.stderr.on('data', (d: Buffer) => (err += d));
      await until(async () => err, (e) => /\n {4}[A-Z]{4}-[A-Z]{4}\n/.test(e), 20_000);
      const code = /\n {4}([A-Z]{4}-[A-Z]{4})\n/.exec(err)![1]!;
      expect(err).toMatch(/\/drive\/qr-login\?code=/);
      const info = await haul.call('GET', `/v1/user/device/authorize?user_code=${code}`, owner.access_token);
      expect(info.client_name).toBe('Build box');
      const sudo = approve ? (await haul.call('POST', '/v1/user/sudo', owner.access_token, { password: 'correct horse battery' })).sudo_token : undefined;
      await haul.call('POST', '/v1/user/device/authorize', owner.access_token, { user_code: code, approve, sudo_token: sudo });
      return run.done;
    };
    const approved = await withCode(join(work, 'by-code'), true);
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout).toMatch(/Signed in to .* as cli@example.com/);
    expect((await json(['whoami'], { config: join(work, 'by-code') })).email).toBe('cli@example.com');
    const sessions = await haul.call('GET', '/v1/user/sessions', owner.access_token);
    expect(sessions.sessions.map((s: { device: string }) => s.device)).toContain('Build box');

    const refused = await withCode(join(work, 'refused'), false);
    expect(refused.code).toBe(4);
    expect(refused.stderr).toMatch(/refused/);
  });

  it('uploads a folder tree, lists it, and downloads it back byte for byte', async () => {
    const tree = join(work, 'Holiday');
    mkdirSync(join(tree, 'day 1'), { recursive: true });
    mkdirSync(join(tree, 'empty'));
    const files: Record<string, Buffer> = { 'notes.txt': Buffer.from('sun\n'), 'day 1/a.bin': randomBytes(300_000), 'day 1/b.bin': randomBytes(5) };
    for (const [p, b] of Object.entries(files)) writeFileSync(join(tree, p), b);
    const up = await json(['upload', tree]);
    expect(up.map((u: { path: string }) => u.path).sort()).toEqual(Object.keys(files).map((p) => join(tree, p)).sort());

    expect((await json(['ls', '/Holiday'])).map((f: { name: string }) => f.name).sort()).toEqual(['day 1', 'empty', 'notes.txt']);
    const long = await haulCli(['ls', '-l', '/Holiday/day 1']);
    expect(long.stdout).toMatch(/^-\s+293\.0 KB\s+\S+ \S+\s+a\.bin$/m);

    // The same tree again, into a folder that does not exist yet (made): every file is stored already, nothing is sent.
    const copy = await json(['upload', '--to', '/Copy', tree]);
    expect(copy.every((u: { instant: boolean }) => u.instant)).toBe(true);

    const out = join(work, 'back');
    await json(['get', '/Holiday', '-o', out]);
    for (const [p, b] of Object.entries(files)) expect(sha256(readFileSync(join(out, p))), p).toBe(sha256(b));
    expect(statSync(join(out, 'empty')).isDirectory()).toBe(true);
  });

  it('continues an upload killed half-way from the bytes the server has', async () => {
    const big = randomBytes(24 * MiB);
    const path = join(work, 'big.bin');
    writeFileSync(path, big);
    const first = start(['upload', path]);
    await until(async () => bytesReceived(), (n) => n >= 2 * MiB, 60_000);
    first.child.kill('SIGKILL');
    await first.done;
    const kept = bytesReceived();
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(big.length);

    const [done] = await json(['upload', path]);
    expect(done.instant).toBe(false);
    // Only the rest went over the wire the second time.
    expect(Number(done.sent)).toBeLessThanOrEqual(big.length - kept + 16 * MiB);
    expect(Number(done.sent)).toBeLessThan(big.length);
    expect(done.file.size).toBe(String(big.length));
    const got = join(work, 'big-back.bin');
    await json(['get', '/big.bin', '-o', got]);
    expect(sha256(readFileSync(got))).toBe(sha256(big));
  });

  it('continues a broken download, and refuses bytes that do not match the hash', async () => {
    const got = join(work, 'resume.bin');
    const big = readFileSync(join(work, 'big.bin'));
    // What an interrupted run leaves: the first part of the file in NAME.part.
    writeFileSync(`${got}.part`, big.subarray(0, 5 * MiB));
    const [one] = await json(['get', '/big.bin', '-o', got]);
    expect(one.resumed_from).toBe(5 * MiB);
    expect(sha256(readFileSync(got))).toBe(sha256(big));
    expect(existsSync(`${got}.part`)).toBe(false);

    const bad = join(work, 'bad.bin');
    writeFileSync(`${bad}.part`, randomBytes(MiB));
    const refused = await haulCli(['get', '/big.bin', '-o', bad]);
    expect(refused.code).toBe(5);
    expect(refused.stderr).toMatch(/do not match/);
    expect(existsSync(bad) || existsSync(`${bad}.part`)).toBe(false);
    expect((await haulCli(['get', '/big.bin', '-o', bad])).code).toBe(0);
    expect(sha256(readFileSync(bad))).toBe(sha256(big));
  });

  it('adds a magnet link from a seeder on loopback, watches it finish, and gets the file', async () => {
    const content = randomBytes(2 * MiB + 3);
    const dir = join(work, 'seed');
    mkdirSync(dir);
    writeFileSync(join(dir, 'song.flac'), content);
    const announce = `http://127.0.0.1:${(tracker.http!.address() as { port: number }).port}/announce`;
    const magnet = await new Promise<string>((r) => seeder.seed(join(dir, 'song.flac'), { announce: [announce] }, (t) => r(t.magnetURI)));
    await json(['mkdir', '/Music']);
    const watched = await haulCli(['add', '--to', '/Music', '--watch', magnet]);
    expect(watched.code, watched.stderr).toBe(0);
    expect(watched.stdout).toMatch(/^done\s+100%.*song\.flac$/m);
    const got = join(work, 'song.flac');
    await json(['get', '/Music/song.flac', '-o', got]);
    expect(sha256(readFileSync(got))).toBe(sha256(content));
    const listed = await json(['tasks']);
    expect(listed[0]).toMatchObject({ name: 'song.flac', phase: 'PHASE_TYPE_COMPLETE' });
  });

  it('moves, renames, shares and removes, with exit codes for what is missing or exists', async () => {
    await json(['mkdir', '-p', '/A/B']);
    expect((await haulCli(['mkdir', '/A'])).code).toBe(8);
    await json(['mv', '/Holiday/notes.txt', '/A/B']);
    await json(['mv', '/A/B/notes.txt', '/A/read-me.txt']);
    expect((await json(['ls', '/A'])).map((f: { name: string }) => f.name).sort()).toEqual(['B', 'read-me.txt']);

    const share = await json(['share', '/A', '--code', 'abcd', '--days', '7']);
    expect(share.share_url).toMatch(/\/s\//);
    expect(share.pass_code).toBe('abcd');
    const view = await haul.call('GET', `/drive/v1/share?share_id=${share.share_id}&pass_code=abcd`);
    expect(view.share_status).toBe('OK');
    expect(view.files.map((f: { name: string }) => f.name)).toEqual(['A']);
    expect((await haulCli(['share', '/A', '--days', '3'])).code).toBe(2);

    await json(['rm', '/A']);
    const gone = await haulCli(['ls', '/A']);
    expect(gone.code).toBe(3);
    expect(gone.stderr).toMatch(/No "A"/);
  });
});
