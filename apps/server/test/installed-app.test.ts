import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arrivalLocation, linksIn } from '../src/web/share-target.routes.js';
import { startTestHaul, type TestHaul } from './helper.js';

/** A multipart body as a browser sends a share: text fields and files. */
function multipart(fields: Record<string, string>, files: { name: string; type: string; bytes: Buffer }[] = []) {
  const boundary = '----haulshare';
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  for (const f of files) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${f.name}"\r\nContent-Type: ${f.type}\r\n\r\n`),
    );
    parts.push(f.bytes, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/**
 * The installed app on the server's side: its service worker and manifest are served so that a new version is seen at
 * once, and the share target, when no service worker took the POST, sends the links on to the cloud download deep link.
 */
describe('installed app', () => {
  let h: TestHaul;
  let web: string;
  beforeAll(async () => {
    web = mkdtempSync(join(tmpdir(), 'haul-web-'));
    writeFileSync(join(web, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(join(web, 'sw.js'), 'self.addEventListener("fetch", () => {});');
    writeFileSync(join(web, 'manifest.webmanifest'), '{"name":"Haul"}');
    h = await startTestHaul({ webDir: web });
  });
  afterAll(async () => {
    await h.destroy();
    rmSync(web, { recursive: true, force: true });
  });

  const post = (body: { payload: Buffer | string; headers: Record<string, string> }) =>
    h.app.inject({ method: 'POST', url: '/drive/share-target', ...body });

  it('serves the service worker and the manifest to be revalidated every time, never kept as immutable', async () => {
    const sw = await h.app.inject({ method: 'GET', url: '/drive/sw.js' });
    expect(sw.statusCode).toBe(200);
    expect(sw.headers['content-type']).toMatch(/javascript/);
    expect(sw.headers['cache-control']).toBe('no-cache');
    const manifest = await h.app.inject({ method: 'GET', url: '/drive/manifest.webmanifest' });
    expect(manifest.statusCode).toBe(200);
    expect(manifest.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(manifest.headers['cache-control']).toBe('no-cache');
  });

  it('sends the links of url, text and title to the drive with 303', async () => {
    const res = await post(
      multipart({ title: 'Films magnet:?xt=urn:btih:abc', text: 'Look at this: https://example.com/a.iso.', url: 'https://example.com/b' }),
    );
    expect(res.statusCode).toBe(303);
    const to = new URL(String(res.headers.location), 'http://haul.test');
    expect(to.pathname).toBe('/drive/all');
    expect(to.searchParams.get('action')).toBe('create_task');
    expect(to.searchParams.get('url')).toBe('https://example.com/b\nhttps://example.com/a.iso\nmagnet:?xt=urn:btih:abc');
  });

  it('opens the empty dialog for a file alone (a file cannot travel in an address), and the drive for nothing', async () => {
    const file = await post(
      multipart({ title: '', text: '' }, [
        { name: 'a.torrent', type: 'application/x-bittorrent', bytes: Buffer.from('d4:infod4:name1:aee') },
      ]),
    );
    expect(file.statusCode).toBe(303);
    expect(file.headers.location).toBe('/drive/all?action=create_task');
    const nothing = await post(multipart({ text: 'just words' }));
    expect(nothing.headers.location).toBe('/drive/all');
    // A plain form (no file input) is read too.
    const plain = await post({
      payload: 'url=https%3A%2F%2Fexample.com%2Fc',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(new URL(String(plain.headers.location), 'http://haul.test').searchParams.get('url')).toBe('https://example.com/c');
  });

  it('refuses a form it cannot read with the error object', async () => {
    const res = await post({ payload: 'not multipart at all', headers: { 'content-type': 'multipart/form-data; boundary=nope' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'invalid_argument', error_description: expect.stringContaining('could not be read') });
    const json = await h.app.inject({ method: 'POST', url: '/drive/share-target', payload: { url: 'https://example.com' } });
    expect(json.statusCode).toBe(400);
    expect(json.json().error).toBe('invalid_argument');
  });

  it('finds links among words and keeps the address short', () => {
    expect(linksIn('see (https://en.wikipedia.org/wiki/Haul_(film)), and https://x.test/a!')).toEqual([
      'https://en.wikipedia.org/wiki/Haul_(film)',
      'https://x.test/a',
    ]);
    expect(linksIn('http:// and magnet:? alone')).toEqual([]);
    const many = Array.from({ length: 500 }, (_, i) => `https://example.com/file-${i}.bin`);
    const at = arrivalLocation(many, false);
    expect(at.length).toBeLessThan(6100);
    expect(new URL(at, 'http://haul.test').searchParams.get('url')!.split('\n')[0]).toBe(many[0]);
  });
});
