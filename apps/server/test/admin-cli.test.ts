import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestHaul } from './helper.js';
import { ADMIN_MAIN } from './child-server.js';

const run = promisify(execFile);

describe('haul-admin', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'haul-cli-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  // The CLI uses the same configuration as the server; against PostgreSQL it needs a database of its own.
  const env = { ...process.env, HAUL_DATA_DIR: dataDir, DATABASE_URL: '', HAUL_LOG_LEVEL: 'silent' };
  const admin = (...args: string[]) => run(process.execPath, [ADMIN_MAIN, ...args], { env });

  it('creates a user and resets a password that then signs in', async () => {
    const created = await admin('create-user', 'root@example.com', 'first-password', '--admin');
    expect(created.stdout).toMatch(/created root@example.com/);
    await admin('reset-password', 'root@example.com', 'second-password');
    expect((await admin('set-premium', 'root@example.com', '30')).stdout).toMatch(/root@example.com is premium until/);
    const h = await startTestHaul({ dataDir, databaseUrl: null });
    try {
      const old = await h.api('POST', '/v1/auth/signin', undefined, { username: 'root@example.com', password: 'first-password' });
      expect(old.status).toBe(400);
      const now = await h.api('POST', '/v1/auth/signin', undefined, { username: 'root@example.com', password: 'second-password' });
      expect(now.status).toBe(200);
      expect((await h.api('GET', '/v1/user/me', now.body.access_token)).body).toMatchObject({ is_admin: true, premium: true, vip_status: 'ok' });
    } finally {
      await h.destroy();
    }
    // Three runs of the command, each starting Node and the server's code: slow on a busy machine.
  }, 90_000);

  it('fails with a message for an unknown account or command', async () => {
    await expect(admin('reset-password', 'ghost@example.com', 'whatever-1')).rejects.toMatchObject({ stderr: expect.stringMatching(/no account with email ghost@example.com/) });
    await expect(admin('launch-rockets')).rejects.toMatchObject({ code: 2 });
  });
});
