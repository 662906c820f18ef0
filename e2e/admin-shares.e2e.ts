/**
 * Holding a share from the operator's console: the operator pastes a person's share link, takes the share down with a
 * reason (a reason is asked for first), a signed-out visitor opening the link is told it is not available, and the
 * owner's Shared page says what was done and why; a save limit is set, then the share is released and opens again,
 * and it is among the links used most.
 * Blocked words refuse a title in the owner's share dialog: in English with the server's words, in Español with the
 * app's text for SENSITIVE_WORD. The System page shows the last backup and how to make one. Screenshots go to /tmp.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../apps/server/src/accounts/accounts.service.js';
import { recordLastBackup } from '../apps/server/src/backup/manifest.js';
import { createFolder } from '../apps/server/src/files/files.service.js';
import { listView, PASSWORD, rowNames, shareAsOwner, startE2E, type E2E, signInBrowser, fitsWidth } from './harness.js';

const SHOTS = process.env.HAUL_SCREENSHOT_DIR ?? '/tmp';
const tag = Date.now().toString(36);
const OPERATOR = `mod-${tag}@example.com`;
const OWNER = `sam-${tag}@example.com`;
const REASON = 'Reported: holds a film that is not theirs to share.';
const WIDE = { viewport: { width: 1366, height: 900 } };
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

type Texts = { [key: string]: string | Texts };
const texts = (locale: string): Texts =>
  JSON.parse(readFileSync(resolve(import.meta.dirname, `../apps/web/src/locales/${locale}.json`), 'utf8')) as Texts;
const [en, es] = [texts('en-US'), texts('es')];
/** A text of a locale file by its key. */
const word = (locale: Texts, key: string) => key.split('.').reduce<string | Texts>((o, k) => (o as Texts)[k]!, locale) as string;

let e2e: E2E;
let ownerId: string;
let concertId: string;
beforeAll(async () => {
  e2e = await startE2E();
  await createUser(e2e.haul.ctx, { email: OPERATOR, password: PASSWORD, name: 'Mo', isAdmin: true });
  ownerId = (await createUser(e2e.haul.ctx, { email: OWNER, password: PASSWORD, name: 'Sam' })).id;
  concertId = (await createFolder(e2e.haul.ctx, ownerId, '', 'Concert')).id;
  await e2e.seedFile(ownerId, concertId, 'encore.mp4', 'not really a film');
  await e2e.seedFile(ownerId, '', 'poker.txt', 'full house beats a flush');
}, 60_000);
afterAll(() => e2e?.close());

const signIn = signInBrowser;


/** Picks a language in the menu, whose button is named in the language shown now. */
async function switchLanguage(page: Page, shown: Texts, name: string, lang: string) {
  await page.getByRole('button', { name: word(shown, 'settings.language') }).click();
  await page.getByRole('menuitemradio', { name }).click();
  await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(lang);
}

/** Opens the share dialog for one item of the file list, with the words of the language shown. */
async function openShareDialog(page: Page, shown: Texts, name: string) {
  await page.getByRole('row', { name, exact: true }).click();
  await page
    .getByRole('toolbar', { name: word(shown, 'selection.label') })
    .getByRole('button', { name: word(shown, 'actions.share'), exact: true })
    .click();
  return page.getByRole('dialog');
}

/** The error object of an answer. */
const errorOf = async (answer: Promise<Response>) =>
  (await (await answer).json()) as { error: string; error_description: string; details?: unknown[] };

