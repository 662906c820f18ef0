/**
 * The Telegram bot page in Chromium, against a stand-in of the Bot API on loopback: the page shows a one-time code,
 * its t.me link and a QR code; the stand-in's "person" sends `/start CODE` to the bot, and the page, asking every few
 * seconds, turns to the link; a folder is chosen and the bot is told of it; unlinking brings the code button back.
 * At a phone's width and a desktop's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TelegramStandIn } from '../apps/server/test/telegram-stand-in.js';
import { fitsWidth, pageApi, signUpInBrowser, startE2E, type E2E } from './harness.js';

const TOKEN = '987654321:AAEbrowserTestToken_value';
const ANN = { id: 55501, first_name: 'Ann', last_name: 'Tester' };
let e2e: E2E;
let tg: TelegramStandIn;

beforeAll(async () => {
  tg = new TelegramStandIn(TOKEN, 'haul_e2e_bot');
  await tg.start();
  e2e = await startE2E({ config: { telegramBotToken: TOKEN, telegramApiBase: tg.base } });
  e2e.haul.telegram.start();
}, 60_000);
afterAll(async () => {
  await e2e?.close();
  await tg?.stop();
});

describe('Telegram bot page', () => {
  for (const width of [390, 1366]) {
    it(`links with a code, chooses a folder and unlinks at ${width} px`, { timeout: 120_000 }, async () => {
      const { page } = await e2e.newPage({ viewport: { width, height: 860 } });
      await signUpInBrowser(page);
      await pageApi(page, 'POST', '/drive/v1/files', { kind: 'drive#folder', name: 'Films', parent_id: '' });
      await page.goto('/drive/bot');
      await page.waitForURL('**/drive/bot/tg-management');
      await page.getByRole('heading', { name: 'Telegram bot' }).waitFor();

      await page.getByRole('button', { name: 'Link Telegram' }).click();
      const shown = (await page.getByLabel('Link code').textContent()) ?? '';
      const code = /^\/start (\w+)$/.exec(shown)?.[1];
      expect(code).toBeTruthy();
      expect(await page.getByRole('link', { name: 'Open in Telegram' }).getAttribute('href')).toBe(`https://t.me/haul_e2e_bot?start=${code}`);
      await page.getByRole('img', { name: 'QR code of the link to the bot' }).waitFor();
      expect(await fitsWidth(page)).toBe(true);

      // The person sends the code to the bot: the page notices by itself.
      const user = { ...ANN, id: ANN.id + width };
      tg.send(user, { text: `/start ${code}` });
      await page.getByText('Ann Tester', { exact: true }).waitFor({ timeout: 20_000 });
      expect(await tg.nth(user.id, 1)).toMatch(/^Linked to Haul/);
      expect(await page.getByTestId('telegram-folder').textContent()).toBe('All files');
      expect(await fitsWidth(page)).toBe(true);

      // A folder from the picker: the page and the bot both say it.
      await page.getByRole('button', { name: 'Choose folder' }).click();
      await page.getByRole('option', { name: 'Films' }).click();
      await page.getByRole('button', { name: 'Save into “Films”' }).click();
      await expect.poll(() => page.getByTestId('telegram-folder').textContent()).toBe('Films');
      tg.send(user, { text: '/folder' });
      expect(await tg.nth(user.id, 2)).toMatch(/land in “Films”/);

      await page.getByRole('button', { name: 'Unlink' }).click();
      await page.getByRole('button', { name: 'Link Telegram' }).waitFor();
      expect(((await pageApi(page, 'GET', '/v1/telegram/link')) as { linked: boolean }).linked).toBe(false);
    });
  }
});
