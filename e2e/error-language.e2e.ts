/**
 * Errors in the reader's language (seed 001 §8): the server describes its refusals in English; a reader of 简体中文 or
 * Español sees the app's own words for them, with a limit's numbers written their way, and not the English.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page, Response } from 'playwright-core';
import { listView, rowNames, sessionUserId, signUpInBrowser, startE2E, type E2E } from './harness.js';

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(async () => {
  await e2e?.close();
});

type Texts = { [key: string]: string | Texts };
const texts = (locale: string): Texts => JSON.parse(readFileSync(resolve(import.meta.dirname, `../apps/web/src/locales/${locale}.json`), 'utf8')) as Texts;
const [en, zh, es] = [texts('en-US'), texts('zh-CN'), texts('es')];
/** A text of a locale file by its key. */
const word = (locale: Texts, key: string) => key.split('.').reduce<string | Texts>((o, k) => (o as Texts)[k]!, locale) as string;

/** Picks a language in the menu, whose button is named in the language shown now. */
async function switchLanguage(page: Page, shown: Texts, name: string, lang: string) {
  await page.getByRole('button', { name: word(shown, 'settings.language') }).click();
  await page.getByRole('menuitemradio', { name }).click();
  await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(lang);
}

/** The error object of an answer, to show what the server said in English. */
const errorOf = async (answer: Promise<Response>) => (await (await answer).json()) as { error: string; error_description: string };

describe('errors in the reader’s language', () => {
  it('words a name clash, a wrong password and a full drive in 简体中文 and Español, not in the server’s English', async () => {
    const { page } = await e2e.newPage();
    await signUpInBrowser(page);
    const uid = await sessionUserId(page);
    await e2e.seedFile(uid, '', 'report.txt', 'a');
    await e2e.seedFile(uid, '', 'notes.txt', 'b');
    await page.reload();
    await listView(page);
    await expect.poll(() => rowNames(page)).toEqual(expect.arrayContaining(['notes.txt', 'report.txt']));

    // 简体中文: renaming to a name taken in the folder.
    await switchLanguage(page, en, '简体中文', 'zh-CN');
    await page.getByRole('row', { name: 'notes.txt', exact: true }).click();
    await page.keyboard.press('F2');
    const name = page.getByRole('dialog').getByLabel(word(zh, 'files.name'), { exact: true });
    await name.fill('report.txt');
    const renamed = page.waitForResponse((r) => r.request().method() === 'PATCH' && /\/v1\/files\//.test(r.url()));
    await name.press('Enter');
    const clash = await errorOf(renamed);
    expect(clash).toEqual(expect.objectContaining({ error: 'file_duplicated_name', error_description: 'A file or folder named "report.txt" already exists here.' }));
    const toast = page.locator('[data-sonner-toast]').filter({ hasText: word(zh, 'errors.file_duplicated_name') });
    await toast.waitFor();
    expect(await toast.textContent()).not.toContain('already exists');
    await page.keyboard.press('Escape');

    // Español: a wrong current password when changing it.
    await switchLanguage(page, zh, 'Español', 'es');
    await page.goto('/drive/account/password');
    await page.getByLabel(word(es, 'account.currentPassword'), { exact: true }).fill('not my password');
    await page.getByLabel(word(es, 'auth.newPassword'), { exact: true }).fill('another horse battery');
    await page.getByLabel(word(es, 'account.repeatPassword'), { exact: true }).fill('another horse battery');
    const sudo = page.waitForResponse((r) => r.url().endsWith('/v1/user/sudo'));
    await page.getByRole('button', { name: word(es, 'account.changePassword') }).click();
    expect(await errorOf(sudo)).toEqual(expect.objectContaining({ error: 'invalid_grant', error_description: 'The password is incorrect.' }));
    await page.getByRole('alert').filter({ hasText: word(es, 'errors.invalid_grant') }).waitFor();
    expect(await page.getByText('The password is incorrect.').count()).toBe(0);

    // Español: an upload larger than the free space, with the numbers in Spanish.
    await e2e.haul.ctx.db.updateTable('users').set({ storage_limit: 1_000_000 }).where('id', '=', uid).execute();
    await page.goto('/drive/all');
    const created = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/v1/files'));
    await page.getByTestId('upload-files').setInputFiles([{ name: 'big.bin', mimeType: 'application/octet-stream', buffer: randomBytes(1_500_000) }]);
    const full = await errorOf(created);
    expect(full.error).toBe('file_space_not_enough');
    expect(full.error_description).toMatch(/^\{"title":/);
    await page.getByRole('dialog', { name: word(es, 'limits.title.storage_short') }).waitFor({ timeout: 20_000 });
    await page.keyboard.press('Escape');
    const limitWords = word(es, 'errors.limit.file_space_not_enough').replace('{{free}}', '976,6 KB').replace('{{limit}}', '976,6 KB');
    await page.getByRole('tab', { name: new RegExp(`^${word(es, 'uploads.tab_uploading')}`) }).click();
    const item = page.getByRole('listitem', { name: 'big.bin', exact: true });
    await expect.poll(() => item.textContent(), { timeout: 20_000 }).toContain(limitWords);
    expect(await item.textContent()).not.toContain(JSON.parse(full.error_description).title);
  }, 120_000);
});