describe('holding shares from the operator’s console', () => {
  it('takes a share down with a reason, the visitor and the owner see it, then sets a save limit and releases it', async () => {
    const { page: owner } = await e2e.newPage(WIDE);
    await signIn(owner, OWNER);
    await listView(owner);
    await expect.poll(() => rowNames(owner)).toContain('Concert');
    const shareId = await shareAsOwner(owner, [concertId]);
    const link = `${e2e.base}/s/${shareId}`;

    // The operator pastes the link as the owner copies it (title first); the share shows with its owner and no limit.
    const { page: ops } = await e2e.newPage(WIDE);
    await signIn(ops, OPERATOR);
    await ops.goto('/drive/admin');
    await ops.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'Shares' }).click();
    await ops.waitForURL('**/drive/admin/shares');
    await ops.getByRole('heading', { name: 'Shares', level: 1 }).waitFor();
    await ops.getByLabel('Share link or ID').fill('not a link');
    await ops.getByRole('button', { name: 'Show', exact: true }).click();
    await ops.getByRole('alert').filter({ hasText: 'Paste a share link' }).waitFor();
    await ops.getByLabel('Share link or ID').fill(`Concert Link: ${link}`);
    await ops.getByRole('button', { name: 'Show', exact: true }).click();
    await ops.waitForURL(`**/drive/admin/shares?id=${shareId}`);
    const facts = ops.getByRole('region', { name: 'The share' });
    await facts.getByText(OWNER).waitFor();
    expect(await facts.textContent()).toContain('Concert');
    expect(await ops.getByTestId('share-status').textContent()).toBe('Available');
    expect(await ops.getByTestId('share-limit').textContent()).toBe('No limit');
    expect(await ops.getByRole('button', { name: 'Release' }).count()).toBe(0);

    // A hold needs a reason, said at the field before anything is sent.
    await ops.getByRole('button', { name: 'Take down', exact: true }).click();
    await ops.getByRole('alert').filter({ hasText: 'Write the reason' }).waitFor();
    expect(await ops.getByLabel('Reason', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(await ops.getByRole('dialog').count()).toBe(0);

    // Taken down with a reason, after a question; shown at once.
    await ops.getByLabel('Reason', { exact: true }).fill(REASON);
    await ops.getByRole('button', { name: 'Take down', exact: true }).click();
    const question = ops.getByRole('dialog', { name: 'Take down “Concert”?' });
    expect(await question.textContent()).toContain('download links already handed out stop');
    await question.getByRole('button', { name: 'Take down' }).click();
    await expect.poll(() => ops.getByTestId('share-status').textContent()).toBe('Taken down');
    await ops.getByText('“Concert” is taken down').waitFor();
    expect(await facts.textContent()).toContain(REASON);
    await ops.getByRole('button', { name: 'Release' }).waitFor();
    await ops.screenshot({ path: join(SHOTS, 'haul-admin-share-1366.png'), fullPage: true });

    // A visitor who is not signed in is told the share is not available.
    const { page: visitor } = await e2e.newPage(PHONE);
    await visitor.goto(link);
    await visitor.getByText(word(en, 'publicShare.status.PROHIBITED')).waitFor();
    expect(await visitor.getByRole('heading', { name: 'Concert' }).count()).toBe(0);

    // The owner's Shared page says what was done and why.
    await owner.goto('/drive/shared');
    const row = owner.getByRole('row', { name: 'Concert' });
    await row.getByText('Taken down by an operator').waitFor();
    expect(await row.textContent()).toContain(REASON);
    await owner.screenshot({ path: join(SHOTS, 'haul-shared-held-1366.png'), fullPage: true });

    // A save limit: a wrong number at the field, then 5 after a question, shown at once.
    await ops.getByLabel('Saves allowed').fill('five');
    await ops.getByRole('button', { name: 'Set save limit' }).click();
    await ops.getByRole('alert').filter({ hasText: 'Enter a whole number' }).waitFor();
    await ops.getByLabel('Saves allowed').fill('5');
    await ops.getByRole('button', { name: 'Set save limit' }).click();
    await ops.getByRole('dialog', { name: 'Set the save limit of “Concert”?' }).getByRole('button', { name: 'Set save limit' }).click();
    await expect.poll(() => ops.getByTestId('share-limit').textContent()).toBe('5');
    expect(await ops.getByTestId('share-status').textContent()).toBe('Taken down');

    // Released: the visitor opens it again, and the owner's list no longer holds it.
    await ops.getByRole('button', { name: 'Release' }).click();
    await ops.getByRole('dialog', { name: 'Release “Concert”?' }).getByRole('button', { name: 'Release' }).click();
    await expect.poll(() => ops.getByTestId('share-status').textContent()).toBe('Available');
    await ops.getByText('“Concert” is released').waitFor();
    expect(await ops.getByRole('button', { name: 'Release' }).count()).toBe(0);
    expect(await ops.getByLabel('Reason', { exact: true }).inputValue()).toBe('');
    await visitor.reload();
    await visitor.getByRole('heading', { name: 'Concert' }).waitFor();
    await owner.reload();
    await owner.getByRole('row', { name: 'Concert' }).waitFor();
    expect(await owner.getByText('Taken down by an operator').count()).toBe(0);

    // The links used most: Concert among the viewed (the visitor's visit), none saved; its title opens its page.
    await ops.goto('/drive/admin/shares');
    const top = ops.getByRole('region', { name: 'Most used links' });
    const concert = top.getByTestId('top-share').filter({ hasText: 'Concert' });
    await concert.waitFor();
    expect(Number(await concert.locator('td').nth(2).textContent())).toBeGreaterThanOrEqual(1);
    await top.getByRole('button', { name: 'Most saved' }).click();
    await top.getByText('No share has been saved to a drive yet.').waitFor();
    await top.getByRole('button', { name: 'Most viewed' }).click();
    await concert.getByRole('link', { name: 'Concert' }).click();
    await ops.waitForURL(`**/drive/admin/shares?id=${shareId}`);
    await ops.getByRole('region', { name: 'The share' }).getByText(OWNER).waitFor();

    // The owner's security log names the operator's change.
    await owner.goto('/drive/account/security-log');
    await owner.getByRole('list', { name: 'Security log' }).getByText('Share link moderated by an operator').first().waitFor();
  });

  it('refuses a share title holding a blocked word in the owner’s share dialog, in English and in Español', async () => {
    const { page: ops } = await e2e.newPage(WIDE);
    await signIn(ops, OPERATOR);
    await ops.goto('/drive/admin/shares');
    const words = ops.getByLabel('Blocked words, one a line');
    await expect.poll(() => words.inputValue()).toBe('');
    expect(await ops.getByRole('region', { name: 'Blocked words' }).textContent()).toContain('Shares made before keep their titles');
    await words.fill(' Casino \nPirate bay\ncasino\n');
    await ops.getByRole('button', { name: 'Save words' }).click();
    await ops.getByText('Blocked words saved: 2').waitFor();
    await expect.poll(() => words.inputValue()).toBe('casino\npirate bay');

    const { page: owner } = await e2e.newPage(WIDE);
    await signIn(owner, OWNER);
    await listView(owner);
    await expect.poll(() => rowNames(owner)).toContain('poker.txt');

    // English: the server's own sentence, the title's word not named.
    let dialog = await openShareDialog(owner, en, 'poker.txt');
    expect(await dialog.getByLabel('Title (optional)').getAttribute('placeholder')).toBe('poker.txt');
    await dialog.getByLabel('Title (optional)').fill('Best CASINO nights');
    let made = owner.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/drive/v1/share'));
    await dialog.getByRole('button', { name: 'Create link' }).click();
    const refused = await errorOf(made);
    expect(refused).toEqual(expect.objectContaining({ error: 'invalid_argument', details: [{ share_status: 'SENSITIVE_WORD' }] }));
    await dialog.getByRole('alert').filter({ hasText: refused.error_description }).waitFor();
    expect(await dialog.textContent()).not.toContain('casino');
    await owner.keyboard.press('Escape');

    // Español: the app's text for SENSITIVE_WORD, not the server's English.
    await switchLanguage(owner, en, 'Español', 'es');
    dialog = await openShareDialog(owner, es, 'poker.txt');
    await dialog.getByLabel(word(es, 'share.linkTitle')).fill('Noches de pirate BAY');
    made = owner.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/drive/v1/share'));
    await dialog.getByRole('button', { name: word(es, 'share.create') }).click();
    expect((await errorOf(made)).details).toEqual([{ share_status: 'SENSITIVE_WORD' }]);
    await dialog
      .getByRole('alert')
      .filter({ hasText: word(es, 'publicShare.status.SENSITIVE_WORD') })
      .waitFor();
    expect(await dialog.textContent()).not.toContain(refused.error_description);
    await owner.screenshot({ path: join(SHOTS, 'haul-share-blocked-word-1366.png'), fullPage: true });

    // A title without a blocked word makes the link.
    await dialog.getByLabel(word(es, 'share.linkTitle')).fill('Noches de póker');
    await dialog.getByRole('button', { name: word(es, 'share.create') }).click();
    const linkField = dialog.getByLabel(word(es, 'share.link'), { exact: true });
    await linkField.waitFor();
    expect(await linkField.inputValue()).toMatch(new RegExp(`^${e2e.base}/s/[a-z0-9]{20}$`));
  });

  it('shows the last backup and how to make one; the shares page and the system fit a phone', async () => {
    await recordLastBackup(e2e.haul.ctx.db, {
      taken_at: '2026-11-20T03:00:00.000Z',
      finished_at: '2026-11-20T03:02:10.000Z',
      bytes: 3 * 1024 ** 3,
      database_bytes: 1024 ** 3,
      blob_count: 1200,
      blob_bytes: 2 * 1024 ** 3,
      blob_store: 'local',
      complete: true,
      dir: '/srv/backups/haul',
    });
    const { page } = await e2e.newPage(PHONE);
    await signIn(page, OPERATOR);
    await page.goto('/drive/admin/system');
    const backup = page.getByRole('region', { name: 'Last backup' });
    await backup.getByText('3 GB', { exact: true }).waitFor();
    expect(await backup.textContent()).toContain('1,200 stored files, 2 GB');
    expect(await page.getByTestId('backup-complete').textContent()).toContain('Yes');
    expect(await backup.textContent()).toContain('npm run haul-admin -- backup DIR');
    expect(await backup.textContent()).not.toContain('/srv/backups');
    expect(await page.getByRole('region', { name: 'This server' }).textContent()).toContain('SQLite');
    expect(await fitsWidth(page)).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'haul-admin-system-390.png'), fullPage: true });

    await page.goto('/drive/admin/shares');
    await page.getByLabel('Blocked words, one a line').waitFor();
    expect(await fitsWidth(page)).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'haul-admin-shares-390.png'), fullPage: true });
  });
});
