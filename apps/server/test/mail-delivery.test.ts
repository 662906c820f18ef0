/**
 * How mail leaves: sign-ups ask for a verified address by default only when SMTP is set; a mail server that is down
 * makes a code request answer 503 (and a reset answer as ever); without SMTP the mail lands in the outbox table, is
 * logged without its code, and `haul-admin outbox` prints it. The codes themselves: verification.test.ts.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createUser } from '../src/accounts/accounts.service.js';
import { loadConfig, signupNeedsVerification } from '../src/config.js';
import { startTestHaul } from './helper.js';
import { codeIn } from './mail-inbox.js';
import { ADMIN_MAIN } from './child-server.js';

const PW = 'correct horse';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('mail settings', () => {
  it('asks for verified sign-ups by default only when SMTP is set', () => {
    expect(signupNeedsVerification(loadConfig({}))).toBe(false);
    expect(signupNeedsVerification(loadConfig({ HAUL_SMTP_URL: 'smtp://mail.example.com:587' }))).toBe(true);
    expect(signupNeedsVerification(loadConfig({ HAUL_SMTP_URL: 'smtp://mail.example.com:587', HAUL_SIGNUP_VERIFICATION: 'off' }))).toBe(false);
    expect(signupNeedsVerification(loadConfig({ HAUL_SIGNUP_VERIFICATION: 'on' }))).toBe(true);
    expect(() => loadConfig({ HAUL_SIGNUP_VERIFICATION: 'sometimes' })).toThrow(/auto, on or off/);
    expect(() => loadConfig({ HAUL_SMTP_URL: 'mail.example.com' })).toThrow(/smtp:\/\//);
    expect(loadConfig({ HAUL_PUBLIC_URL: 'https://drive.example.org' }).mailFrom).toBe('Haul <noreply@drive.example.org>');
  });
});

describe('a mail server that is down', () => {
  it('answers 503 for a code it could not mail, and the same as ever for a reset', async () => {
    // A port nobody listens on: bound, then closed.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const h = await startTestHaul({ smtpUrl: `smtp://127.0.0.1:${port}` });
    try {
      const down = await h.api('POST', '/v1/auth/verification', undefined, { usage: 'REGISTER', email: 'hopeful@example.com' });
      expect(down.status).toBe(503);
      expect(down.body).toMatchObject({ error: 'unavailable', error_description: expect.stringMatching(/could not be mailed/) });
      await createUser(h.ctx, { email: 'known@example.com', password: PW });
      expect((await h.api('POST', '/v1/auth/verification', undefined, { usage: 'PASSWORD_RESET', email: 'known@example.com' })).status).toBe(200);
    } finally {
      await h.destroy();
    }
  });
});

describe('without SMTP: the outbox', () => {
  const run = promisify(execFile);

  it('keeps the mail in the outbox, logs it without the code, and haul-admin outbox prints it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'haul-mail-'));
    const lines: string[] = [];
    // SQLite in a folder of its own, so the command line (another process) reads the same database.
    const h = await startTestHaul({ dataDir, databaseUrl: null, logLevel: 'info' }, undefined, { logStream: { write: (l) => void lines.push(l) } });
    try {
      const email = 'household@example.com';
      await h.signUp(email);
      const asked = await h.api('POST', '/v1/auth/verification', undefined, { usage: 'PASSWORD_RESET', email });
      expect(asked.status).toBe(200);
      let rows = await h.ctx.db.selectFrom('mail_outbox').selectAll().execute();
      for (let i = 0; i < 100 && !rows.length; i++, await sleep(50)) rows = await h.ctx.db.selectFrom('mail_outbox').selectAll().execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ to_address: email, subject: 'Reset your Haul password' });
      const code = codeIn({ text: rows[0]!.text_body });
      expect(rows[0]!.html_body).toContain(code);

      const logged = lines.filter((l) => l.includes('outbox'));
      expect(logged).toHaveLength(1);
      expect(logged[0]).toContain(email);
      expect(logged[0]).toContain('Reset your Haul password');
      expect(lines.join('')).not.toMatch(new RegExp(`\\b${code}\\b`));

      const env = { ...process.env, HAUL_DATA_DIR: dataDir, DATABASE_URL: '', HAUL_SMTP_URL: '', HAUL_LOG_LEVEL: 'silent' };
      const { stdout } = await run(process.execPath, [ADMIN_MAIN, 'outbox', '--limit', '5'], { env });
      expect(stdout).toContain(`To: ${email}`);
      expect(stdout).toContain('Subject: Reset your Haul password');
      expect(stdout).toContain(code);

      const v = await h.api('POST', '/v1/auth/verification/verify', undefined, { verification_id: asked.body.verification_id, verification_code: code });
      expect(v.status).toBe(200);
    } finally {
      await h.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
