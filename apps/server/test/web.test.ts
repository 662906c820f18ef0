import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHaul, type TestHaul } from './helper.js';

/** The built web app: history-mode routes, cache headers, precompressed assets. */
describe('web app serving', () => {
  let h: TestHaul;
  let web: string;
  const js = 'console.log("haul");'.repeat(200);
  const themeScript = "document.documentElement.dataset.theme = 'dark';";
  beforeAll(async () => {
    web = mkdtempSync(join(tmpdir(), 'haul-web-'));
    mkdirSync(join(web, 'assets'));
    writeFileSync(join(web, 'index.html'), `<!doctype html><script>${themeScript}</script><script type="module" src="/drive/assets/index-abc.js"></script><div id="root"></div>`);
    writeFileSync(join(web, 'assets', 'index-abc.js'), js);
    writeFileSync(join(web, 'assets', 'index-abc.js.gz'), gzipSync(js));
    h = await startTestHaul({ webDir: web });
  });
  afterAll(async () => {
    await h.destroy();
    rmSync(web, { recursive: true, force: true });
  });

  it('answers app routes with index.html and API misses with a JSON 404', async () => {
    for (const path of ['/drive/', '/drive/all/abc', '/drive/trash', '/s/xyz']) {
      const res = await h.app.inject({ method: 'GET', url: path });
      expect(res.statusCode, path).toBe(200);
      expect(res.body).toContain('id="root"');
      expect(res.headers['cache-control']).toBe('no-cache');
    }
    const miss = await h.app.inject({ method: 'GET', url: '/drive/v1/nope' });
    expect(miss.statusCode).toBe(404);
    expect(miss.json().error).toBe('not_found');
  });

  it('sends hashed assets compressed when the browser accepts it, and cacheable for good', async () => {
    const gz = await h.app.inject({ method: 'GET', url: '/drive/assets/index-abc.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.statusCode).toBe(200);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.rawPayload.length).toBeLessThan(js.length / 5);
    expect(gz.headers['cache-control']).toContain('immutable');
    const plain = await h.app.inject({ method: 'GET', url: '/drive/assets/index-abc.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(js);
  });

  it('sends a page policy that allows only our scripts and the page\'s own inline script, and no framing', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/drive/all' });
    const csp = String(res.headers['content-security-policy']);
    const hash = createHash('sha256').update(themeScript).digest('base64');
    expect(csp).toContain(`script-src 'self' 'sha256-${hash}'`);
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(res.headers['strict-transport-security']).toBeUndefined();
    // The landing page is the one the browser extension may frame.
    const landing = await h.app.inject({ method: 'GET', url: '/drive/landing' });
    expect(String(landing.headers['content-security-policy'])).toMatch(/frame-ancestors 'self' chrome-extension: moz-extension:/);
    expect(landing.headers['x-frame-options']).toBeUndefined();
    // Served over HTTPS through the trusted proxy: browsers are told to stay on HTTPS.
    const tls = await h.app.inject({ method: 'GET', url: '/drive/', headers: { 'x-forwarded-proto': 'https' } });
    expect(tls.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    // API answers are never sniffed into something else either.
    const api = await h.app.inject({ method: 'GET', url: '/drive/v1/nope' });
    expect(api.headers['x-content-type-options']).toBe('nosniff');
    expect(api.headers['content-security-policy']).toBeUndefined();
    // …nor kept by a cache: answers hold links signed for, and built from the address of, whoever asked.
    expect(api.headers['cache-control']).toBe('no-store');
    const view = await h.app.inject({ method: 'GET', url: '/drive/v1/share?share_id=nosuchshare' });
    expect(view.headers['cache-control']).toBe('no-store');
  });
});
