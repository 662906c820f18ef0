/**
 * Feedback in the browser: a person opens the feedback page from the account menu on a drive page (the page is filled
 * in), sends a message with a screenshot picked from a file and sees the confirmation and the message; the operator
 * finds it in the console with the screenshot shown, answers and closes it; the person reads the answer after a
 * reload. `?action=open_feedback` opens the page about the page it came on; both pages fit a 390 px phone.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../apps/server/src/accounts/accounts.service.js';
import { fromAccountMenu, PASSWORD, shareAsOwner, startE2E, type E2E, signInBrowser, fitsWidth } from './harness.js';

const SHOTS = process.env.HAUL_SCREENSHOT_DIR ?? '/tmp';
const tag = Date.now().toString(36);
const OPERATOR = `fbops-${tag}@example.com`;
const PERSON = `fbann-${tag}@example.com`;
const WIDE = { viewport: { width: 1366, height: 900 } };
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
/** A 16×16 red PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAFklEQVR4nGO4YGBAEmIY1TCqYfhqAAA+XjAQexaBIwAAAABJRU5ErkJggg==', 'base64');

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
  await createUser(e2e.haul.ctx, { email: OPERATOR, password: PASSWORD, name: 'Olga', isAdmin: true });
  await createUser(e2e.haul.ctx, { email: PERSON, password: PASSWORD, name: 'Ann' });
}, 60_000);
afterAll(() => e2e?.close());

const signIn = signInBrowser;


/** Whether the image has loaded real pixels (a broken one has no natural width). */
const imageShown = (page: Page, name: string) =>
  page.getByRole('img', { name }).first().evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth === 16);

