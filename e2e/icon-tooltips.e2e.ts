/**
 * Icon-only buttons away from the first screen name themselves and show that name on hover (their title): a dialog's
 * ×, the selection bar at laptop and phone size, the floating + New on a phone, the shared links' row buttons and the
 * benefit carousel's pause and arrows.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addNew, listView, sessionUserId, shareAsOwner, signUpInBrowser, startE2E, type E2E } from './harness.js';

let e2e: E2E;
beforeAll(async () => {
  // Cloud decompression kept for premium: a free account's archive shows the benefit carousel.
  e2e = await startE2E({ config: { decompressPremiumOnly: true } });
});
afterAll(async () => {
  await e2e?.close();
});

const DESKTOP = { viewport: { width: 1280, height: 800 } };
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/** The icon-only buttons shown inside `scope`: each one's accessible name and tooltip. */
const iconButtons = (page: Page, scope: string) =>
  page.locator(scope).evaluateAll((roots) =>
    roots
      .flatMap((root) => [...root.querySelectorAll<HTMLElement>('button, [role=button]')])
      .filter((b) => b.getClientRects().length > 0 && b.innerText.replace(/[×‹›+]/g, '').trim() === '')
      .map((b) => ({ name: b.getAttribute('aria-label') ?? '', title: b.getAttribute('title') ?? '' })),
  );

/** Every icon-only button in `scope` has a name and a tooltip that says it; returns the names, to check they are there. */
async function namedWithTooltips(page: Page, scope: string): Promise<string[]> {
  const found = await iconButtons(page, scope);
  for (const b of found) {
    expect(b.name, `${scope}: ${JSON.stringify(b)}`).not.toBe('');
    expect(b.title, `${scope}: ${JSON.stringify(b)}`).toBe(b.name);
  }
  return found.map((b) => b.name);
}

describe('tooltips on icon buttons', () => {
  it("at laptop size: the selection bar, a dialog's ×, the shared links and the benefit carousel", async () => {
    const { page } = await e2e.newPage(DESKTOP);
    await signUpInBrowser(page);
    const uid = await sessionUserId(page);
    const notes = await e2e.seedFile(uid, '', 'notes.txt', 'x');
    const rar = readFileSync(join(import.meta.dirname, '../apps/server/test/fixtures/archives/Rar5.rar'));
    const archive = await e2e.seedFile(uid, '', 'plain.rar', rar);
    await page.reload();
    await listView(page);

    await page.getByRole('row', { name: 'notes.txt' }).click();
    await page.getByRole('toolbar', { name: 'Selection' }).waitFor();
    expect(await namedWithTooltips(page, '.selection-bar')).toContain('Clear selection');

    await addNew(page, 'New folder');
    await page.getByRole('dialog').getByLabel('Name').waitFor();
    expect(await namedWithTooltips(page, '[role=dialog]')).toContain('Close');
    await page.keyboard.press('Escape');

    await shareAsOwner(page, [notes.id]);
    await page.goto('/drive/shared');
    await page.getByRole('row', { name: 'notes.txt' }).waitFor();
    expect(await namedWithTooltips(page, '.share-table')).toEqual(['Copy the link of notes.txt', 'Settings of notes.txt']);

    await page.goto(`/drive/decompression/${archive.id}`);
    const carousel = page.getByRole('region', { name: 'What premium adds' });
    await carousel.getByRole('button', { name: 'Next benefit' }).waitFor();
    expect(await namedWithTooltips(page, '.benefits')).toEqual(['Pause the slides', 'Previous benefit', 'Next benefit']);
    // Paused, the first button says what it does now, in its tooltip too.
    await carousel.getByRole('button', { name: 'Pause the slides' }).click();
    expect(await namedWithTooltips(page, '.benefits')).toContain('Play the slides');
  });

  it('on a phone: the floating + New and the selection bar', async () => {
    const { page } = await e2e.newPage(PHONE);
    await signUpInBrowser(page);
    await e2e.seedFile(await sessionUserId(page), '', 'notes.txt', 'x');
    await page.reload();
    await listView(page);

    const fab = page.getByRole('button', { name: 'New', exact: true });
    await fab.waitFor();
    expect(await fab.evaluate((b) => ({ text: b.innerText.trim(), title: b.getAttribute('title') }))).toEqual({ text: '', title: 'New' });

    // A tap on the tick box selects, and the bar takes the toolbar's place.
    await page.getByRole('row', { name: 'notes.txt' }).locator('[data-check]').tap();
    await page.getByRole('toolbar', { name: 'Selection' }).waitFor();
    const names = await namedWithTooltips(page, '.selection-bar');
    expect(names).toEqual(expect.arrayContaining(['Clear selection', 'More actions']));
    expect(names.length).toBeGreaterThan(2);
  });
});
