/**
 * HAUL_ACCEL_REDIRECT with real proxies in front of a real Haul on loopback: nginx (X-Accel-Redirect into an internal
 * location) and Caddy running deploy/Caddyfile (handle_response + file_server). The proxy sends the bytes only after
 * Haul's checks (link, allowance, Range) and never shows the blob folder itself.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { loadConfig } from '../src/config.js';
import { ManualClock, startTestHaul, sudoToken, type TestHaul } from './helper.js';
import { ACCEL_PREFIX, startCaddyAccel, startNginxAccel, type Proxy } from './accel-proxies.js';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const content = randomBytes(3 * 1024 * 1024 + 123);
/** The month's download allowance: room for the tests below, then used up by the last. */
const LIMIT = 24 * 1024 * 1024;

describe('HAUL_ACCEL_REDIRECT setting', () => {
  it('takes an internal path of plain segments, on the local store only', () => {
    expect(loadConfig({ HAUL_ACCEL_REDIRECT: '/_haul/blobs/' }).accelRedirect).toBe('/_haul/blobs');
    expect(loadConfig({}).accelRedirect).toBeNull();
    expect(() => loadConfig({ HAUL_ACCEL_REDIRECT: '_haul' })).toThrow(/HAUL_ACCEL_REDIRECT must be/);
    expect(() => loadConfig({ HAUL_ACCEL_REDIRECT: '/a/../b' })).toThrow(/HAUL_ACCEL_REDIRECT must be/);
    expect(() => loadConfig({ HAUL_ACCEL_REDIRECT: '/a?b' })).toThrow(/HAUL_ACCEL_REDIRECT must be/);
    const s3 = { HAUL_BLOB_STORE: 's3', HAUL_S3_BUCKET: 'haul', HAUL_S3_REGION: 'us-east-1', HAUL_ACCEL_REDIRECT: '/_haul/blobs' };
    expect(() => loadConfig(s3)).toThrow(/needs HAUL_BLOB_STORE=local/);
  });
});

