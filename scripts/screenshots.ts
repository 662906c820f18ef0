// Captures the README's screenshots (docs/screenshots): a demo drive on a throwaway Haul, in Chromium.
// Run with: node --import tsx scripts/screenshots.ts   (needs the web app built and /usr/bin/chromium)
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { createFolder } from '../apps/server/src/files/files.service.js';
import { signUpApi } from '../bench/fixtures.js';
import { startE2E } from '../e2e/harness.js';

const out = resolve(import.meta.dirname, '../docs/screenshots');
mkdirSync(out, { recursive: true });
const { haul, base, browser, seedFile, close } = await startE2E();
// Real pictures for the viewer and the thumbnails (ffmpeg's fractal and test sources).
const media = mkdtempSync(join(tmpdir(), 'haul-shots-'));
const picture = (name: string, source: string) => {
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', source, '-frames:v', '1', join(media, name)]);
  return readFileSync(join(media, name)) as unknown as string;
};

try {
  const t = await signUpApi(base, 'alex@example.com');
  const put = (parent: string, name: string, bytes: number) => seedFile(t.sub, parent, name, 'x'.repeat(bytes));
  for (const name of ['Documents', 'Music', 'Projects']) await createFolder(haul.ctx, t.sub, '', name);
  const photos = await createFolder(haul.ctx, t.sub, '', 'Photos 2026');
  const sources = ['mandelbrot=size=1600x1000:start_scale=2', 'mandelbrot=size=1600x1000:start_scale=0.02:inner=period', 'life=size=1600x1000:mold=10:ratio=0.3:death_color=#1b4f72:life_color=#f5b041', 'gradients=size=1600x1000:n=5', 'cellauto=size=1600x1000:rule=30'];
  for (const [i, src] of sources.entries()) await seedFile(t.sub, photos.id, `IMG_20${26 + i}0${i + 1}.jpg`, picture(`p${i}.jpg`, src));
  const movies = await createFolder(haul.ctx, t.sub, '', 'Movies');
  await put(movies.id, 'Big Buck Bunny.mp4', 3_500_000);
  for (const [n, s] of [
    ['Budget 2026.xlsx', 48_000],
    ['Holiday in Lisbon.jpg', 2_400_000],
    ['Interview.mp3', 5_100_000],
    ['Ubuntu 26.04 desktop.iso', 9_800_000],
    ['Reading list.pdf', 730_000],
    ['Sources.zip', 1_200_000],
  ] as const) {
    await put('', n, s);
  }
  const session = JSON.stringify({
    state: {
      session: { accessToken: t.access_token, refreshToken: t.refresh_token, expiresAt: Date.now() + t.expires_in * 1000, userId: t.sub },
    },
    version: 0,
  });
  const shoot = async (file: string, opts: BrowserContextOptions, prepare: (page: Page) => Promise<void>) => {
    const context = await browser.newContext({ baseURL: base, locale: 'en-US', ...opts });
    await context.addInitScript(
      ([s, theme, view]) => {
        localStorage.setItem('haul.session', s!);
        localStorage.setItem('haul.theme', theme!);
        localStorage.setItem(
          'haul.display',
          JSON.stringify({
            state: {
              global: { orderType: 'MODIFY_TIME_DESC', pinFoldersTop: true, viewType: view, last_modified: 0 },
              orderSettingGlobal: true,
              viewSettingGlobal: true,
              byKey: {},
            },
            version: 0,
          }),
        );
      },
      [session, opts.colorScheme === 'dark' ? 'dark' : 'light', 'list'],
    );
    const page = await context.newPage();
    await page.goto('/drive/all');
    await page.waitForSelector('[data-item]');
    await prepare(page);
    await page.waitForTimeout(1200);
    await page.screenshot({ path: join(out, file) });
    await context.close();
    console.log(`wrote docs/screenshots/${file}`);
  };

  await shoot('desktop-light.png', { viewport: { width: 1280, height: 760 }, colorScheme: 'light' }, async (page) => {
    await page.getByRole('row', { name: 'Holiday in Lisbon.jpg' }).click({ button: 'right' });
  });
  await shoot('desktop-dark.png', { viewport: { width: 1280, height: 760 }, colorScheme: 'dark' }, async (page) => {
    await page.getByRole('row', { name: 'Budget 2026.xlsx' }).click();
    await page.getByRole('row', { name: 'Reading list.pdf' }).click({ modifiers: ['Control'] });
  });
  await shoot('viewer.png', { viewport: { width: 1280, height: 760 }, colorScheme: 'dark' }, async (page) => {
    await page.getByRole('row', { name: 'Photos 2026' }).dblclick();
    await page.getByRole('row', { name: 'IMG_202601.jpg' }).dblclick();
    await page.getByRole('img', { name: 'IMG_202601.jpg' }).waitFor();
  });
  await shoot('share-page.png', { viewport: { width: 1280, height: 760 }, colorScheme: 'light' }, async (page) => {
    const res = await page.request.post('/drive/v1/share', {
      headers: { authorization: `Bearer ${t.access_token}` },
      data: { file_ids: [photos.id], share_to: 'publiclink', expiration_days: 7 },
    });
    const { share_url } = (await res.json()) as { share_url: string };
    await page.goto(share_url);
    await page.getByRole('button', { name: 'Photos 2026', exact: true }).click();
    await page.getByRole('button', { name: 'IMG_202601.jpg', exact: true }).waitFor();
  });
  await shoot(
    'mobile.png',
    { viewport: { width: 390, height: 780 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2, colorScheme: 'light' },
    async () => {},
  );
} finally {
  await close();
  rmSync(media, { recursive: true, force: true });
}
