/**
 * The operator's console in the browser: an operator finds an account by the start of its address, raises its storage
 * (the person sees it after a reload), disables and enables it (the person is signed out at once), and reads the
 * change in the audit log with themselves as actor; the person reads it in their own security log. On the settings
 * page the operator closes sign-up (a visitor is refused at once) and gives each value back. Someone who is not
 * an operator has no sidebar entry and gets the 403 page. The System page shows storage, the queues (a failed cloud
 * download retried from the page, audited), this process, the configuration with its secrets masked, and the usage
 * chart, and fits a phone. The operator creates an account from the accounts page, grants it premium, mails it a
 * password-reset code and deletes it. Screenshots at 1366 and 390 px go to /tmp.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../apps/server/src/accounts/accounts.service.js';
import { createOfflineTasks } from '../apps/server/src/offline/offline.service.js';
import { countEvents } from '../apps/server/src/stats/stat-counts.js';
import { goneOrigin, PASSWORD, startE2E, type E2E, signInBrowser, fitsWidth } from './harness.js';

const SHOTS = process.env.HAUL_SCREENSHOT_DIR ?? '/tmp';
const tag = Date.now().toString(36);
const OPERATOR = `ops-${tag}@example.com`;
const PERSON = `ann-${tag}@example.com`;
const WIDE = { viewport: { width: 1366, height: 900 } };
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
  await createUser(e2e.haul.ctx, { email: OPERATOR, password: PASSWORD, name: 'Olga', isAdmin: true });
  await createUser(e2e.haul.ctx, { email: PERSON, password: PASSWORD, name: 'Ann' });
  // Neighbours the search must leave out: another prefix, and one that only contains the person's.
  await createUser(e2e.haul.ctx, { email: `bob-${tag}@example.com`, password: PASSWORD, name: 'Bob' });
  await createUser(e2e.haul.ctx, { email: `joann-${tag}@example.com`, password: PASSWORD, name: 'Jo' });
}, 60_000);
afterAll(() => e2e?.close());

const signIn = signInBrowser;


/** The person's storage limit as their storage page words it ("0 B of 10.0 GB used"). */
async function storageWords(page: Page): Promise<string> {
  await page.goto('/drive/space-management');
  const words = page.locator('[data-quota="storage"] .quota-head span');
  await words.waitFor();
  return (await words.textContent()) ?? '';
}

