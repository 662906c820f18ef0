/** WebDAV test pieces: a listening server, app passwords, and raw HTTP requests (paths sent exactly as written). */
import { execFile, execFileSync } from 'node:child_process';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { TokenResponse } from '@haul/shared';
import { sudoToken, type TestHaul } from './helper.js';

/** Runs a client and resolves with its output (rejects on a non-zero exit). */
export const run = promisify(execFile);

/** The environment that gives rclone a remote "haul:" on this server's /dav/, signed in with an app password. */
export async function rcloneEnv(work: string, base: string, vendor: string, user: string, password: string): Promise<NodeJS.ProcessEnv> {
  return {
    ...process.env,
    RCLONE_CONFIG: join(work, 'rclone.conf'),
    RCLONE_CONFIG_HAUL_TYPE: 'webdav',
    RCLONE_CONFIG_HAUL_URL: `${base}/dav/`,
    RCLONE_CONFIG_HAUL_VENDOR: vendor,
    RCLONE_CONFIG_HAUL_USER: user,
    RCLONE_CONFIG_HAUL_PASS: (await run('rclone', ['obscure', password])).stdout.trim(),
  };
}

/** Fails with the install step when a client the tests run is missing. */
export function requireTool(name: string): string {
  try {
    return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error(`${name} is not installed: apt-get install ${name} (.ci/run installs it)`);
  }
}

/** Starts listening on a free loopback port; returns the base URL. */
export async function listen(h: TestHaul): Promise<string> {
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
}

/** Makes an app password through the API and answers it with the account's e-mail as Basic credentials. */
export async function appPassword(h: TestHaul, who: TokenResponse, name = 'test device'): Promise<{ id: string; password: string; email: string; basic: string }> {
  const made = await h.api('POST', '/v1/user/app_passwords', who.access_token, { name, sudo_token: await sudoToken(h, who.access_token) });
  if (made.status !== 200) throw new Error(`app password: ${JSON.stringify(made.body)}`);
  const me = await h.api('GET', '/v1/user/me', who.access_token);
  const email = me.body.email as string;
  return { id: made.body.app_password.id, password: made.body.password, email, basic: basic(email, made.body.password) };
}

export const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

export interface DavAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** One request over a real socket with the raw path as given (no URL normalisation on the way). */
export function dav(base: string, method: string, rawPath: string, headers: Record<string, string> = {}, body?: string | Buffer): Promise<DavAnswer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method, path: rawPath, headers: { ...headers, ...(body !== undefined && !headers['transfer-encoding'] ? { 'content-length': String(Buffer.byteLength(body)) } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
