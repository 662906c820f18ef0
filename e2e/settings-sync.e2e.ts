/** Settings follow the person: the list view, the search history and the uploads at once chosen in one browser are there in another. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, listView, signUpInBrowser, startE2E, type E2E } from './harness.js';

describe('settings that follow the account', () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  }, 60_000);
  afterAll(() => e2e.close());

  it('shows the view and the search terms of one browser in another', async () => {
    const laptop = (await e2e.newPage()).page;
    const email = await signUpInBrowser(laptop);
    // A new account starts in the grid; the laptop switches to the list and searches.
    await listView(laptop);
    // Two uploads at once, chosen in the transfer list (it opens with the first upload).
    await laptop.getByTestId('upload-files').setInputFiles([{ name: 'a.txt', mimeType: 'text/plain', buffer: Buffer.from('a') }]);
    await laptop.getByRole('tab', { name: /^Uploading/ }).click();
    await laptop.getByLabel('Uploads at once').selectOption('2');
    const search = laptop.getByLabel('Search your files');
    await search.fill('tax return');
    await search.press('Enter');
    await laptop.waitForURL(/action=search/);
    // Sent a second after the last change.
    await expect
      .poll(async () => (await e2e.haul.ctx.db.selectFrom('user_settings').select('item').execute()).map((r) => r.item).sort(), { timeout: 10_000 })
      .toEqual(['display_mode', 'max_parallel_uploads', 'search_history']);

    const desktop = (await e2e.newPage()).page;
    await desktop.goto('/drive/login');
    await desktop.getByLabel('Email').fill(email);
    await desktop.getByLabel('Password').fill(PASSWORD);
    await desktop.getByRole('button', { name: 'Sign in', exact: true }).click();
    await desktop.waitForURL('**/drive/all');
    await desktop.getByRole('button', { name: 'Grid view' }).waitFor();
    await desktop.getByLabel('Search your files').focus();
    await expect.poll(() => desktop.locator('#search-history option').evaluateAll((o) => o.map((x) => x.getAttribute('value')))).toEqual(['tax return']);
    // The upload queue of this browser reads it.
    expect(await desktop.evaluate(() => localStorage.getItem('haul.parallelUploads'))).toBe('2');
  });
});
