/**
 * A real server (the bundle `npm start` runs, as a child process, on loopback) with an account signed in, and the haul
 * command run as a real process against it. Upload and download addresses go through a proxy that slows what clients
 * send, so a test can stop an upload half-way.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { HaulProcess, throttledProxy } from '../../server/test/child-server.js';
import { freeLoopbackPort } from '../../server/src/offline/qbittorrent-daemon.js';

const bin = new URL('../bin/haul.mjs', import.meta.url).pathname;
export const MiB = 1024 * 1024;

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  input?: string;
  config?: string;
  cwd?: string;
  /** More environment: HAUL_CLI_FROM=bundle or =source picks how bin/haul.mjs runs the command. */
  env?: Record<string, string>;
}

export interface Harness {
  work: string;
  haul: HaulProcess;
  /** The server's own address (the proxy is only in the links it gives). */
  direct: string;
  /** Starts `haul ARGS`; `done` resolves when it exits. */
  start(args: string[], opts?: RunOptions): { child: ReturnType<typeof spawn>; done: Promise<Run> };
  run(args: string[], opts?: RunOptions): Promise<Run>;
  /** `haul --json ARGS`, which must succeed: its parsed output. */
  json(args: string[], opts?: RunOptions): Promise<any>;
  /** Bytes the server holds of unfinished uploads. */
  bytesReceived(): number;
  /** A session of the signed-in account, for calls the command line does not make. */
  token(): Promise<string>;
  stop(): Promise<void>;
}

/** Starts `haul --server SERVER ARGS` in `work` with a config directory of its own; `input` goes to its stdin. */
export function startHaulCli(server: string, work: string, args: string[], opts: RunOptions = {}) {
  const child = spawn(process.execPath, [bin, '--server', server, ...args], {
    cwd: opts.cwd ?? work,
    env: { ...process.env, HAUL_CONFIG_DIR: opts.config ?? join(work, 'config'), HAUL_SERVER: '', ...opts.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d));
  child.stderr.on('data', (d: Buffer) => (stderr += d));
  child.stdin.end(opts.input ?? '');
  const done = new Promise<Run>((r) => child.on('exit', (code) => r({ code, stdout, stderr })));
  return { child, done };
}

export const EMAIL = 'cli@example.com';
export const PASSWORD = 'correct horse battery';

/** Starts a server with `rate` bytes a second allowed through to uploads, signs up and signs the command line in. */
export async function startHarness(rate: number): Promise<Harness> {
  const work = mkdtempSync(join(tmpdir(), 'haul-cli-'));
  const port = await freeLoopbackPort();
  const proxy = await throttledProxy(port, rate);
  const haul = new HaulProcess(port, {
    HAUL_DATA_DIR: join(work, 'data'),
    HAUL_PUBLIC_URL: proxy.base,
    HAUL_ALLOW_PRIVATE_NETWORK: '1',
    HAUL_TORRENT_DHT: '0',
    HAUL_LOG_LEVEL: 'warn',
    HAUL_CHECK_RESPONSES: '1',
  });
  await haul.start();
  await haul.call('POST', '/v1/auth/signup', undefined, { email: EMAIL, password: PASSWORD });

  const start = (args: string[], opts: RunOptions = {}) => startHaulCli(haul.base, work, args, opts);
  const run = (args: string[], opts?: RunOptions) => start(args, opts).done;
  const json = async (args: string[], opts?: RunOptions) => {
    const r = await run(['--json', ...args], opts);
    expect(r.code, `haul ${args.join(' ')}: ${r.stderr}`).toBe(0);
    return JSON.parse(r.stdout);
  };
  const signedIn = await run(['login', '--email', EMAIL, '--password-stdin'], { input: `${PASSWORD}\n` });
  expect(signedIn.code, signedIn.stderr).toBe(0);

  return {
    work,
    haul,
    direct: haul.base,
    start,
    run,
    json,
    bytesReceived() {
      const dir = join(work, 'data', 'uploads');
      return existsSync(dir) ? readdirSync(dir).reduce((n, f) => n + statSync(join(dir, f)).size, 0) : 0;
    },
    async token() {
      return (await haul.call('POST', '/v1/auth/signin', undefined, { username: EMAIL, password: PASSWORD })).access_token;
    },
    async stop() {
      await haul.stop();
      proxy.server.close();
      rmSync(work, { recursive: true, force: true });
    },
  };
}
