import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { ManualClock, mkdir, startTestHaul, type TestHaul } from './helper.js';

/** One request through the server with the headers given, answered as bytes. */
async function raw(h: TestHaul, url: string, headers: Record<string, string>) {
  const res = await h.app.inject({ method: 'GET', url, headers });
  return { status: res.statusCode, headers: res.headers, bytes: res.rawPayload };
}

describe('compressed answers', () => {
  let h: TestHaul;
  let t: TokenResponse;
  let folder: string;
  let listing: string;
  const auth = () => ({ authorization: `Bearer ${t.access_token}` });
  beforeAll(async () => {
    // A clock that stands still, so two answers to the same listing are the same bytes (sync_time included).
    h = await startTestHaul({}, new ManualClock());
    t = await h.signUp();
    folder = await mkdir(h, t.access_token, 'Many');
    for (let i = 0; i < 40; i++) await h.putFile(t, folder, `report ${i}.txt`, `content ${i}`);
    listing = `/drive/v1/files?parent_id=${folder}&limit=100`;
  });
  afterAll(() => h.destroy());

  it('sends a listing in brotli or gzip as the client prefers, the same JSON once decoded', async () => {
    const plain = await raw(h, listing, auth());
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(plain.bytes.toString()).files).toHaveLength(40);

    const br = await raw(h, listing, { ...auth(), 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    // Compressed in one call, so its length is known (no chunked answer).
    expect(Number(br.headers['content-length'])).toBe(br.bytes.length);
    expect(br.bytes.length).toBeLessThan(plain.bytes.length / 3);
    expect(brotliDecompressSync(br.bytes).toString()).toBe(plain.bytes.toString());

    const gz = await raw(h, listing, { ...auth(), 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.bytes).equals(plain.bytes)).toBe(true);

    const none = await raw(h, listing, { ...auth(), 'accept-encoding': 'identity' });
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(none.bytes.equals(plain.bytes)).toBe(true);
  });

  it('is decoded by a client over a socket as it is by a browser', async () => {
    const base = await h.app.listen({ port: 0, host: '127.0.0.1' });
    const res = await fetch(`${base}${listing}`, { headers: auth() });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    const body = (await res.json()) as { files: { name: string }[] };
    expect(body.files.map((f) => f.name)).toContain('report 39.txt');
  });

  it('sends a small answer as it is', async () => {
    const res = await raw(h, `/drive/v1/files/${folder}`, { ...auth(), 'accept-encoding': 'br, gzip' });
    expect(res.status).toBe(200);
    expect(res.bytes.length).toBeLessThan(1024);
    expect(res.headers['content-encoding']).toBeUndefined();
  });

  it("never encodes a file's bytes, even a JSON file: ranges, lengths and the allowance mean the stored bytes", async () => {
    const content = JSON.stringify({ rows: Array.from({ length: 200 }, (_, i) => ({ i, name: `row ${i}` })) });
    const file = await h.putFile(t, '', 'data.json', content);
    const meta = await h.api('GET', `/drive/v1/files/${file.id}`, t.access_token);
    expect(meta.body.mime_type).toBe('application/json');
    const link = new URL(meta.body.web_content_link as string);
    const whole = await raw(h, link.pathname + link.search, { 'accept-encoding': 'br, gzip' });
    expect(whole.status).toBe(200);
    expect(whole.headers['content-encoding']).toBeUndefined();
    expect(Number(whole.headers['content-length'])).toBe(content.length);
    expect(whole.bytes.toString()).toBe(content);
    const part = await raw(h, link.pathname + link.search, { 'accept-encoding': 'br, gzip', range: 'bytes=10-2009' });
    expect(part.status).toBe(206);
    expect(part.headers['content-encoding']).toBeUndefined();
    expect(part.bytes.toString()).toBe(content.slice(10, 2010));
  });

  it('does not inflate a compressed request body: it is refused and nothing is made', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/drive/v1/files',
      headers: { ...auth(), 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: gzipSync(JSON.stringify({ kind: 'drive#folder', name: 'Zipped', parent_id: '' })),
    });
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body).error).toBe('invalid_argument');
    const root = await h.api('GET', '/drive/v1/files?parent_id=&limit=100', t.access_token);
    expect(root.body.files.map((f: { name: string }) => f.name)).not.toContain('Zipped');
  });
});

describe('compressed answers turned off (HAUL_COMPRESSION=off)', () => {
  it('sends every answer as it is', async () => {
    const h = await startTestHaul({ compression: false });
    try {
      const t = await h.signUp();
      const folder = await mkdir(h, t.access_token, 'Many');
      for (let i = 0; i < 40; i++) await h.putFile(t, folder, `report ${i}.txt`, `content ${i}`);
      const res = await raw(h, `/drive/v1/files?parent_id=${folder}&limit=100`, {
        authorization: `Bearer ${t.access_token}`,
        'accept-encoding': 'br, gzip',
      });
      expect(res.status).toBe(200);
      expect(res.bytes.length).toBeGreaterThan(4096);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(JSON.parse(res.bytes.toString()).files).toHaveLength(40);
    } finally {
      await h.destroy();
    }
  });
});
