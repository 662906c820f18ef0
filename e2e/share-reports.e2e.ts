/**
 * Reports of a share, from the visitor's "Report" to the operator's queue: a signed-out visitor on a phone opens a
 * link with a pass code and reports the share; a signed-in visitor reports its one file; the operator finds both in
 * the console (the share has two open reports), takes the share down with a reason, which closes both; a report sent
 * after that is refused in the dialog (what was typed stays), the visitor's reload says the share is not available,
 * and the reports are under Resolved. Before that, the operator looks at the reported share's file without its pass
 * code. A report of one file may mark only that file not shareable: the visitor no
 * longer sees it, the owner's security log says why, and the operator gives it back from the Resolved tab.
 * Screenshots at 1366 and 390 px go to /tmp.
 */
import { join } from 'node:path';
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../apps/server/src/accounts/accounts.service.js';
import { fitsWidth, PASSWORD, shareAsOwner, signInBrowser, startE2E, type E2E } from './harness.js';

const SHOTS = process.env.HAUL_SCREENSHOT_DIR ?? '/tmp';
const tag = Date.now().toString(36);
const OPERATOR = `mod-${tag}@example.com`;
const OWNER = `ana-${tag}@example.com`;
const REPORTER = `rui-${tag}@example.com`;
const FILE = 'holiday-film.txt';
const CODE = 'KITE';
const MESSAGE = 'This is my film, shared without my consent.';
const REASON = 'Rights holder’s complaint: not theirs to share.';
const WIDE = { viewport: { width: 1366, height: 900 } };
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

let e2e: E2E;
let ownerId: string;
let fileId: string;
beforeAll(async () => {
  e2e = await startE2E();
  await createUser(e2e.haul.ctx, { email: OPERATOR, password: PASSWORD, name: 'Mo', isAdmin: true });
  await createUser(e2e.haul.ctx, { email: REPORTER, password: PASSWORD, name: 'Rui' });
  ownerId = (await createUser(e2e.haul.ctx, { email: OWNER, password: PASSWORD, name: 'Ana' })).id;
  fileId = (await e2e.seedFile(ownerId, '', FILE, 'not really a film')).id;
}, 60_000);
afterAll(() => e2e?.close());

/** Opens the share link and enters its pass code; waits for the file. */
async function openWithCode(page: Page, shareId: string) {
  await page.goto(`/s/${shareId}`);
  await page.getByLabel('Pass code').fill(CODE);
  await page.getByRole('button', { name: 'Open' }).click();
  await page.getByRole('heading', { name: FILE }).waitFor();
}

/** The JSON body of the next report the page sends, once it is answered. */
function nextReport(page: Page): Promise<Record<string, unknown>> {
  return page
    .waitForRequest((r: Request) => r.method() === 'POST' && new URL(r.url()).pathname === '/drive/v1/share/report')
    .then((r) => r.postDataJSON() as Record<string, unknown>);
}

/** A toast with these words. */
const toastWith = (page: Page, text: string) => page.locator('[data-sonner-toast]').filter({ hasText: text });