describe('feedback', () => {
  it('is sent with a screenshot, answered in the console, and the person reads the answer', async () => {
    const { page: person } = await e2e.newPage(WIDE);
    await signIn(person, PERSON);
    await person.goto('/drive/recent');
    await fromAccountMenu(person, 'Feedback');
    await person.waitForURL('**/drive/feedback?where=%2Frecent');
    expect(await person.getByLabel('Page', { exact: true }).inputValue()).toBe('/recent');

    // An empty message is said at the field; nothing is sent.
    await person.getByRole('button', { name: 'Send', exact: true }).click();
    await person.getByText('Write a message.').waitFor();
    await person.getByLabel('Message', { exact: true }).fill('The recent list is empty after I upload.');
    await person.getByLabel('Screenshot (optional)').setInputFiles([{ name: 'shot.png', mimeType: 'image/png', buffer: PNG }]);
    await person.getByRole('button', { name: 'Send', exact: true }).click();
    await person.getByRole('status').filter({ hasText: 'your message was sent' }).waitFor();
    const mine = person.getByRole('list', { name: 'Your messages' }).getByRole('listitem');
    await expect.poll(() => mine.count()).toBe(1);
    expect(await mine.first().textContent()).toContain('The recent list is empty after I upload.');
    expect(await mine.first().textContent()).toContain('Open');
    await expect.poll(() => imageShown(person, 'Screenshot')).toBe(true);

    const { page: ops } = await e2e.newPage(WIDE);
    await signIn(ops, OPERATOR);
    await ops.goto('/drive/admin/feedback');
    const rows = ops.getByRole('list', { name: 'Feedback' }).getByRole('listitem');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain(PERSON);
    await rows.first().getByRole('link', { name: 'The recent list is empty after I upload.' }).click();
    await ops.getByRole('heading', { name: 'Message', level: 2 }).waitFor();
    expect(await ops.locator('.admin-facts').textContent()).toContain('/recent');
    await expect.poll(() => imageShown(ops, 'Screenshot')).toBe(true);
    await ops.screenshot({ path: join(SHOTS, 'haul-admin-feedback-1366.png'), fullPage: true });

    await ops.getByLabel('Answer', { exact: true }).fill('Thanks: fixed in the next version.');
    await ops.getByRole('button', { name: 'Send answer' }).click();
    await expect.poll(() => ops.getByTestId('feedback-status').textContent()).toBe('Answered');
    await ops.getByRole('button', { name: 'Close', exact: true }).click();
    await expect.poll(() => ops.getByTestId('feedback-status').textContent()).toBe('Closed');
    await ops.getByRole('link', { name: 'All messages' }).click();
    await ops.getByLabel('Status').selectOption('open');
    await ops.getByText('No messages.').waitFor();
    await ops.getByLabel('Status').selectOption('closed');
    await expect.poll(() => rows.count()).toBe(1);

    await person.reload();
    const item = person.getByRole('list', { name: 'Your messages' }).getByRole('listitem').first();
    await expect.poll(() => item.textContent()).toContain('Thanks: fixed in the next version.');
    expect(await item.textContent()).toContain('Closed');
  });

  it('opens from ?action=open_feedback about the page it came on, and fits a phone', async () => {
    const { page } = await e2e.newPage(PHONE);
    await signIn(page, PERSON);
    await page.goto('/drive/all?action=open_feedback');
    await page.waitForURL('**/drive/feedback?where=%2Fall');
    expect(await page.getByLabel('Page', { exact: true }).inputValue()).toBe('/all');
    await page.getByRole('list', { name: 'Your messages' }).waitFor();
    expect(await fitsWidth(page)).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'haul-feedback-390.png'), fullPage: true });

    const { page: ops } = await e2e.newPage(PHONE);
    await signIn(ops, OPERATOR);
    await ops.goto('/drive/admin/feedback');
    await ops.getByRole('list', { name: 'Feedback' }).getByRole('listitem').first().getByRole('link').click();
    await expect.poll(() => imageShown(ops, 'Screenshot')).toBe(true);
    expect(await fitsWidth(ops)).toBe(true);
    await ops.screenshot({ path: join(SHOTS, 'haul-admin-feedback-390.png'), fullPage: true });
  });

  it("puts a message sent about a share in the report queue, from the console's message page", async () => {
    const owner = await createUser(e2e.haul.ctx, { email: `fbowner-${tag}@example.com`, password: PASSWORD, name: 'Oz' });
    const film = await e2e.seedFile(owner.id, '', 'their-film.txt', 'not theirs to share');
    const { page: ownerPage } = await e2e.newPage(WIDE);
    await signIn(ownerPage, `fbowner-${tag}@example.com`);
    const shareId = await shareAsOwner(ownerPage, [film.id]);

    const { page: person } = await e2e.newPage(WIDE);
    await signIn(person, PERSON);
    await person.goto(`/drive/feedback?where=${encodeURIComponent(`/s/${shareId}`)}`);
    await person.getByLabel('Message', { exact: true }).fill('This link shares my film without my consent.');
    await person.getByRole('button', { name: 'Send', exact: true }).click();
    await person.getByRole('status').filter({ hasText: 'your message was sent' }).waitFor();

    const { page: ops } = await e2e.newPage(PHONE);
    await signIn(ops, OPERATOR);
    await ops.goto('/drive/admin/feedback');
    await ops.getByRole('link', { name: 'This link shares my film without my consent.' }).click();
    const form = ops.getByRole('form', { name: 'Report the share it names' });
    await form.getByLabel('Reason').selectOption('copyright');
    await form.getByRole('button', { name: 'Add to the report queue' }).click();
    await ops.getByRole('status').filter({ hasText: 'It is in the report queue.' }).waitFor();
    expect(await fitsWidth(ops)).toBe(true);
    await ops.getByRole('link', { name: 'Open the queue' }).click();
    const card = ops.getByRole('list', { name: 'Reports: Open' }).getByRole('article').filter({ hasText: PERSON });
    await card.waitFor();
    expect(await card.textContent()).toContain('Copyright infringement');
    expect(await card.textContent()).toContain('This link shares my film without my consent.');
  });
});

