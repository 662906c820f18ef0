/**
 * Real proxies in front of a Haul on loopback that send a file's bytes themselves when Haul answers with
 * X-Accel-Redirect (HAUL_ACCEL_REDIRECT): Debian's nginx with the location docs/decisions/serving-bytes.md gives, and
 * Caddy running the shipped deploy/Caddyfile. Used by test/accel-redirect.test.ts and bench/download.bench.ts.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { nginxConfig, runNginx, stopper, waitForPort } from './nginx-process.js';

export { NGINX } from './nginx-process.js';
export const CADDY = process.env.HAUL_CADDY ?? '/usr/bin/caddy';
/** The internal prefix both proxies use here, as the decision record suggests. */
export const ACCEL_PREFIX = '/_haul/blobs';
const CADDYFILE = resolve(import.meta.dirname, '../../../deploy/Caddyfile');

export interface Proxy {
  base: string;
  stop: () => Promise<void>;
}

export async function freeLoopbackPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise((r) => srv.close(r));
  return port;
}

/**
 * The nginx `server` block of a Haul whose blob folder is `blobRoot`: everything is passed to Haul unbuffered, and
 * `<prefix>/` is an internal location (only an X-Accel-Redirect reaches it) serving the blob folder with Haul's headers.
 */
export function nginxAccelServer(listen: string, upstream: string, blobRoot: string, prefix = ACCEL_PREFIX): string {
  return `server {
    listen ${listen};
    location / {
      proxy_pass ${upstream};
      proxy_http_version 1.1;
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_buffering off;
      proxy_request_buffering off;
      client_max_body_size 0;
    }
    location ${prefix}/ {
      internal;
      alias ${blobRoot}/;
      # Haul's answer, not the file's: its ETag and type; no Last-Modified (when some account first stored the
      # content is nobody's business) and no judging of conditions by the file's date.
      etag off;
      if_modified_since off;
      max_ranges 1;
      default_type application/octet-stream;
      add_header Last-Modified "";
      add_header ETag $upstream_http_etag;
      add_header X-Content-Type-Options $upstream_http_x_content_type_options;
      add_header Content-Security-Policy $upstream_http_content_security_policy;
      add_header Referrer-Policy $upstream_http_referrer_policy;
      add_header X-Request-Id $upstream_http_x_request_id;
    }
  }`;
}

/** nginx on a free loopback port in front of `upstream` (http://127.0.0.1:port), with its state in `dir`. */
export async function startNginxAccel(dir: string, upstream: string, blobRoot: string, prefix = ACCEL_PREFIX): Promise<Proxy> {
  const tmp = join(dir, 'tmp');
  mkdirSync(tmp, { recursive: true });
  const port = await freeLoopbackPort();
  const http = `tcp_nopush on;
  include /etc/nginx/mime.types;
  ${nginxAccelServer(`127.0.0.1:${port}`, upstream, blobRoot, prefix)}`;
  const { stop } = await runNginx(dir, nginxConfig({ dir, tmp, workerConnections: 256, http }), port, 15_000);
  return { base: `http://127.0.0.1:${port}`, stop };
}

/**
 * Caddy running deploy/Caddyfile as compose.yaml does, with the addresses of this machine: the site on a free
 * loopback port, `upstreams` instead of the compose network's API processes, the blob folder where the compose file
 * mounts it. Caddy keeps its state under `dir`.
 */
export async function startCaddyAccel(dir: string, upstreams: string, blobRoot: string): Promise<Proxy> {
  if (!existsSync(CADDY)) throw new Error(`${CADDY} not found: install it with "apt-get install -y caddy".`);
  mkdirSync(dir, { recursive: true });
  const port = await freeLoopbackPort();
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: dir,
    XDG_DATA_HOME: join(dir, 'data'),
    XDG_CONFIG_HOME: join(dir, 'config'),
    HAUL_SITE_ADDRESS: `http://127.0.0.1:${port}`,
    HAUL_UPSTREAMS: upstreams,
    HAUL_BLOB_DIR: blobRoot,
  };
  const check = spawnSync(CADDY, ['validate', '--config', CADDYFILE, '--adapter', 'caddyfile'], { encoding: 'utf8', env });
  if (check.status !== 0) throw new Error(`caddy rejected deploy/Caddyfile: ${check.stderr}`);
  // The admin endpoint would take a fixed port (2019): off, one Caddy per test may run beside another.
  const child = spawn(CADDY, ['run', '--config', CADDYFILE, '--adapter', 'caddyfile'], { stdio: 'ignore', env: { ...env, HAUL_CADDY_ADMIN: 'off' } });
  await waitForPort(port, child, 'caddy', 15_000);
  return { base: `http://127.0.0.1:${port}`, stop: stopper(child) };
}