describe('reporting a share', () => {
  it('goes from the visitor’s dialog to the operator’s queue, whose hold closes every report of the share', async () => {
    const { page: owner } = await e2e.newPage(WIDE);
    await signInBrowser(owner, OWNER);
    const shareId = await shareAsOwner(owner, [fileId], CODE);

    // A visitor who is not signed in, on a phone: the pass code, then "Report this share" under the file.
    const { page: visitor } = await e2e.newPage(PHONE);
    await openWithCode(visitor, shareId);
    const reportShare = visitor.getByRole('button', { name: 'Report this share' });
    expect(await reportShare.isVisible()).toBe(true);
    expect(await fitsWidth(visitor)).toBe(true);
    await visitor.screenshot({ path: join(SHOTS, 'haul-share-page-report-390.png'), fullPage: true });
    await reportShare.click();
    const dialog = visitor.getByRole('dialog', { name: 'Report this share' });
    // A reason is asked for before anything is sent.
    await dialog.getByRole('button', { name: 'Send report' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'Pick a reason.' }).waitFor();
    await dialog.getByRole('radio', { name: 'Copyright infringement' }).check();
    await dialog.getByLabel('Anything else they should know (optional)').fill(MESSAGE);
    expect(await dialog.getByText(`${MESSAGE.length} / 1,000`).count()).toBe(1);
    expect(await fitsWidth(visitor)).toBe(true);
    await visitor.screenshot({ path: join(SHOTS, 'haul-share-report-390.png') });
    const first = nextReport(visitor);
    await dialog.getByRole('button', { name: 'Send report' }).click();
    // The token the pass code earned goes with it; no item, as the share as a whole was reported.
    const sent = await first;
    expect(sent).toMatchObject({ share_id: shareId, reason: 'copyright', message: MESSAGE });
    expect(typeof sent.pass_code_token).toBe('string');
    expect(sent.file_id).toBeUndefined();
    await toastWith(visitor, 'The operator will look at it').waitFor();
    await dialog.waitFor({ state: 'detached' });

    // A signed-in visitor reports the file itself.
    const { page: member } = await e2e.newPage(WIDE);
    await signInBrowser(member, REPORTER);
    await openWithCode(member, shareId);
    await member.getByRole('button', { name: 'Report this file' }).click();
    const itemDialog = member.getByRole('dialog', { name: `Report “${FILE}”` });
    await itemDialog.getByRole('radio', { name: 'Spam or scam' }).check();
    const second = nextReport(member);
    await itemDialog.getByRole('button', { name: 'Send report' }).click();
    expect(await second).toMatchObject({ share_id: shareId, reason: 'spam', file_id: fileId });
    await toastWith(member, 'The operator will look at it').waitFor();

    // The operator: the console's Reports tab says two wait.
    const { page: ops } = await e2e.newPage(WIDE);
    await signInBrowser(ops, OPERATOR);
    await ops.goto('/drive/admin');
    const tab = ops.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'Reports (2 open)' });
    await tab.click();
    await ops.waitForURL('**/drive/admin/reports');
    await ops.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
    expect(await ops.getByRole('tab', { name: 'Open' }).getAttribute('aria-selected')).toBe('true');
    const open = ops.getByRole('list', { name: 'Reports: Open' });
    await expect.poll(() => open.getByRole('article').count()).toBe(2);
    const anonymous = open.getByRole('article').filter({ hasText: 'A visitor who was not signed in' });
    const signedIn = open.getByRole('article').filter({ hasText: REPORTER });
    for (const card of [anonymous, signedIn]) {
      expect(await card.getByRole('heading', { name: FILE }).count()).toBe(1);
      expect(await card.textContent()).toContain('2 open reports of this share');
      expect(await card.getByRole('link', { name: OWNER }).getAttribute('href')).toBe(`/drive/admin/users/${ownerId}`);
      expect(await card.getByRole('link', { name: FILE }).getAttribute('href')).toBe(`/drive/admin/shares?id=${shareId}`);
      expect(await card.getByText('Available', { exact: true }).count()).toBe(1);
    }
    expect(await anonymous.textContent()).toContain('Copyright infringement');
    expect(await anonymous.textContent()).toContain(MESSAGE);
    expect(await signedIn.textContent()).toContain('Spam or scam');
    expect(await signedIn.getByText('No message.').count()).toBe(1);
    // The item reported is named on the file's report only.
    expect(await signedIn.locator('dt', { hasText: 'Item' }).count()).toBe(1);
    expect(await anonymous.locator('dt', { hasText: 'Item' }).count()).toBe(0);
    await ops.screenshot({ path: join(SHOTS, 'haul-admin-reports-1366.png'), fullPage: true });

    // The operator looks at what was reported: the pass code does not stand in the way, and the look is on record.
    await anonymous.getByRole('button', { name: 'Look at the files' }).click();
    const shared = anonymous.getByRole('region', { name: "The reported share's files" });
    await shared.getByText('This share asks its visitors for a pass code; the console shows it without one.').waitFor();
    await shared.getByRole('button', { name: FILE }).click();
    const download = shared.getByRole('link', { name: `Download ${FILE}` });
    const bytes = await ops.evaluate(async (href) => (await fetch(href)).text(), (await download.getAttribute('href'))!);
    expect(bytes).toBe('not really a film');
    await anonymous.getByRole('button', { name: 'Hide the files' }).click();
    // The same queue on a phone: cards, nothing wider than the screen.
    const { page: opsPhone } = await e2e.newPage(PHONE);
    await signInBrowser(opsPhone, OPERATOR);
    await opsPhone.goto('/drive/admin/reports');
    await expect.poll(() => opsPhone.getByRole('article').count()).toBe(2);
    expect(await fitsWidth(opsPhone)).toBe(true);
    await opsPhone.screenshot({ path: join(SHOTS, 'haul-admin-reports-390.png'), fullPage: true });

    // The visitor has the dialog open again when the operator acts.
    await reportShare.click();
    await dialog.getByRole('radio', { name: 'Illegal content' }).check();
    await dialog.getByLabel('Anything else they should know (optional)').fill('And another thing.');

    // Take the share down from the anonymous report: a hold and a reason are asked for, then both reports close.
    const handle = anonymous.getByRole('form', { name: `Handle the report of “${FILE}”` });
    await handle.getByRole('button', { name: 'Hold share…' }).click();
    await handle.getByRole('button', { name: 'Hold and resolve' }).click();
    await handle.getByRole('alert').filter({ hasText: 'Pick how the share is held.' }).waitFor();
    await handle.getByRole('radio', { name: 'Taken down' }).check();
    await handle.getByRole('button', { name: 'Hold and resolve' }).click();
    await handle.getByRole('alert').filter({ hasText: 'Write the reason' }).waitFor();
    await handle.getByLabel('Reason', { exact: true }).fill(REASON);
    await handle.getByLabel('Note (optional)').fill('Checked the film: it is theirs.');
    await handle.getByRole('button', { name: 'Hold and resolve' }).click();
    await toastWith(ops, '2 reports closed').waitFor();
    await ops.getByText('No open reports.', { exact: false }).waitFor();
    await expect
      .poll(() => ops.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'Reports', exact: true }).count())
      .toBe(1);

    // The dialog still open on the phone is refused in words; what was typed stays. A reload says the share is gone.
    await dialog.getByRole('button', { name: 'Send report' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'This share is not available.' }).waitFor();
    expect(await dialog.getByLabel('Anything else they should know (optional)').inputValue()).toBe('And another thing.');
    expect(await dialog.getByRole('radio', { name: 'Illegal content' }).isChecked()).toBe(true);
    await visitor.reload();
    await visitor.getByText('This share is not available.').waitFor();
    expect(await visitor.getByRole('button', { name: 'Report this share' }).count()).toBe(0);

    // Resolved, by keyboard from the Open tab: both reports, the share taken down, the operator's note; Reopen offered.
    await ops.getByRole('tab', { name: 'Open' }).focus();
    await ops.keyboard.press('ArrowRight');
    await ops.waitForURL('**/drive/admin/reports?status=resolved');
    await expect.poll(() => ops.getByRole('tab', { name: 'Resolved' }).getAttribute('aria-selected')).toBe('true');
    expect(await ops.evaluate(() => document.activeElement?.textContent)).toBe('Resolved');
    const resolved = ops.getByRole('list', { name: 'Reports: Resolved' });
    await expect.poll(() => resolved.getByRole('article').count()).toBe(2);
    for (const card of await resolved.getByRole('article').all()) {
      expect(await card.getByText('Taken down', { exact: true }).count()).toBe(1);
      expect(await card.textContent()).toContain('Checked the film: it is theirs.');
      expect(await card.getByRole('button', { name: 'Reopen' }).count()).toBe(1);
      expect(await card.textContent()).not.toContain('open reports of this share');
    }
    await ops.screenshot({ path: join(SHOTS, 'haul-admin-reports-resolved-1366.png'), fullPage: true });

    // The audit log names the handling.
    await ops.goto('/drive/admin/audit');
    const handled = ops.getByRole('list', { name: 'Audit log' }).getByRole('listitem').filter({ hasText: 'Report handled' });
    await handled.first().waitFor();
    expect(await handled.first().getByRole('link', { name: OWNER }).count()).toBe(1);
  });

  it('marks only the reported file not shareable, then lets it be shared again', async () => {
    const NAME = `poster-${tag}.txt`;
    const posterId = (await e2e.seedFile(ownerId, '', NAME, 'a poster')).id;
    const { page: owner } = await e2e.newPage(WIDE);
    await signInBrowser(owner, OWNER);
    const shareId = await shareAsOwner(owner, [posterId]);

    const { page: visitor } = await e2e.newPage(PHONE);
    await visitor.goto(`/s/${shareId}`);
    await visitor.getByRole('heading', { name: NAME }).waitFor();
    await visitor.getByRole('button', { name: 'Report this file' }).click();
    const dialog = visitor.getByRole('dialog', { name: `Report “${NAME}”` });
    await dialog.getByRole('radio', { name: 'Copyright infringement' }).check();
    await dialog.getByRole('button', { name: 'Send report' }).click();
    await toastWith(visitor, 'The operator will look at it').waitFor();

    const { page: ops } = await e2e.newPage(WIDE);
    await signInBrowser(ops, OPERATOR);
    await ops.goto('/drive/admin/reports');
    const card = ops.getByRole('list', { name: 'Reports: Open' }).getByRole('article').filter({ hasText: NAME });
    await card.waitFor();
    const handle = card.getByRole('form', { name: `Handle the report of “${NAME}”` });
    await handle.getByRole('button', { name: 'Hold share…' }).click();
    await handle.getByRole('radio', { name: `Only the file “${NAME}”: not shareable` }).check();
    await handle.getByLabel('Reason', { exact: true }).fill(REASON);
    await handle.getByRole('button', { name: 'Hold and resolve' }).click();
    await toastWith(ops, '1 report closed').waitFor();

    // The share itself is not held, but its only file is: the visitor is told it cannot be shown; the owner's log says why.
    await visitor.reload();
    await expect.poll(() => visitor.getByRole('heading', { name: NAME }).count()).toBe(0);
    expect(await visitor.getByRole('button', { name: 'Report this file' }).count()).toBe(0);
    await owner.goto('/drive/account/security-log');
    await owner.getByRole('list', { name: 'Security log' }).getByText('File marked by an operator').first().waitFor();
    expect(await owner.getByRole('list', { name: 'Security log' }).textContent()).toContain(REASON);

    // Under Resolved the file is marked; one click gives it back, and the visitor sees it again.
    await ops.goto('/drive/admin/reports?status=resolved');
    const done = ops.getByRole('list', { name: 'Reports: Resolved' }).getByRole('article').filter({ hasText: NAME });
    await done.getByText('Not shareable', { exact: true }).waitFor();
    await done.getByRole('button', { name: `Let “${NAME}” be shared again` }).click();
    await toastWith(ops, `“${NAME}” can be shared again.`).waitFor();
    await expect.poll(() => done.getByText('Not shareable', { exact: true }).count()).toBe(0);
    await visitor.reload();
    await visitor.getByRole('heading', { name: NAME }).waitFor();
  });
});
