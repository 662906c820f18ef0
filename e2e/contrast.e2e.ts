/**
 * Accessibility of the main screens in both themes: axe-core, run in Chromium over sign-in, forgot password, change
 * password, the file list, "+ New", the share dialog, a failed cloud download in the transfer panel, search results,
 * Details, the trash and a public share page, finds no serious or critical violation (colour contrast first of all).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults } from 'axe-core';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFolder } from '../apps/server/src/files/files.service.js';
import { trashFiles } from '../apps/server/src/files/trash.service.js';
import { goneOrigin, addNew, listView, rowNames, sessionUserId, signUpInBrowser, startE2E, type E2E } from './harness.js';

// Evaluated through the DevTools protocol rather than added as a <script>: the page policy (CSP) rightly refuses inline
// scripts, and the harness fails a file whose pages had anything refused.
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

type Theme = 'light' | 'dark';

let e2e: E2E;
let gone: Awaited<ReturnType<typeof goneOrigin>>;
beforeAll(async () => {
  e2e = await startE2E();
  // A link origin that answers 404, so a cloud download fails and the transfer panel shows its failure colours.
  gone = await goneOrigin();
}, 60_000);
afterAll(async () => {
  gone?.close();
  await e2e?.close();
});

/** A page (and its context) whose remembered theme is set before the first paint, as index.html reads it. */
async function themedPage(theme: Theme, opts?: Parameters<E2E['newPage']>[0]) {
  const made = await e2e.newPage(opts);
  await made.context.addInitScript((t) => localStorage.setItem('haul.theme', t), theme);
  return made;
}

/** Waits until transitions and finite animations (dialogs fading in, menus sliding) are over; spinners loop forever. */
async function settle(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const finite = document.getAnimations().filter((a) => a.effect?.getComputedTiming().iterations !== Infinity);
    await Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
  });
}

/** Runs axe over the whole document and returns its serious and critical violations, one readable line per node. */
async function audit(page: Page, theme: Theme, screen: string): Promise<string[]> {
  await settle(page);
  expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const { axe } = window as unknown as { axe: { run: (c: Document, o: object) => Promise<AxeResults> } };
    const results = await axe.run(document, { resultTypes: ['violations'] });
    return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  });
  return violations.flatMap((v) =>
    v.nodes.map(
      (n) =>
        `[${theme}] ${screen}: ${v.id} (${v.impact}) ${JSON.stringify(n.target)}: ${(n.failureSummary ?? v.help).replace(/\s+/g, ' ')}`,
    ),
  );
}

