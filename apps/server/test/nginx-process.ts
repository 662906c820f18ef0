/**
 * Debian's nginx run as a child process on loopback, with its state in a folder of its own: the shape shared by the
 * accelerating proxy of test/accel-proxies.ts and the static reference of bench/references.ts, which differ only in
 * their server blocks.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';

export const NGINX = process.env.HAUL_NGINX ?? '/usr/sbin/nginx';

/** Resolves once `child` accepts connections on loopback `port`; fails if it exits or `ms` pass first. */
export function waitForPort(port: number, child: ChildProcess, what: string, ms: number): Promise<void> {
  const end = Date.now() + ms;
  return new Promise((ok, fail) => {
    const attempt = () => {
      if (child.exitCode !== null) return fail(new Error(`${what} exited with ${child.exitCode}`));
      const s = connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        ok();
      });
      s.once('error', () => {
        s.destroy();
        if (Date.now() > end) fail(new Error(`${what} did not listen on ${port} within ${ms} ms`));
        else setTimeout(attempt, 50);
      });
    };
    attempt();
  });
}

/** Stops `child` with SIGTERM and waits for it to exit (at once if it already has). */
export const stopper = (child: ChildProcess) => async () => {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await gone;
};

/**
 * A whole nginx configuration: one process in the foreground, as the user running the test (so it can write where
 * the test can), its pid and error log in `dir`, every temporary body in `tmp`, no access log, sendfile on, and
 * `http` (more directives and the server blocks) inside the http block.
 */
export function nginxConfig(opts: { dir: string; tmp: string; workerConnections: number; http: string }): string {
  const { dir, tmp } = opts;
  return `daemon off;
master_process off;
worker_processes 1;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
events { worker_connections ${opts.workerConnections}; }
http {
  access_log off;
  sendfile on;
  client_body_temp_path ${tmp};
  proxy_temp_path ${tmp};
  fastcgi_temp_path ${tmp};
  uwsgi_temp_path ${tmp};
  scgi_temp_path ${tmp};
  ${opts.http}
}
`;
}

/**
 * Writes `config` to `dir`/nginx.conf, has nginx check it, and runs nginx with it until it listens on `port` (within
 * `ms`). Fails with the install step when nginx is missing.
 */
export async function runNginx(dir: string, config: string, port: number, ms: number): Promise<{ child: ChildProcess; stop: () => Promise<void> }> {
  if (!existsSync(NGINX)) throw new Error(`${NGINX} not found: install it with "apt-get install -y nginx-light".`);
  const conf = join(dir, 'nginx.conf');
  writeFileSync(conf, config);
  const check = spawnSync(NGINX, ['-t', '-q', '-p', dir, '-c', conf, '-e', join(dir, 'error.log')], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`nginx rejected its configuration: ${check.stderr}`);
  const child = spawn(NGINX, ['-p', dir, '-c', conf, '-e', join(dir, 'error.log')], { stdio: 'ignore' });
  await waitForPort(port, child, 'nginx', ms);
  return { child, stop: stopper(child) };
}
