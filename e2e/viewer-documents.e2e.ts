/** Text and PDF files in the viewer: text as plain text (never markup), cut at 2 MiB with a note; PDFs drawn by pdf.js. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createFolder } from '../apps/server/src/files/files.service.js';
import { type E2E, listView, rowNames, sessionUserId, signUpInBrowser, startE2E, viewer } from './harness.js';

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(async () => {
  await e2e?.close();
});

/** A small valid PDF: one page per text, each with the text in Helvetica and a black bar under it. */
function tinyPdf(pages: string[]): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${pages.map((_, i) => `${4 + i * 2} 0 R`).join(' ')}] /Count ${pages.length} >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  pages.forEach((text, i) => {
    const stream = `BT /F1 48 Tf 72 700 Td (${text}) Tj ET 0 0 0 rg 72 600 300 40 re f`;
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + i * 2} 0 R >>`);
    objects.push(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
  });
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

const MARKUP = '# Notes\n<b>not bold</b> <img src=x onerror="document.title=\'owned\'">\n\tindented line';
const BIG = `${'0123456789abcdef'.repeat(4096)}\n`.repeat(40); // 2.5 MiB of lines

async function seed(page: Page) {
  const userId = await sessionUserId(page);
  const folder = await createFolder(e2e.haul.ctx, userId, '', 'Docs');
  await e2e.seedFile(userId, folder.id, 'a notes.md', MARKUP);
  await e2e.seedFile(userId, folder.id, 'b big.log', BIG);
  // "café" in windows-1252: not valid UTF-8.
  await e2e.seedFile(userId, folder.id, 'c legacy.txt', Buffer.from([0x63, 0x61, 0x66, 0xe9]));
  await e2e.seedFile(userId, folder.id, 'd report.pdf', tinyPdf(['First page', 'Second page']));
  await page.goto(`/drive/all/${folder.id}`);
  await listView(page);
  await page.getByRole('button', { name: 'Sort' }).click();
  await page.getByRole('menuitemradio', { name: 'Name (A to Z)' }).click();
  await expect.poll(() => rowNames(page)).toEqual(['a notes.md', 'b big.log', 'c legacy.txt', 'd report.pdf']);
}

/** Dark pixels drawn on a PDF page's canvas. */
const inked = (page: Page, n: number) =>
  viewer(page)
    .getByRole('img', { name: `Page ${n}` })
    .evaluate((c: HTMLCanvasElement) => {
      if (!c.width) return 0;
      const { data } = c.getContext('2d')!.getImageData(0, 0, c.width, c.height);
      let dark = 0;
      for (let i = 0; i < data.length; i += 4) if (data[i]! < 80 && data[i + 3]! > 200) dark++;
      return dark;
    });

describe('viewer: text and PDF', () => {
  it('shows text as plain text, cuts a large file with a note, reads a legacy encoding, and draws a PDF', async () => {
    const { page } = await e2e.newPage();
    const downloads: string[] = [];
    page.on('download', (d) => downloads.push(d.suggestedFilename()));
    await signUpInBrowser(page);
    await seed(page);

    await page.getByRole('row', { name: 'a notes.md' }).dblclick();
    await expect.poll(() => viewer(page).getByTestId('viewer-count').textContent()).toBe('1 / 4');
    const text = viewer(page).getByLabel('a notes.md', { exact: true }).and(page.locator('pre'));
    await expect.poll(() => text.textContent()).toBe(MARKUP);
    // Markup in the file stays text: no element was made from it, no handler ran.
    expect(await viewer(page).locator('pre b, pre img').count()).toBe(0);
    expect(await page.title()).not.toBe('owned');
    const wrap = viewer(page).getByRole('button', { name: 'Wrap lines' });
    expect(await wrap.getAttribute('aria-pressed')).toBe('true');
    await wrap.click();
    expect(await wrap.getAttribute('aria-pressed')).toBe('false');
    expect(await text.evaluate((el) => getComputedStyle(el).whiteSpace)).toBe('pre');
    await wrap.click();

    // Plain arrows switch files here, as with photos.
    await text.focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => viewer(page).getByTestId('viewer-count').textContent()).toBe('2 / 4');
    await viewer(page).getByText('Showing the first 2.0 MB of 2.5 MB. Download the file to read all of it.').waitFor();
    const big = viewer(page).locator('pre');
    expect((await big.textContent())!.length).toBe(2 * 1024 * 1024);

    await page.keyboard.press('ArrowRight');
    await expect.poll(() => viewer(page).locator('pre').textContent()).toBe('café');
    await viewer(page).getByText('Read as windows-1252.').waitFor();

    await page.keyboard.press('ArrowRight');
    await expect.poll(() => viewer(page).getByTestId('viewer-count').textContent()).toBe('4 / 4');
    await viewer(page).getByText('Page 1 of 2').waitFor({ timeout: 20_000 });
    await expect.poll(() => inked(page, 1), { timeout: 20_000 }).toBeGreaterThan(1000);
    // Scrolled to the end, the second page is drawn and counted.
    await viewer(page).locator('.viewer-pdf-pages').evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await viewer(page).getByText('Page 2 of 2').waitFor();
    await expect.poll(() => inked(page, 2), { timeout: 20_000 }).toBeGreaterThan(1000);

    await page.keyboard.press('Escape');
    await expect.poll(() => viewer(page).count()).toBe(0);
    expect(downloads).toEqual([]);
  });

  it('fits text and PDF pages on a phone', async () => {
    const { page } = await e2e.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await signUpInBrowser(page);
    await seed(page);
    // A tap opens on a phone.
    await page.getByRole('row', { name: 'a notes.md' }).click();
    const pre = viewer(page).locator('pre');
    await expect.poll(() => pre.textContent()).toBe(MARKUP);
    // Within the screen once the viewer's slide-in is over.
    const right = async () => {
      const box = (await pre.boundingBox())!;
      return box.x >= 0 ? box.x + box.width : Infinity;
    };
    await expect.poll(right).toBeLessThanOrEqual(390);
    await viewer(page).getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => viewer(page).count()).toBe(0);

    await page.getByRole('row', { name: 'd report.pdf' }).click();
    await expect.poll(() => inked(page, 1), { timeout: 20_000 }).toBeGreaterThan(300);
    const pageBox = async () => {
      const box = (await viewer(page).getByRole('img', { name: 'Page 1' }).boundingBox())!;
      return box.x >= 0 ? box.x + box.width : Infinity;
    };
    await expect.poll(pageBox).toBeLessThanOrEqual(390);
  });
});