describe('contrast and accessibility (axe-core)', () => {
  it.each<Theme>(['light', 'dark'])(
    'finds no serious or critical violation on the main screens, %s theme',
    async (theme) => {
      const found: string[] = [];

      // Signed out: the sign-in page.
      const { page } = await themedPage(theme);
      await page.goto('/drive/login');
      await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
      found.push(...(await audit(page, theme, 'sign-in')));

      // A forgotten password: the address, then the code step with a refused code (the error colours).
      await page.getByRole('link', { name: 'Forgot password?' }).click();
      // The sign-in page's own Email field stays until the page's code has loaded: fill the one on the reset page.
      await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
      await page.getByLabel('Email').fill('nobody@example.com');
      found.push(...(await audit(page, theme, 'forgot password')));
      await page.getByRole('button', { name: 'Send code' }).click();
      await page.getByLabel('6-digit code').fill('000000');
      await page.getByLabel('New password').fill('long enough password');
      await page.getByRole('button', { name: 'Set password and sign in' }).click();
      await page.getByRole('alert').waitFor();
      found.push(...(await audit(page, theme, 'forgot password (code refused)')));

      // All files, with a folder and a few files, in the list; then with a row selected.
      await signUpInBrowser(page);
      const userId = await sessionUserId(page);
      const trip = await createFolder(e2e.haul.ctx, userId, '', 'Trip');
      await e2e.seedFile(userId, trip.id, 'notes.txt', 'packing list: tent, stove');
      await e2e.seedFile(userId, trip.id, 'route.gpx', '<gpx/>');
      await e2e.seedFile(userId, '', 'budget.csv', 'month,amount\njan,12\n');
      await e2e.seedFile(userId, '', 'readme.md', '# Read me');
      const draft = await e2e.seedFile(userId, '', 'old draft.txt', 'not needed');
      await page.reload();
      await page.getByRole('gridcell', { name: 'readme.md' }).waitFor();
      found.push(...(await audit(page, theme, 'all files (grid)')));
      await listView(page);
      await expect.poll(() => rowNames(page)).toEqual(expect.arrayContaining(['Trip', 'budget.csv', 'readme.md', 'old draft.txt']));
      found.push(...(await audit(page, theme, 'all files (list)')));
      await page.getByRole('row', { name: 'readme.md' }).click();
      await expect.poll(() => page.getByRole('row', { name: 'readme.md' }).getAttribute('aria-selected')).toBe('true');
      found.push(...(await audit(page, theme, 'all files (a row selected)')));
      await page.getByRole('button', { name: 'Clear selection' }).click();

      // Change password, with a refusal shown.
      await page.goto('/drive/account/password');
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByRole('alert').waitFor();
      found.push(...(await audit(page, theme, 'change password')));
      await page.getByRole('link', { name: 'All files' }).click();
      await listView(page);

      // "+ New" open.
      await page.getByRole('button', { name: 'New', exact: true }).click();
      await page.getByRole('menuitem', { name: 'Cloud download' }).waitFor();
      found.push(...(await audit(page, theme, '"+ New" menu')));
      await page.keyboard.press('Escape');

      // The share dialog: the choice of link, then the link made.
      // Share is on the selection bar on a desktop (the context menu has it on phones only, seed 000 §2).
      await page.getByRole('row', { name: 'Trip' }).click();
      await page.getByRole('toolbar', { name: 'Selection' }).getByRole('button', { name: 'Share', exact: true }).click();
      await page.getByRole('radio', { name: 'People with the link and the pass code' }).waitFor();
      found.push(...(await audit(page, theme, 'share dialog')));
      await page.getByRole('button', { name: 'Create link' }).click();
      const link = await page.getByLabel('Link', { exact: true }).inputValue();
      const code = (await page.getByTestId('pass-code').textContent())!;
      found.push(...(await audit(page, theme, 'share dialog (link made)')));
      await page.keyboard.press('Escape');
      await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
      await page.getByRole('button', { name: 'Clear selection' }).click();

      // A cloud download that fails: the dialog, then the transfer panel in its failure colours.
      await addNew(page, 'Cloud download');
      await page.getByLabel('Links').fill(gone.url);
      found.push(...(await audit(page, theme, 'cloud download dialog')));
      await page.getByRole('button', { name: 'Download', exact: true }).click();
      const head = page.locator('.transfer-head');
      await expect.poll(() => head.textContent(), { timeout: 30_000 }).toContain('1 transfer failed');
      if ((await head.getAttribute('aria-expanded')) !== 'true') await head.click();
      await page.getByRole('button', { name: 'Remove: gone.iso' }).waitFor();
      found.push(...(await audit(page, theme, 'transfer panel (failed cloud download)')));

      // Search results, each with its folder, and Details with the path to the item.
      await page.goto('/drive/all?action=search&name=notes');
      await listView(page);
      const notes = page.getByRole('row', { name: 'notes.txt' });
      await expect.poll(() => notes.getByRole('link').textContent()).toBe('Trip');
      found.push(...(await audit(page, theme, 'search results')));
      await notes.click({ button: 'right' });
      await page.getByRole('menuitem', { name: 'Details' }).click();
      await page.getByRole('navigation', { name: 'Location' }).getByRole('link', { name: 'Trip' }).waitFor();
      found.push(...(await audit(page, theme, 'details')));
      await page.keyboard.press('Escape');

      // The trash, with something in it.
      await trashFiles(e2e.haul.ctx, userId, [draft.id]);
      await page.getByRole('link', { name: 'Trash' }).click();
      await expect.poll(() => rowNames(page)).toEqual(['old draft.txt']);
      found.push(...(await audit(page, theme, 'trash')));

      // The public page of the shared folder, signed out: the pass code, then the folder.
      const { page: visitor } = await themedPage(theme);
      await visitor.goto(link);
      await visitor.getByLabel('Pass code').waitFor();
      found.push(...(await audit(visitor, theme, 'public share (pass code)')));
      await visitor.getByLabel('Pass code').fill(code);
      await visitor.getByRole('button', { name: 'Open' }).click();
      await visitor.getByRole('heading', { name: 'Trip' }).waitFor();
      await visitor.getByRole('button', { name: 'Trip', exact: true }).click();
      await visitor.getByRole('button', { name: 'notes.txt', exact: true }).waitFor();
      found.push(...(await audit(visitor, theme, 'public share (folder)')));

      expect(found, `axe found serious or critical violations:\n${found.join('\n')}`).toEqual([]);
    },
    180_000,
  );
});