for (const kind of ['nginx', 'caddy'] as const) {
  describe(`a download link through ${kind} sending the bytes itself`, () => {
    let h: TestHaul;
    let t: TokenResponse;
    let proxy: Proxy;
    let dir: string;
    let linkPath: string;
    let hash: string;
    const clock = new ManualClock(Date.now());
    const via = (path: string, init?: RequestInit) => fetch(`${proxy.base}${path}`, init);
    const usage = async () => BigInt((await h.api('GET', '/drive/v1/about?with_quotas=download_size_month', t.access_token)).body.quotas.download_size_month.usage);

    beforeAll(async () => {
      h = await startTestHaul({ accelRedirect: ACCEL_PREFIX, downloadLinkTtlSeconds: 600, monthlyDownloadBytes: LIMIT, trustProxy: 'loopback' }, clock);
      const haulBase = await h.app.listen({ port: 0, host: '127.0.0.1' });
      dir = mkdtempSync(join(tmpdir(), `haul-accel-${kind}-`));
      const blobs = join(h.dataDir, 'blobs');
      proxy = kind === 'nginx' ? await startNginxAccel(dir, haulBase, blobs) : await startCaddyAccel(dir, haulBase.replace('http://', ''), blobs);
      t = await h.signUp();
      const file = await h.putFile(t, '', 'report "final".pdf', content);
      hash = file.hash;
      const link = new URL((await h.api('GET', `/drive/v1/files/${file.id}?usage=FETCH`, t.access_token)).body.web_content_link);
      linkPath = link.pathname + link.search;
    });
    afterAll(async () => {
      await proxy?.stop();
      await h?.destroy();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it("sends the whole file with Haul's headers, and charges it", async () => {
      const before = await usage();
      const res = await via(linkPath);
      expect(res.status).toBe(200);
      const body = Buffer.from(await res.arrayBuffer());
      expect(sha256(body)).toBe(sha256(content));
      expect(res.headers.get('content-length')).toBe(String(content.length));
      expect(res.headers.get('etag')).toBe(`"${hash}"`);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename=.*report/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
      expect(res.headers.get('cache-control')).toBe('private, max-age=3600');
      expect(res.headers.get('x-accel-redirect')).toBeNull();
      expect(res.headers.get('last-modified')).toBeNull();
      expect((await usage()) - before).toBe(BigInt(content.length));
    });

    it('answers a Range with 206 and the slice, charging the slice', async () => {
      const before = await usage();
      const res = await via(linkPath, { headers: { range: 'bytes=1000-1048575' } });
      expect(res.status).toBe(206);
      expect(res.headers.get('content-range')).toBe(`bytes 1000-1048575/${content.length}`);
      expect(sha256(Buffer.from(await res.arrayBuffer()))).toBe(sha256(content.subarray(1000, 1048576)));
      expect((await usage()) - before).toBe(1048576n - 1000n);
      const tail = await via(linkPath, { headers: { range: 'bytes=-100' } });
      expect(tail.status).toBe(206);
      expect(Buffer.compare(Buffer.from(await tail.arrayBuffer()), content.subarray(content.length - 100))).toBe(0);
    });

    it('keeps the requests Haul answers itself exact: If-Range, several ranges, a bad range, If-None-Match, HEAD', async () => {
      const ifRange = await via(linkPath, { headers: { range: 'bytes=10-19', 'if-range': `"${hash}"` } });
      expect(ifRange.status).toBe(206);
      expect(Buffer.compare(Buffer.from(await ifRange.arrayBuffer()), content.subarray(10, 20))).toBe(0);
      const staleIfRange = await via(linkPath, { headers: { range: 'bytes=10-19', 'if-range': '"other"' } });
      expect(staleIfRange.status).toBe(200);
      expect((await staleIfRange.arrayBuffer()).byteLength).toBe(content.length);
      const several = await via(linkPath, { headers: { range: 'bytes=0-9,100-109' } });
      // Haul sends the whole file for ranges it cannot merge into one; so must the proxy.
      expect(several.status).toBe(200);
      expect(sha256(Buffer.from(await several.arrayBuffer()))).toBe(sha256(content));
      const bad = await via(linkPath, { headers: { range: `bytes=${content.length + 10}-` } });
      expect(bad.status).toBe(416);
      expect((await bad.json()).error).toBe('invalid_argument');
      const cached = await via(linkPath, { headers: { 'if-none-match': `"${hash}"` } });
      expect(cached.status).toBe(304);
      const before = await usage();
      const head = await via(linkPath, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-length')).toBe(String(content.length));
      expect(await usage()).toBe(before);
    });

    it('refuses forged and expired links with Haul’s 404 and no bytes', async () => {
      const forged = linkPath.replace(/s=([^&]+)/, (_m, s: string) => `s=${s.slice(0, -2)}AA`);
      const res = await via(forged);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect((await res.json()).error).toBe('file_not_found');
      const otherUser = await h.signUp();
      const stolen = await via(linkPath.replace(/u=([^&]+)/, `u=${otherUser.sub}`));
      expect(stolen.status).toBe(404);
      expect(Buffer.from(await stolen.arrayBuffer()).includes(content.subarray(0, 64))).toBe(false);
    });

    it('never serves the blob folder to a request', async () => {
      const key = `${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash}`;
      for (const path of [`${ACCEL_PREFIX}/${key}`, `/drive/%2e%2e${ACCEL_PREFIX}/${key}`, `/%5Fhaul/blobs/${key}`, `${ACCEL_PREFIX}/`, `/${key}`, `/blobs/${key}`]) {
        const res = await via(path);
        const body = Buffer.from(await res.arrayBuffer());
        expect(res.status, path).toBeGreaterThanOrEqual(400);
        expect(body.includes(content.subarray(0, 64)), path).toBe(false);
      }
      // Nor does a request that names the header itself: only Haul's answer is looked at.
      const asked = await via('/drive/v1/about', { headers: { 'x-accel-redirect': `${ACCEL_PREFIX}/${key}` } });
      expect(Buffer.from(await asked.arrayBuffer()).includes(content.subarray(0, 64))).toBe(false);
    });

    it('sends WebDAV GETs the same way', async () => {
      const sudo_token = await sudoToken(h, t.access_token);
      const made = await h.api('POST', '/v1/user/app_passwords', t.access_token, { name: 'proxy', sudo_token });
      expect(made.status).toBe(200);
      const me = await h.api('GET', '/v1/user/me', t.access_token);
      const auth = `Basic ${Buffer.from(`${me.body.email}:${made.body.password}`).toString('base64')}`;
      const res = await via(`/dav/${encodeURIComponent('report "final".pdf')}`, { headers: { authorization: auth } });
      expect(res.status).toBe(200);
      expect(sha256(Buffer.from(await res.arrayBuffer()))).toBe(sha256(content));
      expect(res.headers.get('etag')).not.toBeNull();
      const part = await via(`/dav/${encodeURIComponent('report "final".pdf')}`, { headers: { authorization: auth, range: 'bytes=5-14' } });
      expect(part.status).toBe(206);
      expect(Buffer.compare(Buffer.from(await part.arrayBuffer()), content.subarray(5, 15))).toBe(0);
    });

    it('charges before the proxy sends: a download past the allowance gets the limit error and no bytes', async () => {
      while (BigInt(LIMIT) - (await usage()) >= BigInt(content.length)) {
        const whole = await via(linkPath);
        expect(whole.status).toBe(200);
        await whole.arrayBuffer();
      }
      const over = await via(linkPath);
      expect(over.status).toBe(403);
      expect(Buffer.from(await over.arrayBuffer()).includes(content.subarray(0, 64))).toBe(false);
    });

    it('refuses an expired link', async () => {
      clock.advance(601_000);
      const res = await via(linkPath);
      expect(res.status).toBe(404);
      expect((await res.json()).error).toBe('file_not_found');
    });
  });
}

describe('without the proxy', () => {
  let h: TestHaul;
  beforeAll(async () => {
    h = await startTestHaul({ accelRedirect: ACCEL_PREFIX });
  });
  afterAll(() => h.destroy());

  it('answers a download with the redirect header and no body: Haul must only be reached through the proxy', async () => {
    const t = await h.signUp();
    const file = await h.putFile(t, '', 'a.bin', content);
    const link = new URL((await h.api('GET', `/drive/v1/files/${file.id}?usage=FETCH`, t.access_token)).body.web_content_link);
    const res = await h.app.inject({ method: 'GET', url: link.pathname + link.search });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-accel-redirect']).toBe(`${ACCEL_PREFIX}/${file.hash.slice(0, 2)}/${file.hash.slice(2, 4)}/${file.hash}`);
    expect(res.rawPayload.length).toBe(0);
  });
});
