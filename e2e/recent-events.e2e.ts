/** Recent shows what happened last to each file: opening one in the viewer is "Viewed", downloading "Downloaded". */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listView, sessionUserId, signUpInBrowser, startE2E, type E2E } from './harness.js';

// A 1×1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(async () => {
  await e2e?.close();
});

describe('recent events', () => {
  it('records a view when a file is opened and a download when it is downloaded, and says so in Recent', async () => {
    const { page } = await e2e.newPage({ acceptDownloads: true });
    await signUpInBrowser(page);
    const userId = await sessionUserId(page);
    const photo = await e2e.seedFile(userId, '', 'dot.png', PNG);
    const notes = await e2e.seedFile(userId, '', 'notes.txt', 'some notes');
    await page.reload();
    await listView(page);

    // Open the photo in the viewer: its bytes are shown in the page.
    await page.getByRole('row', { name: 'dot.png' }).dblclick();
    await page.getByRole('img', { name: 'dot.png' }).waitFor();
    await page.keyboard.press('Escape');

    // Download the notes from the selection bar.
    await page.getByRole('row', { name: 'notes.txt' }).click();
    const download = page.waitForEvent('download');
    await page.getByRole('toolbar', { name: 'Selection' }).getByRole('button', { name: 'Download', exact: true }).click();
    expect((await download).suggestedFilename()).toBe('notes.txt');

    const types = async (fileId: string) =>
      (await e2e.haul.ctx.db.selectFrom('events').select('type').where('user_id', '=', userId).where('file_id', '=', fileId).execute()).map((r) => r.type).sort();
    await expect.poll(() => types(photo.id)).toContain('TYPE_VIEW');
    await expect.poll(() => types(notes.id)).toContain('TYPE_DOWNLOAD');
    // Viewing is not downloading, and the other way round.
    expect(await types(photo.id)).not.toContain('TYPE_DOWNLOAD');
    expect(await types(notes.id)).not.toContain('TYPE_VIEW');

    await page.getByRole('link', { name: 'Recent' }).click();
    await expect.poll(() => page.getByRole('row', { name: 'dot.png' }).textContent()).toContain('Viewed');
    await expect.poll(() => page.getByRole('row', { name: 'notes.txt' }).textContent()).toContain('Downloaded');
  });
});
