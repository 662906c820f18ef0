// Captures the README's screenshots (docs/screenshots): a demo drive on a throwaway Haul, in Chromium.
// Run with: node --import tsx scripts/screenshots.ts   (needs the web app built and /usr/bin/chromium)
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { createFolder } from '../apps/server/src/files/files.service.js';
import { signUpApi } from '../bench/fixtures.js';
import { startE2E } from '../e2e/harness.js';

const out = resolve(import.meta.dirname, '../docs/screenshots');
mkdirSync(out, { recursive: true });
const { haul, base, browser, seedFile, close } = await startE2E();

try {
  const t = await signUpApi(base, 'alex@example.com');
  const put = (parent: string, name: string, bytes: number) => seedFile(t.sub, parent, name, 'x'.repeat(bytes));
  for (const name of ['Documents', 'Music', 'Photos 2026', 'Projects']) await createFolder(haul.ctx, t.sub, '', name);
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
  await shoot(
    'mobile.png',
    { viewport: { width: 390, height: 780 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2, colorScheme: 'light' },
    async () => {},
  );
} finally {
  await close();
}
