/** The storage page breaks the used space into kinds of file and the trash, with the sizes of the files uploaded. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2E, fromAccountMenu, sessionUserId, signUpInBrowser, startE2E } from './harness.js';

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e?.close());

describe('storage by kind', () => {
  it('shows the bytes of each kind of file and of the trash', async () => {
    const { page } = await e2e.newPage();
    await signUpInBrowser(page);
    const userId = await sessionUserId(page);
    const put = (name: string, size: number) => e2e.seedFile(userId, '', name, Buffer.alloc(size, 7));
    await put('clip.mp4', 3000);
    await put('photo.png', 2048);
    await put('song.mp3', 1024);
    await put('report.pdf', 4096);
    await put('notes.txt', 1024);
    await put('pack.zip', 512);
    await put('data.bin', 100);
    const old = await put('old.mkv', 4096);
    const trashed = await page.evaluate(async (id) => {
      const token = JSON.parse(localStorage.getItem('haul.session') ?? '{}').state.session.accessToken as string;
      const r = await fetch('/drive/v1/files:batchTrash', { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ ids: [id] }) });
      return r.status;
    }, old.id);
    expect(trashed).toBe(200);

    await fromAccountMenu(page, 'Storage space');
    const byKind = page.getByRole('region', { name: 'By kind' });
    await byKind.waitFor();
    const rows = () =>
      byKind.locator('li[data-kind]').evaluateAll((lis) => lis.map((li) => [li.getAttribute('data-kind'), li.getAttribute('data-bytes'), li.querySelector('.quota-head')?.textContent]));
    await expect.poll(rows).toEqual([
      ['video', '3000', 'Videos2.9 KB · 1 file'],
      ['image', '2048', 'Images2.0 KB · 1 file'],
      ['audio', '1024', 'Audio1.0 KB · 1 file'],
      ['document', '5120', 'Documents5.0 KB · 2 files'],
      ['archive', '512', 'Archives512 B · 1 file'],
      ['other', '100', 'Other100 B · 1 file'],
      ['trash', '4096', 'Trash4.0 KB · 1 file'],
    ]);
    // The kinds and the trash add up to the bar above them.
    expect(await page.locator('[data-quota="storage"]').textContent()).toContain('15.5 KB of');
  });
});
