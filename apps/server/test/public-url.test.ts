import { request } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { signDownloadLink } from '../src/downloads/download-links.js';
import { startTestHaul, type TestHaul } from './helper.js';

/** Half a second of a quiet tone as a WAV file: real audio, so the file gets a playable media link. */
function wav(): Buffer {
  const samples = 4000;
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) data.writeInt16LE(Math.round(3000 * Math.sin(i / 4)), i * 2);
  const head = Buffer.alloc(44);
  head.write('RIFF', 0);
  head.writeUInt32LE(36 + data.length, 4);
  head.write('WAVEfmt ', 8);
  head.writeUInt32LE(16, 16);
  head.writeUInt16LE(1, 20); // PCM
  head.writeUInt16LE(1, 22); // mono
  head.writeUInt32LE(8000, 24);
  head.writeUInt32LE(16000, 28);
  head.writeUInt16LE(2, 32);
  head.writeUInt16LE(16, 34);
  head.write('data', 36);
  head.writeUInt32LE(data.length, 40);
  return Buffer.concat([head, data]);
}

interface Call {
  host?: string;
  token?: string;
  body?: object;
  headers?: Record<string, string>;
  remoteAddress?: string;
}

/** Links follow the address the request came to unless HAUL_PUBLIC_URL pins them. */
describe('links follow the address used', () => {
  let h: TestHaul;
  let pinned: TestHaul;
  let web: string;
  let user: TokenResponse;
  let pinnedUser: TokenResponse;
  let png: Buffer;
  const song = wav();
  const ids: Record<string, string> = {};

  const call = async (haul: TestHaul, method: 'GET' | 'POST' | 'HEAD', url: string, c: Call = {}) => {
    const headers: Record<string, string> = { ...(c.host !== undefined ? { host: c.host } : {}), ...c.headers };
    if (c.token) headers.authorization = `Bearer ${c.token}`;
    const res = await haul.app.inject({ method, url, headers, remoteAddress: c.remoteAddress, ...(c.body ? { payload: c.body } : {}) });
    const json = String(res.headers['content-type'] ?? '').startsWith('application/json');
    return { status: res.statusCode, body: json ? res.json() : undefined, raw: res.rawPayload, headers: res.headers };
  };
  /** The path and query of an absolute link, to follow it in-process. */
  const pathOf = (link: string) => {
    const u = new URL(link);
    return u.pathname + u.search;
  };
  const fileLinks = async (c: Call, haul = h, token = user.access_token, id = ids.png!) =>
    (await call(haul, 'GET', `/drive/v1/files/${id}`, { ...c, token })).body as { web_content_link: string; thumbnail_link: string };

  beforeAll(async () => {
    web = mkdtempSync(join(tmpdir(), 'haul-web-'));
    writeFileSync(join(web, 'index.html'), '<!doctype html><div id="root"></div>');
    // Not pinned: as after a start without HAUL_PUBLIC_URL. The fallback is what background work would use.
    h = await startTestHaul({ publicUrl: 'http://fallback.test', publicUrlPinned: false, webDir: web });
    pinned = await startTestHaul({ webDir: web });
    user = await h.signUp();
    pinnedUser = await pinned.signUp();
    png = await sharp({ create: { width: 320, height: 200, channels: 3, background: '#3060c0' } }).png().toBuffer();
    ids.png = (await h.putFile(user, '', 'photo.png', png)).id;
    ids.wav = (await h.putFile(user, '', 'tone.wav', song)).id;
    ids.pinnedPng = (await pinned.putFile(pinnedUser, '', 'photo.png', png)).id;
  });
  afterAll(async () => {
    await Promise.all([h?.destroy(), pinned?.destroy()]);
    rmSync(web, { recursive: true, force: true });
  });

  for (const host of ['192.168.1.20:8080', '[fd00::5]:8080', 'drive.lan']) {
    it(`hands out links at ${host} that work there`, async () => {
      const at = `http://${host}/`;
      const c = { host };
      const file = await fileLinks(c);
      expect(file.web_content_link.startsWith(at), file.web_content_link).toBe(true);
      expect(file.thumbnail_link.startsWith(at), file.thumbnail_link).toBe(true);
      const download = await call(h, 'GET', pathOf(file.web_content_link), c);
      expect(download.status).toBe(200);
      expect(Buffer.compare(download.raw, png)).toBe(0);
      const thumb = await call(h, 'GET', pathOf(file.thumbnail_link), c);
      expect(thumb.status).toBe(200);
      expect((await sharp(thumb.raw).metadata()).width).toBeGreaterThan(0);

      // Listings sign thumbnails too.
      const list = await call(h, 'GET', '/drive/v1/files?parent_id=', { ...c, token: user.access_token });
      const listed = list.body.files.find((f: { id: string }) => f.id === ids.png);
      expect(listed.thumbnail_link.startsWith(at)).toBe(true);

      // A song's playable original.
      const tone = await call(h, 'GET', `/drive/v1/files/${ids.wav}?usage=PLAY`, { ...c, token: user.access_token });
      const media = tone.body.medias[0].link.url as string;
      expect(media.startsWith(at), media).toBe(true);
      const played = await call(h, 'GET', pathOf(media), c);
      expect(played.status).toBe(200);
      expect(Buffer.compare(played.raw, song)).toBe(0);

      // A tus upload URL (a request with a body: the link base survives its parsing).
      const up = await call(h, 'POST', '/drive/v1/files', {
        ...c,
        token: user.access_token,
        body: { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_RESUMABLE', parent_id: '', name: `up-${host}.bin`, size: '1000' },
      });
      expect(up.status).toBe(200);
      const uploadUrl = up.body.resumable.params.upload_url as string;
      expect(uploadUrl.startsWith(at), uploadUrl).toBe(true);
      const offset = await call(h, 'HEAD', pathOf(uploadUrl), { ...c, token: user.access_token, headers: { 'tus-resumable': '1.0.0' } });
      expect(offset.status).toBe(200);
      expect(offset.headers['upload-offset']).toBe('0');

      // A share link, and the download links its visitors get.
      const share = await call(h, 'POST', '/drive/v1/share', { ...c, token: user.access_token, body: { file_ids: [ids.png], share_to: 'publiclink', expiration_days: -1 } });
      expect(share.status).toBe(200);
      expect(share.body.share_url).toBe(`http://${host}/s/${share.body.share_id}`);
      const listed2 = await call(h, 'GET', '/drive/v1/share/list?limit=100', { ...c, token: user.access_token });
      // Every share listed, also those made at another address, reads at this one.
      expect(listed2.body.data.length).toBeGreaterThan(0);
      expect(listed2.body.data.every((s: { share_url: string }) => s.share_url.startsWith(at))).toBe(true);
      const info = await call(h, 'GET', `/drive/v1/share/file_info?share_id=${share.body.share_id}&file_id=${ids.png}`, c);
      const shared = info.body.file_info.web_content_link as string;
      expect(shared.startsWith(at), shared).toBe(true);
      const visited = await call(h, 'GET', pathOf(shared), c);
      expect(Buffer.compare(visited.raw, png)).toBe(0);
    });
  }

  it('follows the trusted proxy\'s X-Forwarded-Proto and -Host, and ignores them from anyone else', async () => {
    const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'drive.example.com' };
    // inject connects from 127.0.0.1, which HAUL_TRUST_PROXY's default (loopback) trusts.
    const proxied = await fileLinks({ host: '127.0.0.1:8080', headers: forwarded });
    expect(proxied.web_content_link).toMatch(/^https:\/\/drive\.example\.com\/drive\/v1\/content\//);
    expect(proxied.thumbnail_link).toMatch(/^https:\/\/drive\.example\.com\/drive\/v1\/thumbnails\//);
    const direct = await fileLinks({ host: '192.168.1.20:8080', headers: forwarded, remoteAddress: '203.0.113.9' });
    expect(direct.web_content_link).toMatch(/^http:\/\/192\.168\.1\.20:8080\/drive\/v1\/content\//);
    expect(direct.thumbnail_link).toMatch(/^http:\/\/192\.168\.1\.20:8080\//);
  });

  it('keeps a pinned HAUL_PUBLIC_URL whatever the address or the proxy says', async () => {
    for (const c of [{ host: '192.168.1.20:8080' }, { host: 'drive.lan', headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'drive.example.com' } }]) {
      const file = await fileLinks(c, pinned, pinnedUser.access_token, ids.pinnedPng);
      expect(file.web_content_link).toMatch(/^http:\/\/haul\.test\/drive\/v1\/content\//);
      expect(file.thumbnail_link).toMatch(/^http:\/\/haul\.test\/drive\/v1\/thumbnails\//);
    }
  });

  it('never puts an odd Host or forwarded value into a link: those answers use the configured URL', async () => {
    const odd: Call[] = [
      { host: 'evil.example/x?y=' },
      { host: 'user@evil.example' },
      { host: 'evil.example:99999' },
      { host: '<script>' },
      { host: '"quoted"' },
      { host: 'a b' },
      { host: '127.0.0.1', headers: { 'x-forwarded-host': 'evil.example/path' } },
      { host: '127.0.0.1', headers: { 'x-forwarded-proto': 'javascript' } },
    ];
    for (const c of odd) {
      const file = await fileLinks(c);
      expect(file.web_content_link, JSON.stringify(c)).toMatch(/^http:\/\/fallback\.test\/drive\/v1\/content\//);
      expect(file.thumbnail_link, JSON.stringify(c)).toMatch(/^http:\/\/fallback\.test\/drive\/v1\/thumbnails\//);
    }
  });

  it('keeps each request\'s address its own when requests overlap, and uses the configured URL outside a request', async () => {
    const hosts = Array.from({ length: 12 }, (_, i) => `10.0.0.${i + 1}:8080`);
    const files = await Promise.all(hosts.map((host) => fileLinks({ host })));
    files.forEach((f, i) => expect(f.web_content_link.startsWith(`http://${hosts[i]}/`)).toBe(true));
    const ups = await Promise.all(
      hosts.map((host, i) =>
        call(h, 'POST', '/drive/v1/files', {
          host,
          token: user.access_token,
          body: { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_RESUMABLE', parent_id: '', name: `overlap-${i}.bin`, size: '10' },
        }),
      ),
    );
    ups.forEach((u, i) => expect(u.body.resumable.params.upload_url.startsWith(`http://${hosts[i]}/`)).toBe(true));
    // Background work (no request): the configured URL.
    expect(signDownloadLink(h.ctx, { userId: user.sub, epoch: 0 }, ids.png!)).toMatch(/^http:\/\/fallback\.test\//);
  });

  it('carries the address through a real connection, body parsing included', async () => {
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (h.app.server.address() as { port: number }).port;
    const body = JSON.stringify({ file_ids: [ids.png], share_to: 'publiclink', expiration_days: 7 });
    const answer = await new Promise<string>((resolve, reject) => {
      const req = request(
        { port, host: '127.0.0.1', method: 'POST', path: '/drive/v1/share', headers: { host: 'haul-lan.test:8080', 'content-type': 'application/json', authorization: `Bearer ${user.access_token}` } },
        (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (d) => (text += d)).on('end', () => resolve(text));
        },
      );
      req.on('error', reject);
      // Sent in two pieces, so the handler runs from a later 'data'/'end' event than the one that started the request.
      req.write(body.slice(0, 10));
      setTimeout(() => req.end(body.slice(10)), 50);
    });
    expect(JSON.parse(answer).share_url).toMatch(/^http:\/\/haul-lan\.test:8080\/s\//);
  });

  it('adds no origin to the page policy when links are same-origin, and the pinned one when it is another', async () => {
    const page = await call(h, 'GET', '/drive/all', { host: '192.168.1.20:8080' });
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("img-src 'self' data: blob:;");
    expect(csp).toContain("connect-src 'self';");
    const pinnedPage = await call(pinned, 'GET', '/drive/all', { host: '192.168.1.20:8080' });
    expect(String(pinnedPage.headers['content-security-policy'])).toContain("img-src 'self' data: blob: http://haul.test;");
    const samePinned = await call(pinned, 'GET', '/drive/all', { host: 'haul.test' });
    expect(String(samePinned.headers['content-security-policy'])).toContain("img-src 'self' data: blob:;");
  });
});