describe('the operator’s console', () => {
  it('finds an account by address, changes it, and the audit log and the person’s security log say so', async () => {
    const { page: person } = await e2e.newPage(WIDE);
    await signIn(person, PERSON);
    expect(await storageWords(person)).toContain('of 10.0 GB');

    const { page: ops } = await e2e.newPage(WIDE);
    await signIn(ops, OPERATOR);
    await ops.getByRole('navigation', { name: 'Drive' }).getByRole('link', { name: 'Administration' }).click();
    await ops.waitForURL('**/drive/admin');
    await ops.getByRole('table', { name: 'Accounts' }).waitFor();

    // The start of an address: the person, not the one whose address only contains it.
    await ops.getByLabel('Search by e-mail address').fill(`ann-${tag}`);
    await ops.waitForURL(`**/drive/admin?q=ann-${tag}`);
    const rows = ops.getByRole('table', { name: 'Accounts' }).getByRole('row');
    await expect.poll(() => rows.count()).toBe(2);
    const row = rows.nth(1);
    expect(await row.textContent()).toContain('Ann');
    expect(await row.textContent()).toContain('0 B of 10 GB');
    expect(await row.textContent()).toContain('Member');
    await ops.screenshot({ path: join(SHOTS, 'haul-admin-accounts-1366.png'), fullPage: true });
    await row.getByRole('link', { name: PERSON }).click();
    await ops.getByRole('heading', { name: PERSON, level: 1 }).waitFor();

    // The limit in GB: a wrong size is said at the field, then 50 GB is set and shown at once.
    const limit = ops.getByLabel('Storage limit (GB)');
    expect(await limit.inputValue()).toBe('10');
    await limit.fill('lots');
    await ops.getByRole('button', { name: 'Set limit' }).click();
    await ops.getByRole('alert').filter({ hasText: 'Enter a size in GB' }).waitFor();
    expect(await limit.getAttribute('aria-invalid')).toBe('true');
    await limit.fill('50');
    await ops.getByRole('button', { name: 'Set limit' }).click();
    const usage = ops.getByRole('region', { name: 'What it uses' });
    await usage.getByText('0 B of 50 GB').waitFor();
    expect(await ops.getByLabel('Storage limit (GB)').inputValue()).toBe('50');
    await ops.screenshot({ path: join(SHOTS, 'haul-admin-account-1366.png'), fullPage: true });

    // The person sees the new limit after a reload.
    expect(await storageWords(person)).toContain('of 50.0 GB');

    // Disabling asks first, saying it signs them out everywhere; the person is out at once.
    await ops.getByRole('button', { name: 'Disable account' }).click();
    const dialog = ops.getByRole('dialog', { name: `Disable ${PERSON}?` });
    expect(await dialog.textContent()).toContain('signed out everywhere');
    await dialog.getByRole('button', { name: 'Disable account' }).click();
    await ops.getByRole('region', { name: 'Account', exact: true }).getByText('Disabled', { exact: true }).waitFor();
    await ops.getByRole('button', { name: 'Enable account' }).waitFor();
    await person.reload();
    await person.waitForURL('**/drive/login**');

    await ops.getByRole('button', { name: 'Enable account' }).click();
    await ops.getByRole('dialog', { name: `Enable ${PERSON}?` }).getByRole('button', { name: 'Enable account' }).click();
    await ops.getByRole('button', { name: 'Disable account' }).waitFor();
    expect(await ops.getByRole('region', { name: 'Account', exact: true }).textContent()).toContain('Active');

    // The account's audit log: the storage change with the operator as actor, and both switches.
    await ops.getByRole('link', { name: 'Audit log of this account' }).click();
    await ops.waitForURL('**/drive/admin/audit?user_id=*');
    const log = ops.getByRole('list', { name: 'Audit log' });
    const storage = log.getByRole('listitem').filter({ hasText: 'Storage limit: 10 GB → 50 GB' });
    await storage.first().waitFor();
    expect(await storage.first().textContent()).toContain('Account changed by an operator');
    expect(await storage.first().textContent()).toContain(`By ${OPERATOR}`);
    await log.getByText('Disabled: no → yes').waitFor();
    await log.getByText('Disabled: yes → no').waitFor();
    expect(await ops.getByText(`Events of ${PERSON}`).count()).toBe(1);
    // Filtered by action: the person's own sign-in leaves, the operator's changes stay.
    expect(await log.getByText('Signed in from a new network').count()).toBeGreaterThan(0);
    await ops.getByLabel('Action', { exact: true }).selectOption({ label: 'Account changed by an operator' });
    await expect.poll(() => log.getByText('Signed in from a new network').count()).toBe(0);
    // The filtered page may still be on its way when the old lines have gone.
    await expect.poll(() => log.getByText('Storage limit: 10 GB → 50 GB').count()).toBe(1);
    await ops.screenshot({ path: join(SHOTS, 'haul-admin-audit-1366.png'), fullPage: true });

    // The operator's own account offers nothing that would lock them out.
    await ops.goto('/drive/admin');
    await ops.getByLabel('Search by e-mail address').fill(`ops-${tag}`);
    await ops.getByRole('link', { name: OPERATOR }).click();
    await ops.getByText('This is your own account').waitFor();
    expect(await ops.getByRole('button', { name: 'Disable account' }).count()).toBe(0);
    expect(await ops.getByRole('button', { name: 'Remove operator' }).count()).toBe(0);

    // The person's security log says the same, the operator named by address.
    await signIn(person, PERSON);
    await person.goto('/drive/account/security-log');
    const own = person.getByRole('list', { name: 'Security log' });
    const change = own.getByRole('listitem').filter({ hasText: 'Storage limit: 10 GB → 50 GB' });
    await change.first().waitFor();
    expect(await change.first().textContent()).toContain(`By an operator (${OPERATOR})`);
    await own.getByText('Signed in from a new network').first().waitFor();
    await person.screenshot({ path: join(SHOTS, 'haul-security-log-1366.png'), fullPage: true });

    // Not an operator: no sidebar entry, and the address answers with the 403 page.
    await person.goto('/drive/all');
    await person.getByRole('navigation', { name: 'Drive' }).getByRole('link', { name: 'All files' }).waitFor();
    expect(await person.getByRole('link', { name: 'Administration' }).count()).toBe(0);
    await person.goto('/drive/admin');
    await person.waitForURL('**/drive/403');
    await person.getByRole('heading', { name: 'Access denied' }).waitFor();
  });

  it('closes sign-up from the settings page: a visitor is refused at once, and the server value comes back with one click', async () => {
    const { page: ops } = await e2e.newPage(WIDE);
    await signIn(ops, OPERATOR);
    await ops.goto('/drive/admin');
    await ops.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'Settings' }).click();
    await ops.waitForURL('**/drive/admin/settings');
    const who = ops.getByLabel('Who may create an account');
    expect(await who.inputValue()).toBe('open');
    await who.selectOption('closed');
    // The site's name: required, then the sign-in page, the logo and the browser tab say it.
    await ops.getByLabel('Site name').fill('  ');
    await ops.getByRole('button', { name: 'Save settings' }).click();
    await ops.getByRole('alert').filter({ hasText: 'Write a name' }).waitFor();
    expect(e2e.haul.ctx.config.registration).toBe('open');
    await ops.getByLabel('Site name').fill('Family drive');
    await ops.getByLabel('Storage of a new account').fill('2.5');
    await ops.getByLabel('Days the trash keeps files').fill('0');
    await ops.getByRole('button', { name: 'Save settings' }).click();
    // A bad field stops the save and says why; nothing is sent.
    await expect.poll(() => ops.getByRole('alert').first().textContent()).toContain('whole number');
    expect(e2e.haul.ctx.config.registration).toBe('open');
    await ops.getByLabel('Days the trash keeps files').fill('14');
    await ops.getByRole('button', { name: 'Save settings' }).click();
    await ops.getByText("The server's value: Anyone may sign up.").waitFor();
    await ops.screenshot({ path: join(SHOTS, 'haul-admin-settings-1366.png'), fullPage: true });

    const { page: visitor } = await e2e.newPage(WIDE);
    await visitor.goto('/drive/login?mode=signup');
    await visitor.getByLabel('Email').fill(`late-${tag}@example.com`);
    await visitor.getByLabel('Password').fill(PASSWORD);
    await visitor.getByRole('button', { name: 'Create account' }).click();
    await visitor.getByText('Registration is closed on this server.').waitFor();
    await visitor.goto('/drive/login');
    await visitor.getByRole('heading', { name: 'Sign in to Family drive', level: 1 }).waitFor();
    await expect.poll(() => visitor.title()).toBe('Family drive');
    expect(await visitor.locator('.logo').first().textContent()).toBe('Family drive');

    // The audit log names the changes, sizes as sizes.
    await ops.goto('/drive/admin/audit?event=admin.settings.changed');
    await expect.poll(() => ops.locator('main').textContent()).toContain('Storage of a new account: 10 GB → 2.5 GB');

    await ops.goto('/drive/admin/settings');
    for (const name of ['Site name', 'Who may create an account', 'Storage of a new account', 'Days the trash keeps files']) {
      await ops.locator('.admin-setting', { has: ops.getByLabel(name, { exact: true }) }).getByRole('button', { name: "Use the server's value" }).click();
      await expect.poll(() => ops.locator('.admin-setting', { has: ops.getByLabel(name, { exact: true }) }).getByRole('button').count()).toBe(0);
    }
    expect(e2e.haul.ctx.config.registration).toBe('open');
    expect(e2e.haul.ctx.config.siteName).toBe('Haul');
    expect(e2e.haul.ctx.config.defaultQuotaBytes).toBe(10 * 1024 ** 3);
  });

  it('shows the system’s health: storage, a failed download retried from the page, this process, masked configuration, the chart', async () => {
    const { ctx } = e2e.haul;
    const operator = await ctx.db.selectFrom('users').select('id').where('email', '=', OPERATOR).executeTakeFirstOrThrow();
    const gone = await goneOrigin();
    const secret = `E2E-SECRET-${tag}`;
    const before = ctx.config.torrentDaemonPassword;
    ctx.config.torrentDaemonPassword = secret;
    try {
      const [task] = await createOfflineTasks(ctx, operator.id, { text: gone.url, parentId: '' });
      await expect.poll(async () => (await ctx.db.selectFrom('tasks').select('phase').where('id', '=', task!.id).executeTakeFirst())?.phase, { timeout: 20_000 }).toBe('PHASE_TYPE_ERROR');
      await countEvents(ctx.db, [{ event: 'play_limited_show', count: 3 }], Date.now(), ctx.config.timeZone);

      const { page } = await e2e.newPage(WIDE);
      await signIn(page, OPERATOR);
      await page.goto('/drive/admin/system');
      const storage = page.getByTestId('health-storage');
      await storage.getByText('Disk').waitFor();
      expect(await page.getByTestId('health-disk').textContent()).toMatch(/free of/);
      const queues = page.getByTestId('health-queues');
      await expect.poll(async () => (await page.getByTestId('health-queue-offline').textContent()) ?? '').toMatch(/Cloud downloads\d+\d+[1-9]/);
      const job = queues.getByTestId('health-job').filter({ hasText: 'gone.iso' });
      await job.getByText('404', { exact: false }).waitFor();
      await page.screenshot({ path: join(SHOTS, 'haul-admin-health-1366.png'), fullPage: true });
      await job.getByRole('button', { name: /^Retry/ }).click();
      await page.getByText('Back in the queue').waitFor();
      // The failed task made anew (a new id), and the retry in the audit log with the operator as actor.
      expect(await ctx.db.selectFrom('tasks').select('id').where('id', '=', task!.id).executeTakeFirst()).toBeUndefined();
      const audit = await ctx.db.selectFrom('audit_events').selectAll().where('action', '=', 'admin.job.retried').execute();
      expect(audit.map((a) => [a.actor_id, JSON.parse(a.details).job])).toEqual([[operator.id, task!.id]]);

      const me = page.getByTestId('health-process').filter({ hasText: `pid ${process.pid}` });
      await me.getByText('Alive').waitFor();
      const config = page.getByTestId('health-config');
      await config.getByLabel('Filter').fill('torrentDaemonPassword');
      await config.getByText('set (hidden)').waitFor();
      expect(await page.content()).not.toContain(secret);
      const chart = page.getByTestId('health-chart');
      await chart.waitFor();
      expect(await chart.locator('rect[data-count="3"]').count()).toBe(1);

      const { page: phone } = await e2e.newPage(PHONE);
      await signIn(phone, OPERATOR);
      await phone.goto('/drive/admin/system');
      await phone.getByTestId('health-process').first().waitFor();
      await phone.getByTestId('health-chart').waitFor();
      expect(await fitsWidth(phone)).toBe(true);
      await phone.screenshot({ path: join(SHOTS, 'haul-admin-health-390.png'), fullPage: true });
    } finally {
      ctx.config.torrentDaemonPassword = before;
      gone.close();
    }
  });

  it('creates an account, grants it premium, mails it a reset code and deletes it', async () => {
    const NEWCOMER = `newt-${tag}@example.com`;
    const { page: ops } = await e2e.newPage(WIDE);
    await signIn(ops, OPERATOR);
    await ops.goto('/drive/admin');
    await ops.getByRole('button', { name: 'New account' }).click();
    const form = ops.getByRole('form', { name: 'New account' });
    await form.getByLabel('E-mail address').fill(NEWCOMER);
    await form.getByLabel('First password').fill('short');
    await form.getByRole('button', { name: 'Create account' }).click();
    await form.getByRole('alert').filter({ hasText: 'The password must be 8 to' }).waitFor();
    await form.getByLabel('First password').fill(PASSWORD);
    await form.getByLabel('Name (optional)').fill('Newt');
    await form.getByRole('button', { name: 'Create account' }).click();
    await ops.getByRole('heading', { name: NEWCOMER, level: 1 }).waitFor();

    // Premium for 30 days: the form's spec as sent, then the live grant and the account's premium date.
    const grant = ops.getByRole('region', { name: 'Grant a plan' });
    expect(await grant.getByText('Grants premium:30d').count()).toBe(1);
    await grant.getByRole('button', { name: 'Grant', exact: true }).click();
    await ops.getByText(`Granted premium:30d to ${NEWCOMER}.`).waitFor();
    await grant.getByText('Premium until').waitFor();
    await grant.getByRole('list', { name: 'Grants that count' }).getByRole('listitem').filter({ hasText: 'Premium' }).waitFor();
    await expect.poll(async () => ops.getByRole('region', { name: 'Account', exact: true }).textContent()).not.toContain('No premium');
    await ops.screenshot({ path: join(SHOTS, 'haul-admin-account-grant-1366.png'), fullPage: true });

    // The reset code goes to the person's address (the outbox here), and the toast says where.
    await ops.getByRole('button', { name: 'Send password reset' }).click();
    await ops.getByRole('dialog', { name: `Send ${NEWCOMER} a password-reset code?` }).getByRole('button', { name: 'Send code' }).click();
    await ops.getByText(`Password-reset code sent to ${NEWCOMER}.`).waitFor();
    const outbox = () => e2e.haul.ctx.db.selectFrom('mail_outbox').select(['subject', 'text_body']).where('to_address', '=', NEWCOMER).execute();
    await expect.poll(async () => (await outbox()).map((m) => m.subject)).toEqual(['Reset your Haul password']);

    // The person, signed out in a browser of their own, opens the mail's link: only the code and a new password.
    const mail = (await outbox())[0]!.text_body;
    const link = /^http\S+\/drive\/forget-password\?\S+$/m.exec(mail)![0];
    const { page: person } = await e2e.newPage(PHONE);
    await person.goto(link);
    await person.getByText(`Type the code from the e-mail sent to ${NEWCOMER}`).waitFor();
    await person.getByLabel('6-digit code').fill(/^ {4}(\d{6})$/m.exec(mail)![1]!);
    await person.getByLabel('New password').fill('a new password 2');
    await person.getByRole('button', { name: 'Set password and sign in' }).click();
    await person.waitForURL('**/drive/**');
    await person.getByRole('button', { name: /^(List view|Grid view)$/ }).first().waitFor();
    await person.close();

    // Deleting names the address and what goes, then the list no longer has it.
    await ops.getByRole('button', { name: 'Delete account' }).click();
    const confirm = ops.getByRole('dialog', { name: `Delete ${NEWCOMER}?` });
    expect(await confirm.textContent()).toContain('0 files, 0 share links and 0 running tasks');
    await confirm.getByRole('button', { name: 'Delete account' }).click();
    await ops.waitForURL('**/drive/admin');
    await ops.getByText(`Account ${NEWCOMER} deleted.`).waitFor();
    await ops.getByLabel('Search by e-mail address').fill(`newt-${tag}`);
    await ops.waitForURL(`**/drive/admin?q=newt-${tag}`);
    await ops.getByText("No account's address starts with").waitFor();
    expect(await ops.getByRole('link', { name: NEWCOMER }).count()).toBe(0);
    const signin = await e2e.haul.app.inject({ method: 'POST', url: '/v1/auth/signin', payload: { username: NEWCOMER, password: PASSWORD } });
    expect(signin.statusCode).toBe(400);
  });

  it('fits a phone: the accounts as cards, an account, the log', async () => {
    const { page } = await e2e.newPage(PHONE);
    await signIn(page, OPERATOR);
    await page.goto('/drive/admin');
    await page.getByRole('table', { name: 'Accounts' }).waitFor();
    expect(await fitsWidth(page)).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'haul-admin-accounts-390.png'), fullPage: true });
    await page.getByRole('link', { name: PERSON, exact: true }).click();
    await page.getByRole('heading', { name: PERSON, level: 1 }).waitFor();
    await page.getByLabel('Storage limit (GB)').waitFor();
    expect(await fitsWidth(page)).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'haul-admin-account-390.png'), fullPage: true });
    await page.getByRole('link', { name: 'Audit log of this account' }).click();
    await page.getByRole('list', { name: 'Audit log' }).getByText('Storage limit: 10 GB → 50 GB').waitFor();
    expect(await fitsWidth(page)).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'haul-admin-audit-390.png'), fullPage: true });
    await page.goto('/drive/account/security-log');
    await page.getByRole('list', { name: 'Security log' }).waitFor();
    expect(await fitsWidth(page)).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'haul-security-log-390.png'), fullPage: true });
  });
});
