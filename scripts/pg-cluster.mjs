// A throwaway PostgreSQL cluster for the test suite: initdb into a temp folder, start on a free port, stop after.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, chmodSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const INSTALL_HINT = 'PostgreSQL is needed for the test suite: install it with "apt-get install -y postgresql" (Debian) or set HAUL_TEST_DATABASE_URL to a server you run.';

function findBinDir() {
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
    for (const v of versions) if (existsSync(join(root, v, 'bin', 'pg_ctl'))) return join(root, v, 'bin');
  }
  const which = spawnSync('sh', ['-c', 'command -v pg_ctl'], { encoding: 'utf8' });
  if (which.status === 0) return join(which.stdout.trim(), '..');
  return null;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** Starts a private cluster; returns { url, pause, resume, stop }. PostgreSQL refuses to run as root, so root runs it as "postgres". */
export async function startPgCluster() {
  const bin = findBinDir();
  if (!bin) throw new Error(INSTALL_HINT);
  const dir = mkdtempSync(join(tmpdir(), 'haul-pg-'));
  chmodSync(dir, 0o777);
  const dataDir = join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  const run = (cmd, args) => {
    const full = asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args]] : [join(bin, cmd), args];
    execFileSync(full[0], full[1], { stdio: ['ignore', 'ignore', 'inherit'] });
  };
  run('initdb', ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const port = await freePort();
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
  const start = () => run('pg_ctl', ['-D', dataDir, '-o', opts, '-l', join(dir, 'log'), '-w', 'start']);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    pause() {
      run('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop']);
    },
    resume: start,
    stop() {
      try {
        run('pg_ctl', ['-D', dataDir, '-m', 'immediate', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
