/**
 * The archive page in dark mode: its select is drawn on the theme's surface (not the browser's light one), its tick
 * boxes are the file list's, its radios are drawn to match them, and its dates are written as the file list writes them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2E, listView, sessionUserId, signUpInBrowser, startE2E } from './harness.js';

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e?.close());

/** "Nov 28, 2026, 7:05 AM": the file list's date and time (formatTime, en-US). */
const FILE_LIST_TIME = /^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s[AP]M$/;

describe('the archive page in dark mode', () => {
  it("uses the theme's select, tick boxes and radios, and the file list's dates", async () => {
    const { page } = await e2e.newPage({ colorScheme: 'dark' });
    await signUpInBrowser(page);
    const rar = readFileSync(join(import.meta.dirname, '../apps/server/test/fixtures/archives/Rar5.rar'));
    const archive = await e2e.seedFile(await sessionUserId(page), '', 'plain.rar', rar);
    await page.reload();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await listView(page);
    const listTime = await page.getByRole('row', { name: 'plain.rar' }).locator('.ftime').textContent();
    expect(listTime).toMatch(FILE_LIST_TIME);

    await page.goto(`/drive/decompression/${archive.id}`);
    await expect.poll(() => page.getByRole('treeitem').count()).toBeGreaterThan(0);
    const select = page.getByRole('combobox', { name: 'Names' });
    const colours = await select.evaluate((el) => ({
      select: getComputedStyle(el).backgroundColor,
      text: getComputedStyle(el).color,
      surface: getComputedStyle(document.documentElement).backgroundColor,
      ink: getComputedStyle(document.documentElement).color,
    }));
    expect(colours.select).toBe(colours.surface);
    expect(colours.text).toBe(colours.ink);
    expect(colours.surface).toBe('rgb(21, 24, 29)');

    // The tick boxes are the file list's .check boxes, and still checkboxes to click.
    const all = page.getByRole('checkbox', { name: 'Select all' });
    expect(await all.isChecked()).toBe(true);
    expect(await page.locator('.archive-page .tick-box .check').count()).toBe(await page.getByRole('checkbox').count());
    const ticked = await page.locator('.archive-page .tick-box .check.on').first().evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(ticked).toBe('rgb(42, 99, 224)');
    await all.uncheck();
    expect(await page.locator('.archive-page .tick-box .check.on').count()).toBe(0);

    const dates = (await page.locator('.archive-date').allTextContents()).filter(Boolean);
    expect(dates.length).toBeGreaterThan(0);
    for (const d of dates) expect(d).toMatch(FILE_LIST_TIME);

    // Where to unpack: round boxes drawn like the tick boxes over real radios, which the arrow keys move between.
    const fresh = page.getByRole('radio', { name: /^A new folder/ });
    const beside = page.getByRole('radio', { name: "The archive's folder" });
    const dots = () =>
      page
        .locator('.archive-target .radio-dot .dot')
        .evaluateAll((els) =>
          els.map((el) => ({
            on: el.classList.contains('on'),
            fill: getComputedStyle(el).backgroundColor,
            edge: getComputedStyle(el).borderTopColor,
          })),
        );
    expect(await fresh.isChecked()).toBe(true);
    expect(await fresh.evaluate((el) => getComputedStyle(el).opacity)).toBe('0');
    expect(await dots()).toEqual([
      { on: true, fill: 'rgb(42, 99, 224)', edge: 'rgb(42, 99, 224)' },
      { on: false, fill: 'rgba(0, 0, 0, 0)', edge: 'rgb(104, 114, 127)' },
    ]);
    await fresh.focus();
    await page.keyboard.press('ArrowDown');
    expect(await beside.isChecked()).toBe(true);
    expect((await dots()).map((d) => d.on)).toEqual([false, true]);
  });
});
