import { randomBytes } from 'node:crypto';
import * as tus from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cidSampleRanges, type TokenResponse } from '@haul/shared';
import { buildHaul } from '../src/app.js';
import { contentHashOf } from '../src/storage/content-hash.js';
import { expireUploads } from '../src/uploads/uploads.service.js';
import { ManualClock, startTestHaul, uploadLeftovers, type TestHaul } from './helper.js';
import { createProven, proofAnswer as answer } from './upload-proof.js';

describe('uploads', () => {
  let h: TestHaul;
  let base: string;
  let t: TokenResponse;
  const clock = new ManualClock(Date.now());

  const listen = async (haul: { app: TestHaul['app'] }) => {
    await haul.app.listen({ port: 0, host: '127.0.0.1' });
    const addr = haul.app.server.address() as { port: number };
    return `http://127.0.0.1:${addr.port}`;
  };
  const create = (tok: string, body: object) => h.api('POST', '/drive/v1/files', tok, { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_RESUMABLE', parent_id: '', ...body });
  const send = (tok: string, url: string, content: Buffer, opts: Partial<tus.UploadOptions> = {}) =>
    new Promise<void>((resolve, reject) => {
      const up = new tus.Upload(content, {
        uploadUrl: url,
        headers: { authorization: `Bearer ${tok}` },
        chunkSize: 1024 * 1024,
        retryDelays: [],
        onSuccess: () => resolve(),
        onError: reject,
        ...opts,
      });
      up.start();
    });
  const urlOf = (res: { body: any }) => res.body.resumable.params.upload_url.replace('http://haul.test', base);

  beforeAll(async () => {
    h = await startTestHaul({}, clock);
    base = await listen(h);
    t = await h.signUp();
  });
  afterAll(() => h.destroy().catch(() => undefined));

  it('uploads in chunks over tus; the file appears only when complete, named by the hash the server computed', async () => {
    const content = randomBytes(3 * 1024 * 1024 + 17);
    const hash = await contentHashOf(content);
    // A proof is asked first, as for any file this large with a hash; the content is not stored, so the bytes are sent.
    const res = await createProven((b) => create(t.access_token, b), { name: 'movie.mp4', size: String(content.length), hash }, content);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ upload_type: 'UPLOAD_TYPE_RESUMABLE', file: null, resumable: { provider: 'PROVIDER_TUS' } });
    expect(res.body.task).toMatchObject({ type: 'upload', phase: 'PHASE_TYPE_RUNNING' });
    const listBefore = await h.api('GET', '/drive/v1/files?parent_id=', t.access_token);
    expect(listBefore.body.files.map((f: any) => f.name)).not.toContain('movie.mp4');

    await send(t.access_token, urlOf(res), content);
    const task = await h.api('GET', `/drive/v1/tasks/${res.body.task.id}`, t.access_token);
    expect(task.body).toMatchObject({ phase: 'PHASE_TYPE_COMPLETE', progress: 100 });
    const file = await h.api('GET', `/drive/v1/files/${task.body.file_id}`, t.access_token);
    expect(file.body).toMatchObject({ name: 'movie.mp4', size: String(content.length), hash, mime_type: 'video/mp4' });
    const dl = await h.api('GET', file.body.web_content_link.replace('http://haul.test', ''));
    expect(Buffer.compare(dl.raw, content)).toBe(0);
    // Nothing is left behind where uploads gather (the local folder, or the bucket's uploads/).
    expect(await uploadLeftovers(h)).toEqual([]);
  });

  it('keeps nothing when the bytes do not match the announced hash', async () => {
    const content = randomBytes(100_000);
    const res = await create(t.access_token, { name: 'liar.bin', size: content.length, hash: await contentHashOf('something else') });
    await expect(send(t.access_token, urlOf(res), content)).rejects.toThrow(/file_hash_mismatch|do not match/);
    const task = await h.api('GET', `/drive/v1/tasks/${res.body.task.id}`, t.access_token);
    expect(task.body.phase).toBe('PHASE_TYPE_ERROR');
    expect(task.body.message).toMatch(/do not match/);
    const names = (await h.api('GET', '/drive/v1/files?parent_id=', t.access_token)).body.files.map((f: any) => f.name);
    expect(names).not.toContain('liar.bin');
    expect(await h.ctx.blobs.has(await contentHashOf(content))).toBe(false);
  });

  it('completes at once for content already stored, once the client proves it has the bytes', async () => {
    const content = randomBytes(500_000);
    const hash = await contentHashOf(content);
    const first = await createProven((b) => create(t.access_token, b), { name: 'original.bin', size: content.length, hash }, content);
    await send(t.access_token, urlOf(first), content);
    const blobsBefore = await h.ctx.db.selectFrom('blobs').select('hash').execute();

    const other = await h.signUp();
    const ask = await create(other.access_token, { name: 'mine.bin', size: content.length, hash });
    expect(ask.body.resumable).toBeNull();
    const { challenge, ranges } = ask.body.proof_of_possession;
    expect(ranges.length).toBeGreaterThan(0);
    const done = await create(other.access_token, { name: 'mine.bin', size: content.length, hash, proof: { challenge, answer: await answer(content, ranges) } });
    expect(done.body.file).toMatchObject({ name: 'mine.bin', hash, size: String(content.length) });
    expect(done.body.task.phase).toBe('PHASE_TYPE_COMPLETE');
    expect(await h.ctx.db.selectFrom('blobs').select('hash').execute()).toEqual(blobsBefore);
    expect((await h.ctx.db.selectFrom('blobs').select('ref_count').where('hash', '=', hash).executeTakeFirstOrThrow()).ref_count).toBe(2);
  });

  it('never grants content for a claimed hash alone', async () => {
    const secret = randomBytes(300_000);
    const hash = await contentHashOf(secret);
    const owner = await createProven((b) => create(t.access_token, b), { name: 'secret.bin', size: secret.length, hash }, secret);
    await send(t.access_token, urlOf(owner), secret);

    const thief = await h.signUp();
    const ask = await create(thief.access_token, { name: 'stolen.bin', size: secret.length, hash });
    const guess = await create(thief.access_token, { name: 'stolen.bin', size: secret.length, hash, proof: { challenge: ask.body.proof_of_possession.challenge, answer: hash } });
    expect(guess.body.file).toBeNull();
    expect(guess.body.resumable.params.upload_url).toBeTruthy();
    // A challenge issued to someone else does not work either.
    const ownerAsk = await create(t.access_token, { name: 'again.bin', size: secret.length, hash });
    const replay = await create(thief.access_token, {
      name: 'stolen2.bin', size: secret.length, hash,
      proof: { challenge: ownerAsk.body.proof_of_possession.challenge, answer: await answer(secret, ownerAsk.body.proof_of_possession.ranges) },
    });
    expect(replay.body.file).toBeNull();
    expect((await h.api('GET', '/drive/v1/files?parent_id=', thief.access_token)).body.files).toEqual([]);
  });

  /** An answer with what differs between two asks blanked out: random ranges and the signed challenge. */
  const shape = (body: any) => ({ ...body, proof_of_possession: body.proof_of_possession && { challenge: typeof body.proof_of_possession.challenge, ranges: body.proof_of_possession.ranges.map(() => 'range') } });

  it('answers alike whether or not the content is stored, until the proof is checked', async () => {
    const theirs = randomBytes(400_000);
    await send(t.access_token, urlOf(await createProven((b) => create(t.access_token, b), { name: 'private.bin', size: theirs.length, hash: await contentHashOf(theirs) }, theirs)), theirs);
    const unknown = randomBytes(theirs.length);

    const newcomer = await h.signUp();
    const askStored = await create(newcomer.access_token, { name: 'a.bin', size: theirs.length, hash: await contentHashOf(theirs) });
    const askUnknown = await create(newcomer.access_token, { name: 'b.bin', size: unknown.length, hash: await contentHashOf(unknown) });
    expect([askStored.status, askUnknown.status]).toEqual([200, 200]);
    expect(Object.keys(askStored.body).sort()).toEqual(Object.keys(askUnknown.body).sort());
    expect(shape(askStored.body)).toEqual(shape(askUnknown.body));
    expect(askUnknown.body).toMatchObject({ file: null, task: null, resumable: null });
    expect(askUnknown.body.proof_of_possession.ranges).toHaveLength(3);
    // Neither ask left an upload, a task or a file behind.
    expect(await h.ctx.db.selectFrom('tasks').select('id').where('user_id', '=', newcomer.sub).execute()).toEqual([]);

    // Content not stored fails the proof closed: the ordinary upload follows, and completes.
    const proven = { challenge: askUnknown.body.proof_of_possession.challenge, answer: await answer(unknown, askUnknown.body.proof_of_possession.ranges) };
    const upload = await create(newcomer.access_token, { name: 'b.bin', size: unknown.length, hash: await contentHashOf(unknown), proof: proven });
    expect(upload.body.file).toBeNull();
    await send(newcomer.access_token, urlOf(upload), unknown);
    const done = await h.api('GET', `/drive/v1/tasks/${upload.body.task.id}`, newcomer.access_token);
    expect(done.body.phase).toBe('PHASE_TYPE_COMPLETE');
    // A wrong answer for stored content looks the same as a right one for content not stored.
    const wrong = await create(newcomer.access_token, { name: 'a.bin', size: theirs.length, hash: await contentHashOf(theirs), proof: { challenge: askStored.body.proof_of_possession.challenge, answer: await contentHashOf('guess') } });
    expect(wrong.body.file).toBeNull();
    expect(wrong.body.resumable.params.upload_url).toBeTruthy();
  });

  it('deduplicates small files only within the account that holds them', async () => {
    const small = randomBytes(50_000);
    const hash = await contentHashOf(small);
    const owner = await h.signUp();
    await h.putFile(owner, '', 'note.txt', small);

    // Another account knowing the hash: an ordinary upload, as for any small content it does not hold.
    const stranger = await h.signUp();
    const ask = await create(stranger.access_token, { name: 'note.txt', size: small.length, hash });
    const unknown = await create(stranger.access_token, { name: 'other.txt', size: small.length, hash: await contentHashOf(randomBytes(small.length)) });
    expect(ask.body.proof_of_possession).toBeUndefined();
    expect(ask.body).toMatchObject({ file: null, resumable: { provider: 'PROVIDER_TUS' } });
    expect(Object.keys(ask.body).sort()).toEqual(Object.keys(unknown.body).sort());
    // The small file's proof would be the hash itself: a challenge for another size does not open it either.
    const big = await create(stranger.access_token, { name: 'x.bin', size: 300_000, hash });
    const forged = await create(stranger.access_token, { name: 'note.txt', size: small.length, hash, proof: { challenge: big.body.proof_of_possession.challenge, answer: hash } });
    expect(forged.body.file).toBeNull();
    expect((await h.api('GET', '/drive/v1/files?parent_id=', stranger.access_token)).body.files).toEqual([]);

    // The owner's own copy is instant (the proof of a small file is its hash).
    const mine = await createProven((b) => create(owner.access_token, b), { name: 'copy.txt', size: small.length, hash }, small);
    expect(mine.body.file).toMatchObject({ name: 'copy.txt', hash });
    expect(mine.body.task.phase).toBe('PHASE_TYPE_COMPLETE');
  });

  it('enforces the size limits and the quota, counting uploads in flight', async () => {
    const big = await create(t.access_token, { name: 'huge.iso', size: String(5 * 1024 ** 3) });
    expect(big.status).toBe(400);
    expect(big.body.error_description).toMatch(/exceeds 4G/);
    const tiny = await startTestHaul({ defaultQuotaBytes: 1_000_000 });
    try {
      const u = await tiny.signUp();
      const mk = (size: number) => tiny.api('POST', '/drive/v1/files', u.access_token, { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_RESUMABLE', name: 'p.bin', size, parent_id: '' });
      expect((await mk(600_000)).status).toBe(200);
      const second = await mk(600_000);
      expect(second.status).toBe(403);
      expect(second.body.error).toBe('file_space_not_enough');
    } finally {
      await tiny.destroy();
    }
  });

  it('lets only the owner touch an upload, and only through uploads it created', async () => {
    const content = randomBytes(1000);
    const res = await create(t.access_token, { name: 'private.bin', size: content.length });
    const url = urlOf(res);
    const stranger = await h.signUp();
    await expect(send(stranger.access_token, url, content)).rejects.toThrow(/404|does not exist/);
    await expect(send('', url, content)).rejects.toThrow(/401/);
    const post = await fetch(`${base}/drive/v1/uploads`, { method: 'POST', headers: { authorization: `Bearer ${t.access_token}`, 'tus-resumable': '1.0.0', 'upload-length': '10' } });
    expect(post.status).toBe(404);
    await send(t.access_token, url, content);
  });

  it('cancel and expiry remove the bytes of unfinished uploads', async () => {
    const holds = async (id: string) => (await uploadLeftovers(h)).some((k) => k.includes(id));
    const content = randomBytes(2 * 1024 * 1024);
    const res = await create(t.access_token, { name: 'cancel-me.bin', size: content.length });
    const url = urlOf(res);
    const id = res.body.resumable.params.key;
    await new Promise<void>((resolve, reject) => {
      const up = new tus.Upload(content, {
        uploadUrl: url, headers: { authorization: `Bearer ${t.access_token}` }, chunkSize: 1024 * 1024, retryDelays: [],
        onChunkComplete: () => void up.abort().then(resolve), onError: reject,
      });
      up.start();
    });
    expect(await holds(id)).toBe(true);
    const del = await h.api('DELETE', `/drive/v1/tasks?task_ids=${res.body.task.id}`, t.access_token);
    expect(del.status).toBe(200);
    expect(await holds(id)).toBe(false);
    expect((await fetch(url, { method: 'HEAD', headers: { authorization: `Bearer ${t.access_token}`, 'tus-resumable': '1.0.0' } })).status).toBe(404);

    const stale = await create(t.access_token, { name: 'abandoned.bin', size: 10 });
    const staleId = stale.body.resumable.params.key;
    expect(await holds(staleId)).toBe(true);
    clock.advance(8 * 86_400_000);
    expect(await expireUploads(h.ctx, h.ctx.uploads)).toBeGreaterThanOrEqual(1);
    expect(await holds(staleId)).toBe(false);
    clock.t = Date.now();
  });
  // Last: it restarts the server.
  it('resumes after an interruption and after a server restart, from the bytes already received', async () => {
    const content = randomBytes(4 * 1024 * 1024);
    const hash = await contentHashOf(content);
    const res = await createProven((b) => create(t.access_token, b), { name: 'resumed.bin', size: content.length, hash }, content);
    const url = urlOf(res);
    // First attempt: stop after the first chunk.
    await new Promise<void>((resolve, reject) => {
      const up = new tus.Upload(content, {
        uploadUrl: url,
        headers: { authorization: `Bearer ${t.access_token}` },
        chunkSize: 1024 * 1024,
        retryDelays: [],
        onChunkComplete: () => {
          void up.abort().then(resolve);
        },
        onError: reject,
      });
      up.start();
    });
    const head = await fetch(url, { method: 'HEAD', headers: { authorization: `Bearer ${t.access_token}`, 'tus-resumable': '1.0.0' } });
    expect(Number(head.headers.get('upload-offset'))).toBe(1024 * 1024);

    // Restart the server on the same data folder; the upload goes on from where it stopped.
    await h.app.close();
    const again = await buildHaul(h.ctx.config, { clock, logger: false });
    const base2 = await listen(again);
    let firstOffset = -1;
    await send(t.access_token, url.replace(base, base2), content, {
      onProgress: (sent) => {
        if (firstOffset < 0) firstOffset = sent;
      },
    });
    expect(firstOffset).toBeGreaterThanOrEqual(1024 * 1024);
    const task = (await again.app.inject({ url: `/drive/v1/tasks/${res.body.task.id}`, headers: { authorization: `Bearer ${t.access_token}` } })).json();
    expect(task.phase).toBe('PHASE_TYPE_COMPLETE');
    const file = (await again.app.inject({ url: `/drive/v1/files/${task.file_id}`, headers: { authorization: `Bearer ${t.access_token}` } })).json();
    expect(file.hash).toBe(hash);
    await again.close();
  });

});

describe('large-file pre-check (cid)', () => {
  it('knows a stored large file by its sample id, and nothing else', async () => {
    const h = await startTestHaul();
    try {
      const t = await h.signUp();
      await h.app.listen({ port: 0, host: '127.0.0.1' });
      const base = `http://127.0.0.1:${(h.app.server.address() as { port: number }).port}`;
      const content = randomBytes(105 * 1024 * 1024);
      const res = await h.api('POST', '/drive/v1/files', t.access_token, { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_RESUMABLE', name: 'big.bin', size: content.length, parent_id: '' });
      await new Promise<void>((resolve, reject) => {
        new tus.Upload(content, {
          uploadUrl: res.body.resumable.params.upload_url.replace('http://haul.test', base),
          headers: { authorization: `Bearer ${t.access_token}` }, chunkSize: 32 * 1024 * 1024, retryDelays: [], onSuccess: () => resolve(), onError: reject,
        }).start();
      });
      const cid = await contentHashOf(Buffer.concat(cidSampleRanges(content.length).map(([s, e]) => content.subarray(s, e))));
      const yes = await h.api('GET', `/drive/v1/resource/cid?cid=${cid}&file_size=${content.length}`, t.access_token);
      expect(yes.body).toEqual({ exists: true });
      const no = await h.api('GET', `/drive/v1/resource/cid?cid=${cid}&file_size=${content.length + 1}`, t.access_token);
      expect(no.body).toEqual({ exists: false });
    } finally {
      await h.destroy();
    }
  });
});
