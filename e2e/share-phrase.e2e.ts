/** The share dialog with the seeds' share calls: a phrase to find the link by, and items that are shared already. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listView, sessionUserId, signUpInBrowser, startE2E, type E2E } from './harness.js';

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(async () => {
  await e2e?.close();
});

describe('share phrases and shared items', () => {
  it('makes a link with a phrase, finds it by the phrase, and says when items are shared already', async () => {
    const { page } = await e2e.newPage();
    await signUpInBrowser(page);
    const userId = await sessionUserId(page);
    await e2e.seedFile(userId, '', 'map.txt', 'north');
    await e2e.seedFile(userId, '', 'plan.txt', 'south');
    await page.reload();
    await listView(page);
    const bar = page.getByRole('toolbar', { name: 'Selection' });

    await page.getByRole('row', { name: 'map.txt' }).click();
    await bar.getByRole('button', { name: 'Share', exact: true }).click();
    await page.getByLabel('Share phrase (optional)').fill('Summer Trip 2026');
    await page.getByRole('button', { name: 'Create link' }).click();
    const link = await page.getByLabel('Link', { exact: true }).inputValue();
    expect(await page.getByTestId('share-phrase').textContent()).toBe('summer trip 2026');
    // Just made: not "shared already".
    expect(await page.getByText('Already shared').count()).toBe(0);
    await page.keyboard.press('Escape');

    // The same item again: the link made before, said so.
    await page.getByRole('row', { name: 'map.txt' }).click();
    await bar.getByRole('button', { name: 'Share', exact: true }).click();
    await page.getByText('Already shared: this is the link you made before.').waitFor();
    expect(await page.getByLabel('Link', { exact: true }).inputValue()).toBe(link);
    await page.keyboard.press('Escape');

    // With another item: a new link, and a word that one of them is on a link already.
    await page.getByRole('row', { name: 'map.txt' }).click();
    await page.getByRole('row', { name: 'plan.txt' }).click({ modifiers: ['Control'] });
    await bar.getByRole('button', { name: 'Share', exact: true }).click();
    await page.getByText('1 of these items is already shared on another link.').waitFor();
    await page.keyboard.press('Escape');

    // Someone types the phrase (any case, hyphens for spaces) as a share code: the share opens and asks its code.
    const { page: visitor } = await e2e.newPage();
    await visitor.goto('/drive/all?share_code=summer-TRIP-2026');
    await visitor.waitForURL(link);
    await visitor.getByText('Enter the pass code to open this share').waitFor();
  });
});
