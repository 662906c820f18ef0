/**
 * The browser extension's zips (src/web/extension-download.ts): served from beside the web app when built, as
 * application/zip to save; a clear 404 when not built, and for any other name.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHaul, type TestHaul } from './helper.js';

// The repository's layout: <root>/web/dist (the web app) and <root>/extension/zip (the extension's build).
const root = mkdtempSync(join(tmpdir(), 'haul-extension-download-'));
const webDir = join(root, 'web', 'dist');
const zipDir = join(root, 'extension', 'zip');
const ZIP = Buffer.concat([Buffer.from('PK\x05\x06'), Buffer.alloc(18)]);

let haul: TestHaul;
beforeAll(async () => {
  mkdirSync(webDir, { recursive: true });
  writeFileSync(join(webDir, 'index.html'), '<!doctype html><title>Haul</title>');
  mkdirSync(zipDir, { recursive: true });
  writeFileSync(join(zipDir, 'haul-extension-chromium.zip'), ZIP);
  haul = await startTestHaul({ webDir });
});
afterAll(async () => {
  await haul?.destroy();
  rmSync(root, { recursive: true, force: true });
});

describe('the extension download', () => {
  it('serves a built zip as application/zip to save', async () => {
    const res = await haul.app.inject({ method: 'GET', url: '/drive/extension/haul-extension-chromium.zip' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toBe('attachment; filename="haul-extension-chromium.zip"');
    expect(res.rawPayload.equals(ZIP)).toBe(true);
  });

  it('says how to build a zip that is not there, and names the ones there are for any other name', async () => {
    const missing = await haul.app.inject({ method: 'GET', url: '/drive/extension/haul-extension-firefox.zip' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ error: 'not_found', error_description: expect.stringContaining('npm run build -w @haul/extension') });
    const other = await haul.app.inject({ method: 'GET', url: '/drive/extension/..%2F..%2Fweb%2Fdist%2Findex.html' });
    expect(other.statusCode).toBe(404);
    expect(other.json().error_description).toMatch(/^No such download/);
  });

  it('leaves the install page itself to the web app', async () => {
    const page = await haul.app.inject({ method: 'GET', url: '/drive/extension' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
  });
});
