/**
 * A real S3 server for tests: OpenStack Swift with its s3api layer (it checks SigV4 signatures like AWS), from Debian's
 * packages, with memcached for its auth tokens. Everything lives in a temporary folder on loopback ports: rings,
 * configs, its own swift.conf (a small launcher points Swift at the folder instead of /etc/swift), the disk.
 *
 * One instance serves a whole run: scripts/test.mjs starts it (`node --import tsx test/s3-server.ts` prints its
 * address) and hands it over in HAUL_TEST_S3_*; a test file run alone starts one of its own (testS3()).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { s3Client } from '../src/storage/s3-blob-store.js';
import type { S3Config } from '../src/storage/s3-config.js';

const PACKAGES = 'swift swift-proxy swift-object swift-container swift-account memcached';
const PYTHON = '/usr/bin/python3';

/** Where the test S3 answers, and the credentials its tempauth user has. */
export interface TestS3Target {
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

export interface TestS3 extends TestS3Target {
  stop(): Promise<void>;
}

/** A store configuration for `bucket` on the test S3 (created when `create` is set). */
export async function s3ConfigFor(target: TestS3Target, bucket: string, create = true): Promise<S3Config> {
  const cfg: S3Config = { ...target, bucket, forcePathStyle: true, presignedDownloads: false };
  if (create) {
    const client = s3Client(cfg);
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
    client.destroy();
  }
  return cfg;
}

/** A fresh bucket name, unique within the run. */
export const testBucket = () => `haul-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

function requirePackages(): void {
  const missing = ['memcached', 'swift-ring-builder', 'swift-proxy-server', 'swift-object-server', 'swift-container-server', 'swift-account-server'].filter(
    (tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0,
  );
  if (missing.length || spawnSync(PYTHON, ['-c', 'import swift.common.middleware.s3api']).status !== 0) {
    throw new Error(`The test S3 server (OpenStack Swift) is missing ${missing.join(', ') || 'its s3api layer'}: install it with "apt-get install -y ${PACKAGES}".`);
  }
}

// Each server dies with the process that started it (PR_SET_PDEATHSIG), so a test worker that is killed leaves none.
const LAUNCHER = `import ctypes, os, signal, sys
ctypes.CDLL('libc.so.6').prctl(1, signal.SIGKILL)
if os.getppid() != int(sys.argv.pop(1)):
    sys.exit(1)
if sys.argv[1] == 'exec':
    os.execvp(sys.argv[2], sys.argv[2:])
from swift.common import utils
utils.set_swift_dir(sys.argv[1])
from swift.common.wsgi import run_wsgi
kw = {}
if sys.argv[2] == 'object-server':
    from swift.obj import server
    kw['global_conf_callback'] = server.global_conf_callback
sys.exit(run_wsgi(sys.argv[3], sys.argv[2], **kw))
`;

function serverConf(dir: string, port: number, app: string, user: string): string {
  return `[DEFAULT]
bind_ip = 127.0.0.1
bind_port = ${port}
workers = 0
user = ${user}
devices = ${join(dir, 'srv')}
mount_check = false
swift_dir = ${dir}
log_level = WARNING
log_address = ${join(dir, 'no-syslog')}

[pipeline:main]
pipeline = ${app}-server

[app:${app}-server]
use = egg:swift#${app}
`;
}

function proxyConf(dir: string, port: number, memcachedPort: number, user: string): string {
  const filters = ['catch_errors', 'gatekeeper', 'listing_formats', 'copy', 'slo', 'dlo'];
  return `[DEFAULT]
bind_ip = 127.0.0.1
bind_port = ${port}
workers = 0
user = ${user}
swift_dir = ${dir}
log_level = WARNING
log_address = ${join(dir, 'no-syslog')}

[pipeline:main]
pipeline = catch_errors gatekeeper proxy-logging cache listing_formats s3api tempauth copy slo dlo proxy-logging proxy-server

[app:proxy-server]
use = egg:swift#proxy
account_autocreate = true
allow_account_management = true

[filter:tempauth]
use = egg:swift#tempauth
user_test_tester = testing .admin

[filter:s3api]
use = egg:swift#s3api
location = us-east-1

[filter:cache]
use = egg:swift#memcache
memcache_servers = 127.0.0.1:${memcachedPort}

[filter:proxy-logging]
use = egg:swift#proxy_logging

${filters.map((f) => `[filter:${f}]\nuse = egg:swift#${f}\n`).join('\n')}`;
}

/** Starts memcached and the four Swift servers, waits until S3 answers, and returns how to reach it. */
export async function startTestS3(): Promise<TestS3> {
  requirePackages();
  const dir = mkdtempSync(join(tmpdir(), 'haul-s3-'));
  // A test worker is killed at the end of its run without an 'exit' event: the servers go with it (PR_SET_PDEATHSIG in
  // the launcher), and this watcher removes their folder once this process is gone.
  spawn('sh', ['-c', 'while kill -0 "$1" 2>/dev/null; do sleep 1; done; rm -rf "$2"', 'reaper', String(process.pid), dir], {
    detached: true,
    stdio: 'ignore',
  }).unref();
  const children: ChildProcess[] = [];
  let log = '';
  const stopNow = () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  };
  process.once('exit', stopNow);
  const stop = async () => {
    process.off('exit', stopNow);
    await Promise.all(
      children.map(
        (c) =>
          new Promise<void>((resolve) => {
            if (c.exitCode !== null || c.signalCode !== null) return resolve();
            const force = setTimeout(() => c.kill('SIGKILL'), 5000);
            c.once('exit', () => {
              clearTimeout(force);
              resolve();
            });
            c.kill('SIGTERM');
          }),
      ),
    );
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const user = userInfo().username;
    const [memcachedPort, proxyPort, accountPort, containerPort, objectPort] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
    mkdirSync(join(dir, 'srv', 'd1'), { recursive: true });
    writeFileSync(join(dir, 'swift.conf'), '[swift-hash]\nswift_hash_path_suffix = haul-test\nswift_hash_path_prefix = haul-test\n\n[storage-policy:0]\nname = Policy-0\ndefault = yes\n');
    writeFileSync(join(dir, 'launch.py'), LAUNCHER);
    const ports = { account: accountPort, container: containerPort, object: objectPort };
    for (const [kind, port] of Object.entries(ports)) {
      const builder = join(dir, `${kind}.builder`);
      for (const args of [['create', '6', '1', '1'], ['add', `r1z1-127.0.0.1:${port}/d1`, '1'], ['rebalance']]) {
        const r = spawnSync('swift-ring-builder', [builder, ...args], { encoding: 'utf8' });
        // 1 is a warning (one device cannot be balanced across zones), 2 an error.
        if (r.status !== 0 && r.status !== 1) throw new Error(`swift-ring-builder ${args[0]} failed: ${r.stdout}${r.stderr}`);
      }
      writeFileSync(join(dir, `${kind}-server.conf`), serverConf(dir, port, kind, user));
    }
    writeFileSync(join(dir, 'proxy-server.conf'), proxyConf(dir, proxyPort, memcachedPort, user));

    const run = (cmd: string, args: string[]) => {
      const c = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
      c.stderr!.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-4000)));
      children.push(c);
    };
    const launch = [join(dir, 'launch.py'), String(process.pid)];
    run(PYTHON, [...launch, 'exec', 'memcached', '-l', '127.0.0.1', '-p', String(memcachedPort), '-U', '0', '-m', '64', '-u', user]);
    for (const kind of ['account', 'container', 'object', 'proxy']) run(PYTHON, [...launch, dir, `${kind}-server`, join(dir, `${kind}-server.conf`)]);

    const target: TestS3Target = { endpoint: `http://127.0.0.1:${proxyPort}`, region: 'us-east-1', accessKeyId: 'test:tester', secretAccessKey: 'testing' };
    // Ready once a bucket can be made (auth, memcached, rings and every server answer).
    // Two minutes: on a busy two-core machine Swift took over a minute to answer once.
    const end = Date.now() + 120_000;
    for (;;) {
      const ok = await s3ConfigFor(target, 'haul-ready').then(
        () => true,
        () => false,
      );
      if (ok) break;
      const dead = children.find((c) => c.exitCode !== null);
      if (dead || Date.now() > end) throw new Error(`the test S3 server did not start: ${log || '(no output)'}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    return { ...target, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

let shared: Promise<TestS3Target> | null = null;

/** The run's test S3 (HAUL_TEST_S3_ENDPOINT from scripts/test.mjs), else one started once for this process. */
export function testS3(): Promise<TestS3Target> {
  const endpoint = process.env.HAUL_TEST_S3_ENDPOINT;
  if (endpoint) return Promise.resolve({ endpoint, region: 'us-east-1', accessKeyId: 'test:tester', secretAccessKey: 'testing' });
  shared ??= startTestS3();
  return shared;
}

// Run directly: start, print the address as one JSON line, stop on SIGTERM/SIGINT or when stdin closes.
if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const s3 = await startTestS3();
  process.stdout.write(`${JSON.stringify({ endpoint: s3.endpoint })}\n`);
  const quit = () => void s3.stop().then(() => process.exit(0));
  process.on('SIGTERM', quit);
  process.on('SIGINT', quit);
  process.stdin.on('end', quit).resume();
}
