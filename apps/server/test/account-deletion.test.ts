/**
 * Deleting an account, end to end on a real database and data folder: everything that opens the account stops at
 * once, everything it had is erased (rows in every table, bytes on disk, blobs no one else stores), nothing of another
 * account moves, the address is free again, and an erasure cut short by a crash is finished by the periodic jobs.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { markAccountDeleted } from '../src/accounts/account-deletion.service.js';
import { eraseAccount } from '../src/accounts/account-erasure.js';
import { createUser } from '../src/accounts/accounts.service.js';
import { buildHaul } from '../src/app.js';
import type { AppContext } from '../src/context.js';
import { purgeExpired } from '../src/files/trash.service.js';
import { startJobs } from '../src/jobs.js';
import { newestOutbox } from '../src/mail/outbox.js';
import { offlinePartPath } from '../src/offline/offline.service.js';
import type { LocalBlobStore } from '../src/storage/local-blob-store.js';
import { ADMIN_MAIN, until } from './child-server.js';
import { ManualClock, mkdir, startTestHaul, type TestHaul } from './helper.js';

const PW = 'correct horse';

/** Every row of every table (read from the database itself, not from our schema) that mentions one of `needles`. */
async function rowsMentioning(ctx: AppContext, needles: string[]): Promise<string[]> {
  const tables =
    ctx.dialect === 'postgres'
      ? (await sql<{ name: string }>`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'`.execute(ctx.db)).rows
      : (await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table'`.execute(ctx.db)).rows;
  expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(['users', 'files', 'blobs', 'attempt_limits', 'mail_outbox']));
  const found: string[] = [];
  for (const { name } of tables) {
    for (const row of (await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(name)}`.execute(ctx.db)).rows) {
      const text = JSON.stringify(row);
      if (needles.some((n) => text.includes(n))) found.push(`${name}: ${text.slice(0, 200)}`);
    }
  }
  return found;
}

/** An origin on loopback that sends a large body slowly (a download that is still running), noting when a client left. */
function slowOrigin() {
  const left = new Set<string>();
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0]!;
    const total = 64 * 1024 * 1024;
    res.writeHead(200, { 'content-length': total, 'content-type': 'application/octet-stream' });
    const timer = setInterval(() => res.write(randomBytes(32 * 1024)), 50);
    res.on('close', () => {
      clearInterval(timer);
      left.add(path);
    });
  });
  return { server, left };
}

describe('deleting an account', () => {
  const clock = new ManualClock(Date.now());
  let h: TestHaul;
  const origin = slowOrigin();
  let base = '';
  beforeAll(async () => {
    h = await startTestHaul({ allowPrivateNetwork: true }, clock);
    await new Promise<void>((r) => origin.server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(origin.server.address() as { port: number }).port}`;
    h.offline.start();
  });
  afterAll(async () => {
    origin.server.closeAllConnections();
    origin.server.close();
    await h.destroy();
  });

  const signIn = (email: string, password = PW) => h.api('POST', '/v1/auth/signin', undefined, { username: email, password });
  const me = async (token: string) => (await h.api('GET', '/v1/user/me', token)).status;
  const sudo = async (token: string) => (await h.api('POST', '/v1/user/sudo', token, { password: PW })).body.sudo_token as string;
  const deleteMe = (token: string, body: object) => h.api('POST', '/v1/user/me/deletion', token, body);
  const email = () => `p${randomBytes(5).toString('hex')}@example.com`;
  /** A download link (or thumbnail link) fetched in-process: its status and bytes. */
  const fetchLink = async (link: string) => {
    const res = await h.app.inject({ method: 'GET', url: link.replace('http://haul.test', '') });
    return { status: res.statusCode, raw: res.rawPayload };
  };

  it('ends the account at once, erases all it had, and leaves another account as it was', async () => {
    const annEmail = email();
    const ann = await h.signUp(annEmail, PW);
    const annPhone = (await signIn(annEmail)).body as TokenResponse;
    const bob = await h.signUp(email(), PW);
    const tok = ann.access_token;

    // Ann's drive: nested folders, content only she has, content Bob stores too, a picture, the trash.
    const docs = await mkdir(h, tok, 'Docs');
    const deep = await mkdir(h, tok, 'Deep', docs);
    const unique = await h.putFile(ann, deep, 'unique.bin', randomBytes(5000));
    const commonBytes = randomBytes(7000);
    const common = await h.putFile(ann, docs, 'common.bin', commonBytes);
    const bobCommon = await h.putFile(bob, '', 'mine.bin', commonBytes);
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3366cc' } }).png().toBuffer();
    const pic = await h.putFile(ann, '', 'pic.png', png);
    const old = await h.putFile(ann, deep, 'old.txt', 'old');
    expect((await h.api('POST', '/drive/v1/files:batchTrash', tok, { ids: [old.id] })).status).toBe(200);
    expect((await h.api('POST', '/drive/v1/events', tok, { event: { type: 'TYPE_PLAY', file_id: common.id } })).status).toBe(200);
    const share = (await h.api('POST', '/drive/v1/share', tok, { file_ids: [docs], share_to: 'publiclink', expiration_days: -1 })).body.share_id as string;
    const bobShare = (await h.api('POST', '/drive/v1/share', bob.access_token, { file_ids: [bobCommon.id], share_to: 'publiclink', expiration_days: -1 })).body.share_id as string;
    // Reports: Bob's of Ann's share (it goes with her share), Ann's of Bob's (it stays, no longer naming her).
    expect((await h.api('POST', '/drive/v1/share/report', bob.access_token, { share_id: share, reason: 'spam' })).status).toBe(200);
    const annReport = (await h.api('POST', '/drive/v1/share/report', tok, { share_id: bobShare, reason: 'other', message: 'odd' })).body.id as string;

    // An unfinished upload with bytes on disk.
    const up = await h.api('POST', '/drive/v1/files', tok, { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_RESUMABLE', name: 'half.bin', size: 100_000, parent_id: '' });
    const uploadId = up.body.resumable.params.key as string;
    const patch = await h.app.inject({
      method: 'PATCH',
      url: `/drive/v1/uploads/${uploadId}`,
      headers: { authorization: `Bearer ${tok}`, 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      payload: randomBytes(40_000),
    });
    expect(patch.statusCode).toBe(204);
    const uploadFiles = () => readdirSync(join(h.dataDir, 'uploads')).filter((f) => f.startsWith(uploadId));
    expect(uploadFiles().length).toBeGreaterThan(0);

    // Two cloud downloads with bytes on disk: one running, one paused.
    const task = async (path: string) => (await h.api('POST', '/drive/v1/files', tok, { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_URL', url: { url: `${base}${path}` }, parent_id: '' })).body.task.id as string;
    const running = await task('/running.bin');
    const paused = await task('/paused.bin');
    const size = async (id: string) => (existsSync(offlinePartPath(h.dataDir, id)) ? (await import('node:fs')).statSync(offlinePartPath(h.dataDir, id)).size : 0);
    await until(async () => Math.min(await size(running), await size(paused)), (n) => n > 100_000, 30_000);
    expect((await h.api('PATCH', `/drive/v1/tasks/${paused}`, tok, { phase: 'PHASE_TYPE_PAUSED' })).body.phase).toBe('PHASE_TYPE_PAUSED');
    await until(async () => origin.left.has('/paused.bin'), Boolean, 10_000);

    // Links handed out before: a download link, a thumbnail link, a share page and its download link.
    const download = (await h.api('GET', `/drive/v1/files/${common.id}`, tok)).body.web_content_link as string;
    const thumbnail = (await h.api('GET', `/drive/v1/files/${pic.id}`, tok)).body.thumbnail_link as string;
    const shareContent = (await h.api('GET', `/drive/v1/share/file_info?share_id=${share}&file_id=${common.id}`)).body.file_info.web_content_link as string;
    expect((await fetchLink(download)).status).toBe(200);
    expect((await fetchLink(thumbnail)).status).toBe(200);
    expect((await fetchLink(shareContent)).status).toBe(200);
    expect((await h.api('GET', `/drive/v1/share?share_id=${share}`)).body.share_status).toBe('OK');

    // Attempt counts kept under the account: a wrong password at sign-in and at sudo.
    expect((await signIn(annEmail, 'wrong password')).status).toBe(400);
    expect((await h.api('POST', '/v1/user/sudo', tok, { password: 'wrong password' })).status).toBe(400);

    const eligibility = await h.api('GET', '/v1/user/me/deletion/eligibility', tok);
    expect(eligibility.body).toEqual({
      eligible: true,
      reasons: [],
      file_count: '4',
      folder_count: '2',
      size: String(5000 + 7000 + png.length + 3),
      share_count: '1',
      cloud_download_count: '2',
      upload_count: '1',
    });

    const bobRows = async () => ({
      files: await h.ctx.db.selectFrom('files').selectAll().where('user_id', '=', bob.sub).orderBy('id').execute(),
      shares: await h.ctx.db.selectFrom('shares').selectAll().where('user_id', '=', bob.sub).execute(),
      share_files: await h.ctx.db.selectFrom('share_files').innerJoin('shares', 'shares.id', 'share_files.share_id').selectAll('share_files').where('shares.user_id', '=', bob.sub).execute(),
      events: await h.ctx.db.selectFrom('events').selectAll().where('user_id', '=', bob.sub).orderBy('id').execute(),
      tasks: await h.ctx.db.selectFrom('tasks').selectAll().where('user_id', '=', bob.sub).orderBy('id').execute(),
      sessions: await h.ctx.db.selectFrom('sessions').selectAll().where('user_id', '=', bob.sub).orderBy('id').execute(),
      user: await h.ctx.db.selectFrom('users').selectAll().where('id', '=', bob.sub).execute(),
    });
    const bobBefore = await bobRows();

    // Confirmed with a code mailed for DELETION (kept in the outbox here: no SMTP server).
    const asked = await h.api('POST', '/v1/auth/verification', tok, { usage: 'DELETION' });
    expect(asked.status).toBe(200);
    const code = /\b(\d{6})\b/.exec((await newestOutbox(h.ctx.db, 1))[0]!.text)![1]!;
    const verified = await h.api('POST', '/v1/auth/verification/verify', undefined, { verification_id: asked.body.verification_id, verification_code: code });
    const granted = await h.api('POST', '/v1/user/sudo', tok, { verification_token: verified.body.verification_token });
    expect(granted.status).toBe(200);
    const gone = await deleteMe(tok, { sudo_token: granted.body.sudo_token });
    expect(gone.status, JSON.stringify(gone.body)).toBe(200);
    expect(gone.body).toEqual({});

    // At once: tokens of both sessions, the refresh token, every link and the share; sign-in with the address.
    expect(await me(tok)).toBe(401);
    expect(await me(annPhone.access_token)).toBe(401);
    expect((await h.api('POST', '/v1/auth/token', undefined, { grant_type: 'refresh_token', refresh_token: annPhone.refresh_token })).status).toBe(401);
    expect((await fetchLink(download)).status).toBe(404);
    expect((await fetchLink(thumbnail)).status).toBe(404);
    expect((await fetchLink(shareContent)).status).toBe(404);
    expect(['DELETED', 'NOT_FOUND']).toContain((await h.api('GET', `/drive/v1/share?share_id=${share}`)).body.share_status);
    expect((await signIn(annEmail)).body.error).toBe('invalid_grant');

    // Then everything goes: the running download stops and its bytes with the paused one's, the upload's bytes, every row.
    await h.erasure.idle();
    await until(async () => origin.left.has('/running.bin') && !existsSync(offlinePartPath(h.dataDir, running)), Boolean, 10_000);
    expect(existsSync(offlinePartPath(h.dataDir, paused))).toBe(false);
    expect(uploadFiles()).toEqual([]);
    // The sign-in tried above left counts keyed by the address as any unknown address does: they are not the account's.
    const mentions = await rowsMentioning(h.ctx, [ann.sub, annEmail]);
    expect(mentions.filter((r) => !/^attempt_limits: .*"key":"signin\|[^"]*e:/.test(r))).toEqual([]);
    expect((await h.api('GET', `/drive/v1/share?share_id=${share}`)).body.share_status).toBe('NOT_FOUND');
    expect(await h.ctx.db.selectFrom('share_reports').select(['id', 'share_id', 'reporter_id']).execute()).toEqual([{ id: annReport, share_id: bobShare, reporter_id: '' }]);

    // Bytes no one else stores leave the disk at the purge after the grace period; Bob's stay, byte for byte.
    const store = h.ctx.blobs as LocalBlobStore;
    clock.advance(11 * 60_000);
    await purgeExpired(h.ctx);
    expect(existsSync(store.pathOf(unique.hash))).toBe(false);
    expect(existsSync(store.pathOf(pic.hash))).toBe(false);
    expect(existsSync(store.pathOf(common.hash))).toBe(true);
    expect((await h.ctx.db.selectFrom('blobs').select('ref_count').where('hash', '=', common.hash).executeTakeFirst())?.ref_count).toBe(1);
    // Compared before Bob reads his copy: the read itself is his, and adds his download event.
    expect(await bobRows()).toEqual(bobBefore);
    const bobLink = (await h.api('GET', `/drive/v1/files/${bobCommon.id}`, bob.access_token)).body.web_content_link as string;
    expect((await fetchLink(bobLink)).raw.equals(commonBytes)).toBe(true);

    // The address is free: a new account with it starts empty.
    const again = await h.signUp(annEmail, 'another long password');
    expect(again.sub).not.toBe(ann.sub);
    for (const url of ['/drive/v1/files?parent_id=', `/drive/v1/files?parent_id=*&filters=${encodeURIComponent('{"trashed":{"eq":true}}')}`, '/drive/v1/share/list', '/drive/v1/tasks', '/drive/v1/events']) {
      const res = await h.api('GET', url, again.access_token);
      expect(res.status, url).toBe(200);
      expect(res.body.files ?? res.body.data ?? res.body.tasks ?? res.body.events, url).toEqual([]);
    }
    expect((await signIn(annEmail, 'another long password')).status).toBe(200);
  }, 90_000);

  it('refuses without a sudo token of this session and account, and for the last administrator', async () => {
    const carlEmail = email();
    const carl = await h.signUp(carlEmail, PW);
    const dan = await h.signUp(email(), PW);
    const carlElsewhere = (await signIn(carlEmail)).body as TokenResponse;
    expect((await deleteMe(carl.access_token, {})).body.error).toBe('invalid_argument');
    expect((await deleteMe(carl.access_token, { sudo_token: await sudo(dan.access_token) })).body.error).toBe('invalid_grant');
    expect((await deleteMe(carl.access_token, { sudo_token: await sudo(carlElsewhere.access_token) })).body.error).toBe('invalid_grant');
    expect((await deleteMe(carl.access_token, { sudo_token: carl.access_token })).body.error).toBe('invalid_grant');
    const late = await sudo(carl.access_token);
    clock.advance(301_000);
    expect((await deleteMe(carl.access_token, { sudo_token: late })).body.error).toBe('invalid_grant');
    expect(await me(carl.access_token)).toBe(200);

    // Administrators: the last one (the only enabled one) may not go, and is told why.
    const first = await createUser(h.ctx, { email: email(), password: PW, isAdmin: true });
    const firstTok = ((await signIn(first.email)).body as TokenResponse).access_token;
    const told = (await h.api('GET', '/v1/user/me/deletion/eligibility', firstTok)).body;
    expect(told).toMatchObject({ eligible: false, reasons: [{ reason: 'LAST_ADMINISTRATOR', description: expect.stringMatching(/administrator/) }] });
    const refused = await deleteMe(firstTok, { sudo_token: await sudo(firstTok) });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: 'failed_precondition', details: [{ reason: 'LAST_ADMINISTRATOR' }] });
    expect(await me(firstTok)).toBe(200);
    const second = await createUser(h.ctx, { email: email(), password: PW, isAdmin: true });
    const secondTok = ((await signIn(second.email)).body as TokenResponse).access_token;
    expect((await h.api('GET', '/v1/user/me/deletion/eligibility', firstTok)).body.eligible).toBe(true);
    expect((await deleteMe(firstTok, { sudo_token: await sudo(firstTok) })).status).toBe(200);
    expect((await h.api('GET', '/v1/user/me/deletion/eligibility', secondTok)).body.eligible).toBe(false);
    // Two administrators deleting themselves at once: one goes, the other is then the last.
    const third = await createUser(h.ctx, { email: email(), password: PW, isAdmin: true });
    const thirdTok = ((await signIn(third.email)).body as TokenResponse).access_token;
    const [a, b] = await Promise.all([sudo(secondTok), sudo(thirdTok)]);
    const both = await Promise.all([deleteMe(secondTok, { sudo_token: a }), deleteMe(thirdTok, { sudo_token: b })]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    await h.erasure.idle();
  });

  it('lets the operator delete an account with haul-admin delete-user, by the same path', async () => {
    const eveEmail = email();
    const eve = await h.signUp(eveEmail, PW);
    await h.putFile(eve, await mkdir(h, eve.access_token, 'Stuff'), 'a.txt', randomBytes(100));
    const env = { ...process.env, HAUL_DATA_DIR: h.dataDir, DATABASE_URL: h.ctx.config.databaseUrl ?? '', HAUL_LOG_LEVEL: 'silent' };
    const out = await promisify(execFile)(process.execPath, [ADMIN_MAIN, 'delete-user', eveEmail.toUpperCase()], { env });
    expect(out.stdout).toMatch(/is deleted and signed out everywhere; erasing 1 files, 1 folders \(100 bytes\)/);
    expect(out.stdout).toMatch(/is erased/);
    expect(await me(eve.access_token)).toBe(401);
    expect(await rowsMentioning(h.ctx, [eve.sub, eveEmail])).toEqual([]);
    await expect(promisify(execFile)(process.execPath, [ADMIN_MAIN, 'delete-user', eveEmail], { env })).rejects.toMatchObject({ stderr: expect.stringMatching(/no account with email/) });
  }, 90_000);
});

describe('an erasure cut short', () => {
  it('is finished by the periodic jobs after a restart, releasing each blob reference once', async () => {
    const h = await startTestHaul();
    try {
      const fay = await h.signUp();
      const folder = await mkdir(h, fay.access_token, 'Many');
      // A drive larger than a few chunks: 1,200 files over two blobs, one of which another account stores too.
      const mine = await h.putFile(fay, folder, 'first.bin', randomBytes(3000));
      const shared = randomBytes(2000);
      const gil = await h.signUp();
      const gils = await h.putFile(gil, '', 'gil.bin', shared);
      const now = Date.now();
      const rows = Array.from({ length: 1200 }, (_, i) => ({
        ...mine,
        id: `bulk${String(i).padStart(16, '0')}`,
        name: `f${i}.bin`,
        hash: i % 2 ? mine.hash : gils.hash,
        size: i % 2 ? 3000 : 2000,
        created_time: now,
        modified_time: now,
        changed_time: now,
      }));
      for (let i = 0; i < rows.length; i += 200) await h.ctx.db.insertInto('files').values(rows.slice(i, i + 200)).execute();
      await h.ctx.db.updateTable('blobs').set((eb) => ({ ref_count: eb(eb.ref('ref_count'), '+', 600) })).where('hash', 'in', [mine.hash, gils.hash]).execute();
      const share = (await h.api('POST', '/drive/v1/share', fay.access_token, { file_ids: [folder], share_to: 'publiclink', expiration_days: -1 })).body.share_id as string;
      const up = await h.api('POST', '/drive/v1/files', fay.access_token, { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_RESUMABLE', name: 'u.bin', size: 10_000, parent_id: '' });
      const uploadId = up.body.resumable.params.key as string;

      // Marked (the account ends at once; a cancelled share's answer), then a few chunks, then the process dies.
      await markAccountDeleted(h.ctx, fay.sub);
      expect(await h.api('GET', `/drive/v1/share?share_id=${share}`).then((r) => r.body.share_status)).toBe('DELETED');
      expect((await h.api('GET', '/v1/user/me', fay.access_token)).status).toBe(401);
      expect(await eraseAccount(h.ctx, fay.sub, { maxChunks: 4 })).toBe('more');
      const left = await h.ctx.db.selectFrom('files').select('hash').where('user_id', '=', fay.sub).execute();
      expect(left.length).toBeGreaterThan(0);
      expect(left.length).toBeLessThan(1202);
      // Whatever was erased released exactly its references: the counts still match the rows that are left.
      const refs = async (hash: string) => Number((await h.ctx.db.selectFrom('blobs').select('ref_count').where('hash', '=', hash).executeTakeFirstOrThrow()).ref_count);
      const count = (hash: string) => left.filter((r) => r.hash === hash).length;
      expect(await refs(mine.hash)).toBe(count(mine.hash));
      expect(await refs(gils.hash)).toBe(count(gils.hash) + 1);
      await h.offline.stop();
      await h.media.stop();
      await h.app.close();
      await h.ctx.db.destroy();

      // The next start: its jobs take the erasure up from what is left and finish it.
      const again = await buildHaul(h.ctx.config, { logger: false });
      const stop = startJobs(again.ctx, again.app.log);
      try {
        await until(() => again.ctx.db.selectFrom('users').select('id').where('id', '=', fay.sub).execute(), (r) => r.length === 0, 30_000);
        expect(await rowsMentioning(again.ctx, [fay.sub])).toEqual([]);
        expect(readdirSync(join(h.dataDir, 'uploads')).filter((f) => f.startsWith(uploadId))).toEqual([]);
        const after = await again.ctx.db.selectFrom('blobs').select(['hash', 'ref_count']).where('hash', 'in', [mine.hash, gils.hash]).execute();
        expect(Object.fromEntries(after.map((b) => [b.hash, Number(b.ref_count)]))).toEqual({ [mine.hash]: 0, [gils.hash]: 1 });
        expect((await again.app.inject({ url: `/drive/v1/files/${gils.id}`, headers: { authorization: `Bearer ${gil.access_token}` } })).statusCode).toBe(200);
      } finally {
        stop();
        await again.close();
      }
    } finally {
      await h.destroy().catch(() => undefined);
    }
  }, 90_000);
});
