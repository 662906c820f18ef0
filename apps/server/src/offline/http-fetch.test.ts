import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentHashOf } from '../storage/content-hash.js';
import { fetchToFile, FetchError } from './http-fetch.js';
import { BlockedAddressError } from './network-guard.js';

/** A small origin: /file (Range), /plain (no Range), /redirect → /file, /drop (cuts the connection half-way), /named, /loop. */
function origin(content: Buffer): Server {
  return createServer((req, res) => {
    const range = /bytes=(\d+)-/.exec(req.headers.range ?? '');
    switch (req.url) {
      case '/file': {
        const start = range ? Number(range[1]) : 0;
        res.writeHead(range ? 206 : 200, {
          'content-length': content.length - start,
          'etag': '"v1"',
          'content-type': 'application/octet-stream',
          ...(range ? { 'content-range': `bytes ${start}-${content.length - 1}/${content.length}` } : {}),
        });
        return res.end(content.subarray(start));
      }
      case '/plain':
        res.writeHead(200, { 'content-length': content.length });
        return res.end(content);
      case '/redirect':
        res.writeHead(302, { location: '/file' });
        return res.end();
      case '/loop':
        res.writeHead(302, { location: '/loop' });
        return res.end();
      case '/named':
        res.writeHead(200, { 'content-disposition': "attachment; filename*=UTF-8''%C3%A9t%C3%A9.txt", 'content-length': 3 });
        return res.end('abc');
      case '/drop':
        res.writeHead(200, { 'content-length': content.length });
        res.write(content.subarray(0, content.length / 2));
        return setTimeout(() => res.destroy(), 20);
      default:
        res.writeHead(404);
        return res.end();
    }
  });
}

describe('fetchToFile', () => {
  const content = randomBytes(2 * 1024 * 1024);
  const dir = mkdtempSync(join(tmpdir(), 'haul-fetch-'));
  let server: Server;
  let base: string;
  let n = 0;
  const part = () => join(dir, `f${++n}.part`);
  const get = (path: string, partPath = part(), extra = {}) =>
    fetchToFile({ url: `${base}${path}`, partPath, allowPrivateNetwork: true, maxBytes: 1e9, ...extra });

  beforeAll(async () => {
    server = origin(content);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('downloads, names and hashes the content while it streams', async () => {
    const p = part();
    const r = await get('/file', p);
    expect(r).toMatchObject({ name: 'file', size: content.length, validator: '"v1"', hash: await contentHashOf(content) });
    expect(Buffer.compare(readFileSync(p), content)).toBe(0);
    expect((await get('/named'))!.name).toBe('été.txt');
  });

  it('follows redirects, and stops a redirect loop', async () => {
    const r = await get('/redirect');
    expect(r!.finalUrl).toBe(`${base}/file`);
    await expect(get('/loop')).rejects.toThrow(/Too many redirects/);
  });

  it('resumes from the bytes on disk with Range, and starts over when the server ignores Range', async () => {
    const half = content.subarray(0, 1024 * 1024);
    const p1 = part();
    writeFileSync(p1, half);
    let firstProgress = -1;
    const r1 = await get('/file', p1, { onProgress: (got: number) => { if (firstProgress < 0) firstProgress = got; } });
    expect(firstProgress).toBeGreaterThan(half.length);
    expect(r1!.hash).toBe(await contentHashOf(content));
    const p2 = part();
    writeFileSync(p2, half);
    const r2 = await get('/plain', p2);
    expect(r2!.hash).toBe(await contentHashOf(content));
    expect(readFileSync(p2).length).toBe(content.length);
  });

  it('reports a dropped connection as retryable and keeps what arrived', async () => {
    const p = part();
    const err = await get('/drop', p).catch((e) => e);
    expect(err).toBeInstanceOf(FetchError);
    expect(err.retryable).toBe(true);
    expect(readFileSync(p).length).toBeGreaterThan(0);
  });

  it('refuses 404s, oversize content and private addresses (when not allowed)', async () => {
    const missing = await get('/missing').catch((e) => e);
    expect(missing.message).toMatch(/404/);
    expect(missing.retryable).toBe(false);
    await expect(get('/file', part(), { maxBytes: 1000 })).rejects.toThrow(/larger than the space left/);
    const blocked = await get('/file', part(), { allowPrivateNetwork: false }).catch((e) => e);
    expect(blocked).toBeInstanceOf(BlockedAddressError);
  });
});
