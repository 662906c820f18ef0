/**
 * A tus PATCH body as the server reads it (straight from Node's request, written in batches): a body cut short by the
 * client keeps every byte that arrived, a body sent in one PATCH or in many small ones lands whole, and the upload
 * resumes from the bytes kept with the right hash. Runs on the local store and, with HAUL_TEST_BLOB_STORE=s3, on S3.
 */
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { contentHashOf } from '../src/storage/content-hash.js';
import { until } from './child-server.js';
import { startTestHaul, type TestHaul } from './helper.js';
import { createProven } from './upload-proof.js';

const MiB = 1024 * 1024;

describe('tus PATCH bodies', { timeout: 60_000 }, () => {
  let h: TestHaul;
  let base: string;
  let t: TokenResponse;

  beforeAll(async () => {
    h = await startTestHaul();
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(h.app.server.address() as { port: number }).port}`;
    t = await h.signUp();
  });
  afterAll(() => h.destroy().catch(() => undefined));

  const create = async (content: Buffer, name: string) => {
    const body = { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_RESUMABLE', parent_id: '', name, size: String(content.length), hash: await contentHashOf(content) };
    const res = await createProven((b) => h.api('POST', '/drive/v1/files', t.access_token, b), body, content);
    expect(res.status).toBe(200);
    return { url: (res.body.resumable.params.upload_url as string).replace('http://haul.test', base), taskId: res.body.task.id as string };
  };
  const tusHeaders = () => ({ authorization: `Bearer ${t.access_token}`, 'tus-resumable': '1.0.0' });
  const offsetOf = async (url: string) => Number((await fetch(url, { method: 'HEAD', headers: tusHeaders() })).headers.get('upload-offset'));
  /** One PATCH of `body` at `offset`, in pieces of `piece` bytes; its status and the offset it answered. */
  const patch = async (url: string, offset: number, body: Buffer, piece = body.length) => {
    const res = await fetch(url, {
      method: 'PATCH',
      headers: { ...tusHeaders(), 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
      body: new ReadableStream({
        start(c) {
          for (let at = 0; at < body.length; at += piece) c.enqueue(body.subarray(at, at + piece));
          c.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    return { status: res.status, offset: Number(res.headers.get('upload-offset')), fileId: res.headers.get('haul-file-id') };
  };
  const fileHash = async (fileId: string) => (await h.api('GET', `/drive/v1/files/${fileId}`, t.access_token)).body.hash as string;

  it('keeps every byte of a PATCH the client cut short, and the upload resumes from there with the right hash', async () => {
    const content = randomBytes(8 * MiB);
    const { url } = await create(content, 'cut.bin');
    // Announces the whole file but sends 3 MiB and a bit, not a batch multiple, then closes its side.
    const sent = 3 * MiB + 12_345;
    await new Promise<void>((resolve, reject) => {
      const u = new URL(url);
      const req = request({
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: 'PATCH',
        headers: { ...tusHeaders(), 'upload-offset': '0', 'content-type': 'application/offset+octet-stream', 'content-length': String(content.length) },
      });
      req.on('error', () => resolve());
      req.on('response', (res) => {
        res.resume();
        resolve();
      });
      req.write(content.subarray(0, sent), (err) => {
        if (err) return reject(err);
        // A half-close after the bytes: the server reads all of them, then finds the body ended early.
        req.socket?.end();
      });
    });
    expect(await until(() => offsetOf(url), (n) => n === sent, 20_000)).toBe(sent);

    const rest = await patch(url, sent, content.subarray(sent));
    expect(rest.status).toBe(204);
    expect(rest.offset).toBe(content.length);
    expect(rest.fileId).toBeTruthy();
    expect(await fileHash(rest.fileId!)).toBe(await contentHashOf(content));
  });

  it('writes a body that arrives in many small pieces, and one larger than a batch, in order', async () => {
    const content = randomBytes(5 * MiB + 777);
    const { url } = await create(content, 'pieces.bin');
    const first = await patch(url, 0, content.subarray(0, 2 * MiB + 1), 1_000);
    expect(first).toMatchObject({ status: 204, offset: 2 * MiB + 1 });
    const second = await patch(url, first.offset, content.subarray(first.offset));
    expect(second).toMatchObject({ status: 204, offset: content.length });
    expect(await fileHash(second.fileId!)).toBe(await contentHashOf(content));
  });

  it('refuses a PATCH at an offset the server does not hold, and changes nothing', async () => {
    const content = randomBytes(2 * MiB);
    const { url } = await create(content, 'offset.bin');
    expect((await patch(url, 0, content.subarray(0, MiB))).offset).toBe(MiB);
    const wrong = await patch(url, 12, content.subarray(12, MiB));
    expect(wrong.status).toBe(409);
    expect(await offsetOf(url)).toBe(MiB);
    const done = await patch(url, MiB, content.subarray(MiB));
    expect(await fileHash(done.fileId!)).toBe(await contentHashOf(content));
  });
});
