import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { contentHashOf } from '../src/storage/content-hash.js';
import { ManualClock, startTestHaul, type TestHaul } from './helper.js';

describe('download links', () => {
  let h: TestHaul;
  let t: TokenResponse;
  const clock = new ManualClock(Date.now());
  const content = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 251));
  let fileId: string;
  let link: string;
  const path = (url: string) => url.replace('http://haul.test', '');

  beforeAll(async () => {
    h = await startTestHaul({ downloadLinkTtlSeconds: 600 }, clock);
    t = await h.signUp();
    fileId = (await h.putFile(t, '', 'Résumé "final".pdf', content)).id;
    link = (await h.api('GET', `/drive/v1/files/${fileId}?usage=FETCH`, t.access_token)).body.web_content_link;
  });
  afterAll(() => h.destroy());

  it('serves the bytes with length, etag, nosniff and an RFC 6266 attachment name', async () => {
    expect(link).toMatch(/^http:\/\/haul\.test\/drive\/v1\/content\//);
    const res = await h.api('GET', path(link));
    expect(res.status).toBe(200);
    expect(Buffer.compare(res.raw, content)).toBe(0);
    expect(res.headers['content-length']).toBe('5000');
    expect(res.headers['etag']).toBe(`"${await contentHashOf(content)}"`);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toContain('attachment');
    expect(res.headers['content-disposition']).toContain("filename*=UTF-8''R%C3%A9sum%C3%A9%20%22final%22.pdf");
  });

  it('answers ranges, suffix ranges, If-None-Match and unsatisfiable ranges', async () => {
    const part = await h.app.inject({ method: 'GET', url: path(link), headers: { range: 'bytes=100-199' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe('bytes 100-199/5000');
    expect(Buffer.compare(part.rawPayload, content.subarray(100, 200))).toBe(0);
    const tail = await h.app.inject({ method: 'GET', url: path(link), headers: { range: 'bytes=-10' } });
    expect(Buffer.compare(tail.rawPayload, content.subarray(4990))).toBe(0);
    const etag = part.headers['etag'] as string;
    const cached = await h.app.inject({ method: 'GET', url: path(link), headers: { 'if-none-match': etag } });
    expect(cached.statusCode).toBe(304);
    const bad = await h.app.inject({ method: 'GET', url: path(link), headers: { range: 'bytes=6000-7000' } });
    expect(bad.statusCode).toBe(416);
    const staleIfRange = await h.app.inject({ method: 'GET', url: path(link), headers: { range: 'bytes=0-9', 'if-range': '"other"' } });
    expect(staleIfRange.statusCode).toBe(200);
    expect(staleIfRange.rawPayload.length).toBe(5000);
  });

  it('sends active content (HTML, SVG) as opaque bytes in an attachment', async () => {
    for (const name of ['page.html', 'image.svg']) {
      const f = await h.putFile(t, '', name, '<script>alert(1)</script>');
      const l = (await h.api('GET', `/drive/v1/files/${f.id}`, t.access_token)).body.web_content_link;
      const res = await h.api('GET', path(l));
      expect(res.headers['content-type']).toBe('application/octet-stream');
      expect(res.headers['content-disposition']).toMatch(/^attachment/);
      expect(res.headers['content-security-policy']).toContain('sandbox');
    }
  });

  it('refuses tampered links, links of trashed files and expired links', async () => {
    const tampered = link.replace(/s=([^&]+)/, (_m, s: string) => `s=${s.slice(0, -2)}AA`);
    expect((await h.api('GET', path(tampered))).status).toBe(404);
    const otherUser = await h.signUp();
    const forged = link.replace(/u=([^&]+)/, `u=${otherUser.sub}`);
    expect((await h.api('GET', path(forged))).status).toBe(404);

    const f = await h.putFile(t, '', 'soon-trashed.txt', 'bye');
    const l = (await h.api('GET', `/drive/v1/files/${f.id}`, t.access_token)).body.web_content_link;
    expect((await h.api('GET', path(l))).status).toBe(200);
    await h.api('POST', '/drive/v1/files:batchTrash', t.access_token, { ids: [f.id] });
    const gone = await h.api('GET', path(l));
    expect(gone.status).toBe(404);
    expect(gone.body.error).toBe('file_not_found');

    clock.advance(601_000);
    expect((await h.api('GET', path(link))).status).toBe(404);
  });
});
