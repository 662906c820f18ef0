/**
 * Uploads under concurrency: two tus clients on one upload, final PATCHes racing each other, and many creations at
 * once against a quota that fits only a few. Runs on SQLite, and on PostgreSQL with HAUL_TEST_DATABASE_URL.
 */
import { randomBytes } from 'node:crypto';
import * as tus from 'tus-js-client';
import { afterEach, describe, expect, it } from 'vitest';
import { contentHashOf } from '../src/storage/content-hash.js';
import { createProven } from './upload-proof.js';
import { startTestHaul, type TestHaul } from './helper.js';

const MiB = 1024 * 1024;
const running: TestHaul[] = [];
afterEach(async () => {
  for (const h of running.splice(0)) {
    // The test's own HTTP clients keep connections alive; closing must not wait for them.
    h.app.server.closeAllConnections();
    await h.destroy().catch(() => undefined);
  }
});

/** A Haul listening on a loopback port (tus-js-client talks HTTP, not inject). */
async function listening(overrides: Parameters<typeof startTestHaul>[0] = {}) {
  const h = await startTestHaul(overrides);
  running.push(h);
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(h.app.server.address() as { port: number }).port}`;
  return { h, base };
}

async function createUpload(h: TestHaul, base: string, token: string, name: string, content: Buffer) {
  const body = { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_RESUMABLE', name, size: String(content.length), hash: await contentHashOf(content), parent_id: '' };
  const res = await createProven((b) => h.api('POST', '/drive/v1/files', token, b), body, content);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { url: res.body.resumable.params.upload_url.replace('http://haul.test', base) as string, taskId: res.body.task.id as string };
}

/** One tus client sending the whole content; settles with its outcome instead of throwing. */
function client(url: string, token: string, content: Buffer, patches: number[]) {
  return new Promise<{ ok: boolean; error?: string; status?: number }>((resolve) => {
    new tus.Upload(content, {
      uploadUrl: url,
      headers: { authorization: `Bearer ${token}` },
      chunkSize: MiB,
      // 409 (offset moved under us) and 423 (locked) are retried: HEAD for the server's offset, then PATCH from there.
      retryDelays: [0, 50, 100, 200, 400, 800, 1000, 1000, 1000, 1000],
      onBeforeRequest: (req) => {
        if (req.getMethod() === 'PATCH') patches.push(Number(req.getHeader('Upload-Offset')));
      },
      onSuccess: () => resolve({ ok: true }),
      onError: (err) => {
        const status = (err as tus.DetailedError).originalResponse?.getStatus();
        resolve({ ok: false, error: String(err).slice(0, 300), status });
      },
    }).start();
  });
}

const tusHeaders = (token: string, extra: Record<string, string> = {}) => ({
  authorization: `Bearer ${token}`,
  'tus-resumable': '1.0.0',
  ...extra,
});

describe('two clients on one upload', { timeout: 120_000 }, () => {
  it('never corrupts it: the file has the right hash and appears exactly once', async () => {
    const { h, base } = await listening();
    const t = await h.signUp();
    const content = randomBytes(24 * MiB + 123);
    const hash = await contentHashOf(content);
    const { url, taskId } = await createUpload(h, base, t.access_token, 'shared.bin', content);

    const patchesA: number[] = [];
    const patchesB: number[] = [];
    const [a, b] = await Promise.all([client(url, t.access_token, content, patchesA), client(url, t.access_token, content, patchesB)]);
    // Both really sent bytes to the same upload.
    expect(patchesA.length).toBeGreaterThan(0);
    expect(patchesB.length).toBeGreaterThan(0);
    // At least one finished; one that did not was refused with a 4xx (the upload was finished and gone), never a 5xx.
    expect(a.ok || b.ok, JSON.stringify([a, b])).toBe(true);
    for (const r of [a, b].filter((x) => !x.ok)) {
      expect(r.status, r.error).toBeGreaterThanOrEqual(400);
      expect(r.status, r.error).toBeLessThan(500);
    }

    const task = await h.api('GET', `/drive/v1/tasks/${taskId}`, t.access_token);
    expect(task.body).toMatchObject({ phase: 'PHASE_TYPE_COMPLETE', progress: 100 });
    const files = (await h.api('GET', '/drive/v1/files?parent_id=', t.access_token)).body.files;
    expect(files.map((f: { name: string }) => f.name)).toEqual(['shared.bin']);
    expect(files[0]).toMatchObject({ size: String(content.length), hash });
    const file = await h.api('GET', `/drive/v1/files/${files[0].id}`, t.access_token);
    const dl = await h.api('GET', file.body.web_content_link.replace('http://haul.test', ''));
    expect(Buffer.compare(dl.raw, content)).toBe(0);
    expect((await h.ctx.db.selectFrom('blobs').select('ref_count').where('hash', '=', hash).executeTakeFirstOrThrow()).ref_count).toBe(1);
  });

  it('finishes once when the last bytes and a second final PATCH arrive together', async () => {
    const { h, base } = await listening();
    const t = await h.signUp();
    const content = randomBytes(16 * MiB);
    const hash = await contentHashOf(content);
    const { url, taskId } = await createUpload(h, base, t.access_token, 'twice.bin', content);
    const head = content.length - MiB;
    const first = await fetch(url, {
      method: 'PATCH',
      headers: tusHeaders(t.access_token, { 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }),
      body: content.subarray(0, head),
    });
    expect(first.status).toBe(204);

    // Client A sends the last MiB; client B, believing every byte is there, keeps PATCHing nothing at the end offset.
    const last = fetch(url, {
      method: 'PATCH',
      headers: tusHeaders(t.access_token, { 'upload-offset': String(head), 'content-type': 'application/offset+octet-stream' }),
      body: content.subarray(head),
    }).then((r) => r.status);
    let aDone = false;
    void last.then(() => (aDone = true));
    const statuses: number[] = [];
    // Until the upload is gone (finished) after A's answer.
    for (let i = 0; i < 1000; i++) {
      const r = await fetch(url, {
        method: 'PATCH',
        headers: tusHeaders(t.access_token, { 'upload-offset': String(content.length), 'content-type': 'application/offset+octet-stream' }),
        body: new Uint8Array(0),
      });
      await r.arrayBuffer();
      statuses.push(r.status);
      if (aDone && r.status === 404) break;
    }
    const aStatus = await last;
    // Refusals (409 offset moved, 404/410 finished and gone) or a shared finish (204); never a server error.
    expect(statuses.every((s) => s < 500), JSON.stringify(statuses)).toBe(true);
    expect(aStatus).toBe(204);

    const task = await h.api('GET', `/drive/v1/tasks/${taskId}`, t.access_token);
    expect(task.body).toMatchObject({ phase: 'PHASE_TYPE_COMPLETE' });
    const files = (await h.api('GET', '/drive/v1/files?parent_id=', t.access_token)).body.files;
    expect(files.map((f: { name: string }) => f.name)).toEqual(['twice.bin']);
    expect(files[0].hash).toBe(hash);
    expect((await h.ctx.db.selectFrom('blobs').select('ref_count').where('hash', '=', hash).executeTakeFirstOrThrow()).ref_count).toBe(1);
  });
});

describe('quota race', () => {
  it('lets only as many uploads start at once as the free space fits', async () => {
    const S = 1_000_000;
    // Room for five uploads of S, not six.
    const quota = 5 * S + S / 2;
    const h = await startTestHaul({ defaultQuotaBytes: quota });
    running.push(h);
    const t = await h.signUp();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        h.api('POST', '/drive/v1/files', t.access_token, {
          kind: 'drive#file',
          upload_type: 'UPLOAD_TYPE_RESUMABLE',
          name: `part-${i}.bin`,
          size: String(S),
          parent_id: '',
        }),
      ),
    );
    const ok = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status !== 200);
    expect(ok.length).toBe(5);
    expect(refused.length).toBe(15);
    for (const r of refused) {
      expect(r.status).toBe(403);
      expect(r.body).toMatchObject({ error: 'file_space_not_enough', error_code: 8 });
    }
    const reserved = await h.ctx.db.selectFrom('uploads').select('size').where('user_id', '=', t.sub).execute();
    expect(reserved.length).toBe(5);
    expect(reserved.reduce((n, u) => n + Number(u.size), 0)).toBeLessThanOrEqual(quota);
    // A refusal changes nothing: no stray upload task either.
    const tasks = await h.ctx.db.selectFrom('tasks').select('id').where('user_id', '=', t.sub).execute();
    expect(tasks.length).toBe(5);
  });

  it('lets only as many instant uploads complete at once as the free space fits', async () => {
    const S = 1_000_000;
    const quota = 5 * S + S / 2;
    const h = await startTestHaul({ defaultQuotaBytes: quota });
    running.push(h);
    // Content someone else already stored: the account below proves it has the bytes and sends none.
    const owner = await h.signUp();
    const content = randomBytes(S);
    const hash = await contentHashOf(content);
    await h.putFile(owner, '', 'original.bin', content);
    const t = await h.signUp();
    const body = (i: number, proof?: object) => ({
      kind: 'drive#file',
      upload_type: 'UPLOAD_TYPE_RESUMABLE',
      name: `copy-${i}.bin`,
      size: String(S),
      hash,
      parent_id: '',
      ...(proof ? { proof } : {}),
    });
    const ask = await h.api('POST', '/drive/v1/files', t.access_token, body(0));
    const { challenge, ranges } = ask.body.proof_of_possession;
    const proof = {
      challenge,
      answer: await contentHashOf(Buffer.concat(ranges.map((r: { start: number; end: number }) => content.subarray(r.start, r.end)))),
    };

    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => h.api('POST', '/drive/v1/files', t.access_token, body(i, proof))),
    );
    const done = answers.filter((a) => a.status === 200);
    expect(done.length).toBe(5);
    for (const a of done) expect(a.body.task.phase).toBe('PHASE_TYPE_COMPLETE');
    for (const r of answers.filter((a) => a.status !== 200)) {
      expect(r.status).toBe(403);
      expect(r.body).toMatchObject({ error: 'file_space_not_enough' });
    }
    const files = await h.ctx.db.selectFrom('files').select('size').where('user_id', '=', t.sub).execute();
    expect(files.length).toBe(5);
    expect(files.reduce((n, f) => n + Number(f.size), 0)).toBeLessThanOrEqual(quota);
    // A refusal leaves no task behind.
    expect((await h.ctx.db.selectFrom('tasks').select('id').where('user_id', '=', t.sub).execute()).length).toBe(5);
  });
});
