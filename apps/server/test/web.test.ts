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
  beforeAll(async () => {
    web = mkdtempSync(join(tmpdir(), 'haul-web-'));
    mkdirSync(join(web, 'assets'));
    writeFileSync(join(web, 'index.html'), '<!doctype html><div id="root"></div>');
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
});
