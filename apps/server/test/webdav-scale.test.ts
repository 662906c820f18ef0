/**
 * WebDAV at size: a listing of a large folder streams page by page with every child once, and a large PUT streams
 * into the store with the server's memory flat (the bytes are never held whole).
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { createFolder } from '../src/files/files.service.js';
import { newId } from '../src/lib/ids.js';
import { createContentHasher } from '../src/storage/content-hash.js';
import { blobTemporaries, startTestHaul, storedBlobs, type TestHaul } from './helper.js';
import { appPassword, dav, listen } from './webdav-helper.js';

describe('WebDAV at size', () => {
  let h: TestHaul;
  let base: string;
  let a: TokenResponse;
  let auth: string;
  beforeAll(async () => {
    h = await startTestHaul();
    base = await listen(h);
    a = await h.signUp();
    auth = (await appPassword(h, a)).basic;
  });
  afterAll(() => h.destroy());

  it('lists a folder of 1,234 items, each once', async () => {
    const folder = await createFolder(h.ctx, a.sub, '', 'Many');
    const rows = Array.from({ length: 1234 }, (_, i) => ({ ...folder, id: newId(), parent_id: folder.id, name: `item ${String(i).padStart(4, '0')}` }));
    for (let i = 0; i < rows.length; i += 200) await h.ctx.db.insertInto('files').values(rows.slice(i, i + 200)).execute();
    const res = await dav(base, 'PROPFIND', '/dav/Many/', { authorization: auth, depth: '1' });
    expect(res.status).toBe(207);
    const hrefs = [...res.text.matchAll(/<D:href>([^<]+)<\/D:href>/g)].map((m) => decodeURIComponent(m[1]!));
    expect(hrefs.length).toBe(1235);
    expect(new Set(hrefs).size).toBe(1235);
    expect(hrefs).toContain('/dav/Many/item 1233/');
  });

  it('streams a 256 MiB PUT into the store with memory flat', async () => {
    const MiB = 1024 * 1024;
    const total = 256;
    const chunk = Buffer.alloc(MiB);
    for (let i = 0; i < MiB; i += 4) chunk.writeUInt32LE(i * 2654435761 >>> 0, i);
    const expected = await createContentHasher();
    for (let i = 0; i < total; i++) expected.update(chunk);
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const status = await new Promise<number>((resolve, reject) => {
      const url = new URL(base);
      const req = request({ host: url.hostname, port: url.port, method: 'PUT', path: '/dav/big.bin', headers: { authorization: auth, 'content-length': String(total * MiB) } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      let sent = 0;
      const pump = () => {
        while (sent < total) {
          sent++;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        req.end();
      };
      pump();
    });
    clearInterval(sampler);
    expect(status).toBe(201);
    // Bytes in flight (socket and stream buffers) come and go; the file itself (256 MiB) is never held.
    expect(peak - before).toBeLessThan(96 * MiB);
    const row = await h.ctx.db.selectFrom('files').select(['hash', 'size']).where('user_id', '=', a.sub).where('name', '=', 'big.bin').executeTakeFirstOrThrow();
    expect(row).toEqual({ hash: expected.digest(), size: total * MiB });
    // The stored bytes themselves, read back from the store, are the ones sent.
    const stored = await createContentHasher();
    for await (const part of h.ctx.blobs.read(row.hash!)) stored.update(part as Buffer);
    expect(stored.digest()).toBe(row.hash);
  }, 120_000);

  it('keeps no blob, no row and no temporary file of a PUT cut off mid-body', async () => {
    const MiB = 1024 * 1024;
    const part = Buffer.alloc(MiB, 9);
    const url = new URL(base);
    const req = request({ host: url.hostname, port: url.port, method: 'PUT', path: '/dav/cut.bin', headers: { authorization: auth, 'content-length': String(64 * MiB) } });
    req.on('error', () => undefined);
    const storedBefore = await storedBlobs(h);
    // Several of the store's write batches and a background sync's worth arrive before the client goes away.
    for (let i = 0; i < 24; i++) if (!req.write(part)) await new Promise((r) => req.once('drain', r));
    await expect.poll(() => blobTemporaries(h)).not.toEqual([]);
    req.destroy();
    await expect.poll(() => blobTemporaries(h)).toEqual([]);
    expect(await storedBlobs(h)).toEqual(storedBefore);
    expect(await h.ctx.db.selectFrom('files').select('id').where('user_id', '=', a.sub).where('name', '=', 'cut.bin').execute()).toEqual([]);
  }, 60_000);
});
