/**
 * Deep links (seed 000 §2 "Action values"): each opened in a fresh browser that is not signed in goes through the
 * sign-in form and ends on its dialog or screen, with the action gone from the address; a cloud download link only
 * fills the dialog; an unknown action opens the drive; marketing values are counted with a sign-up.
 */
import type { BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recentCounts } from '../apps/server/src/stats/stat-counts.js';
import { goneOrigin, newEmail, pageApi, PASSWORD, signUpInBrowser, startE2E, type E2E } from './harness.js';

let e2e: E2E;
let gone: Awaited<ReturnType<typeof goneOrigin>>;
const email = newEmail();
let token = '';
let folder = { id: '' };
let notes = { id: '' };
let report = { id: '' };
let taskId = '';

const api = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${e2e.base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  return res.json();
};
const offlineTasks = async () => (await api('GET', '/drive/v1/tasks?type=offline')).tasks as { id: string; params: { url?: string } }[];

beforeAll(async () => {
  e2e = await startE2E();
  gone = await goneOrigin();
  const signUp = await fetch(`${e2e.base}/v1/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  const tokens = await signUp.json();
  token = tokens.access_token;
  folder = (await api('POST', '/drive/v1/files', { kind: 'drive#folder', name: 'Docs', parent_id: '' })).file;
  notes = await e2e.seedFile(tokens.sub, folder.id, 'notes.txt', 'Notes for the meeting');
  report = await e2e.seedFile(tokens.sub, folder.id, 'report.txt', 'The report');
  // A cloud download that fails at once: one for show_task to point at.
  const made = await api('POST', '/drive/v1/files', {
    kind: 'drive#file',
    upload_type: 'UPLOAD_TYPE_URL',
    url: { url: gone.url },
    parent_id: '',
  });
  taskId = made.tasks[0].id;
}, 60_000);
afterAll(async () => {
  gone?.close();
  await e2e?.close();
});

/** Opens `path` in a new browser, not signed in, and signs in through the form it is sent to. */
async function signInAt(path: string, opts?: BrowserContextOptions): Promise<Page> {
  const { page } = await e2e.newPage(opts);
  await page.goto(path);
  await page.waitForURL((u) => u.pathname === '/drive/login' && u.searchParams.has('redirect'));
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL((u) => u.pathname !== '/drive/login');
  return page;
}

const query = (page: Page) => new URL(page.url()).searchParams;
const path = (page: Page) => new URL(page.url()).pathname;
/** The deep link's parameters have left the address. */
const consumed = (page: Page, ...keys: string[]) => expect.poll(() => ['action', ...keys].filter((k) => query(page).has(k))).toEqual([]);

describe('deep links after signing in', () => {
  const screens: [action: string, to: string][] = [
    ['show_storage_dialog', '/drive/space-management'],
    ['show_traffic_dialog', '/drive/traffic-management'],
    ['required_set_password', '/drive/account/password'],
    ['bind_provider', '/drive/account/providers'],
  ];
  for (const [action, to] of screens)
    it(`action=${action} opens ${to}`, async () => {
      const page = await signInAt(`/drive/all?action=${action}`);
      await expect.poll(() => path(page)).toBe(to);
      await consumed(page);
    });

  for (const [action, title] of [
    ['open_redeem_box', 'Redeem a code'],
    ['show_premium_transform_dialog', 'Change your plan'],
    ['show_invite_dialog', 'Invite friends'],
    ['show_activity_dialog', 'Invite friends'],
  ])
    it(`action=${action} opens its dialog`, async () => {
      const page = await signInAt(`/drive/all?action=${action}`);
      await page.getByRole('dialog', { name: title }).waitFor();
      await consumed(page);
    });

  for (const action of ['login_required', 'show_popup_window', 'format_disk'])
    it(`action=${action} just opens the drive`, async () => {
      const page = await signInAt(`/drive/all?action=${action}&keep=1`);
      await page.locator('[data-item]').filter({ hasText: 'Docs' }).first().waitFor();
      await consumed(page);
      expect(path(page)).toBe('/drive/all');
      expect(query(page).get('keep')).toBe('1');
      expect(await page.getByRole('dialog').count()).toBe(0);
    });

  it('action=show_beginner_dialog opens the beginner guide on a laptop, never on a phone', async () => {
    const page = await signInAt('/drive/all?action=show_beginner_dialog', { viewport: { width: 1280, height: 800 } });
    const guide = page.getByRole('dialog', { name: 'Bring things in with + New' });
    await guide.waitFor();
    await consumed(page);
    expect(await page.locator('.new-btn.guide-target').count()).toBe(1);
    await guide.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('dialog', { name: 'Follow your transfers' }).getByRole('button', { name: 'Skip the tour' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    expect(await page.locator('.guide-target').count()).toBe(0);
    const phone = await signInAt('/drive/all?action=show_beginner_dialog&keep=1', { viewport: { width: 390, height: 800 } });
    await consumed(phone);
    expect(await phone.getByRole('dialog').count()).toBe(0);
  });

  it('starts the guide by itself once for an account in its first week, where the server offers it', async () => {
    e2e.haul.ctx.config.beginnerGuide = true;
    try {
      const { page } = await e2e.newPage({ viewport: { width: 1280, height: 800 } });
      await signUpInBrowser(page);
      const guide = page.getByRole('dialog', { name: 'Bring things in with + New' });
      await guide.waitFor();
      expect(await guide.textContent()).toContain('Step 1 of 3');
      await guide.getByRole('button', { name: 'Next' }).click();
      await page.getByRole('dialog', { name: 'Follow your transfers' }).getByRole('button', { name: 'Next' }).click();
      const last = page.getByRole('dialog', { name: 'Send links from your browser' });
      await last.getByRole('link', { name: 'Get the extension' }).waitFor();
      await last.getByRole('button', { name: 'Done' }).click();
      await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
      // Finished is kept on the account: another load does not start it again.
      await expect
        .poll(() => pageApi(page, 'GET', '/v1/user/settings?items=beginner_guide_done'))
        .toMatchObject({ settings: [{ item: 'beginner_guide_done', value: true }] });
      await page.reload();
      await page.getByRole('button', { name: /^(List view|Grid view)$/ }).first().waitFor();
      await new Promise((r) => setTimeout(r, 500));
      expect(await page.getByRole('dialog').count()).toBe(0);
    } finally {
      e2e.haul.ctx.config.beginnerGuide = false;
    }
  });

  it('action=search stays in the address and searches', async () => {
    const page = await signInAt('/drive/all?action=search&name=notes');
    await page.locator('[data-item]').filter({ hasText: 'notes.txt' }).first().waitFor();
    expect(query(page).get('action')).toBe('search');
  });

  it('action=create_task from a magnet handler fills the dialog and adds nothing until clicked', async () => {
    const magnet =
      'magnet:?xt=urn:btih:0123456789abcdef0123456789abcdef01234567&dn=Big+Buck+Bunny&tr=http%3A%2F%2F127.0.0.1%3A9%2Fannounce';
    const page = await signInAt(`/drive/all?action=create_task&url=${encodeURIComponent(magnet)}`);
    const dialog = page.getByRole('dialog', { name: 'Cloud download' });
    await expect.poll(() => dialog.getByLabel('Links').inputValue()).toBe(magnet);
    await consumed(page, 'url');
    await page.waitForTimeout(1000);
    expect((await offlineTasks()).map((t) => t.id)).toEqual([taskId]);
    await dialog.getByRole('button', { name: 'Download', exact: true }).click();
    await expect.poll(async () => (await offlineTasks()).filter((t) => t.params.url === magnet).length).toBe(1);
  });

  it('action=create_task takes several links and speed_save, and a bad link gets the dialog’s own error', async () => {
    const links = ['https://a.example/1.iso', 'https://a.example/2.iso'];
    const page = await signInAt(`/drive/all?action=create_task&urls=${encodeURIComponent(links.join('\n'))}&urls=not-a-link&speed_save=1`);
    const dialog = page.getByRole('dialog', { name: 'Cloud download' });
    await expect.poll(() => dialog.getByLabel('Links').inputValue()).toBe([...links, 'not-a-link'].join('\n'));
    expect(await dialog.getByLabel('Open when ready').isChecked()).toBe(true);
    const before = (await offlineTasks()).length;
    await dialog.getByRole('button', { name: 'Download', exact: true }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent()).toContain('This line is not a link: not-a-link');
    expect((await offlineTasks()).length).toBe(before);
  });

  it('action=open_file opens a file in the viewer, in its folder', async () => {
    const page = await signInAt(`/drive/all?action=open_file&file_ids=${notes.id}`);
    await page.getByRole('dialog', { name: 'notes.txt' }).waitFor();
    expect(path(page)).toBe(`/drive/all/${folder.id}`);
    await consumed(page, 'file_ids');
  });

  it('action=open_file opens a folder as the folder', async () => {
    const page = await signInAt(`/drive/all?action=open_file&file_ids=${folder.id}`);
    await expect.poll(() => path(page)).toBe(`/drive/all/${folder.id}`);
    await page.locator('[data-item]').filter({ hasText: 'report.txt' }).first().waitFor();
  });

  it('action=highlight_files opens their folder with them selected', async () => {
    const page = await signInAt(`/drive/all?action=highlight_files&file_ids=${notes.id},${report.id}`);
    await expect.poll(() => path(page)).toBe(`/drive/all/${folder.id}`);
    const selected = page.locator('[data-item][aria-selected="true"]');
    await expect.poll(() => selected.count()).toBe(2);
    await consumed(page, 'file_ids');
  });

  it('action=move_files opens the move dialog for them', async () => {
    const page = await signInAt(`/drive/all?action=move_files&file_ids=${report.id}`);
    await page.getByRole('dialog', { name: 'Move 1 item to…' }).waitFor();
  });

  it('a file that is not the person’s gets a toast and nothing else', async () => {
    const page = await signInAt('/drive/all?action=open_file&file_ids=notmine0000000000000000');
    await page.getByText('The link names a file that is not in your drive, or no longer exists.').waitFor();
    expect(path(page)).toBe('/drive/all');
    expect(await page.getByRole('dialog').count()).toBe(0);
  });

  it('action=show_task opens the cloud tab of the transfer list at the task', async () => {
    const page = await signInAt(`/drive/all?action=show_task&task_id=${taskId}`);
    await page.locator('.transfer-panel li[data-pointed][aria-label="gone.iso"]').waitFor();
    expect(await page.getByRole('tab', { name: /^Cloud download/ }).getAttribute('aria-selected')).toBe('true');
    await consumed(page, 'task_id');
  });

  it('action=show_mobile_sidebar opens the sidebar on a phone', async () => {
    const page = await signInAt('/drive/all?action=show_mobile_sidebar', { viewport: { width: 390, height: 800 } });
    await page.locator('nav.sidebar.open').waitFor();
    expect(await page.getByRole('button', { name: 'Menu' }).getAttribute('aria-expanded')).toBe('true');
  });

  it('locale switches the language, as the language menu does', async () => {
    const page = await signInAt('/drive/all?locale=ja');
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('ja');
    expect(await page.evaluate(() => localStorage.getItem('haul.locale'))).toBe('ja');
    await consumed(page, 'locale');
  });
});

describe('marketing parameters', () => {
  it('are kept for half a day and counted with the sign-up that follows', async () => {
    const { page, context } = await e2e.newPage();
    await page.goto('/drive/all?__source=news&__medium=mail&__campaign=spring');
    await page.waitForURL('**/drive/login?**');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByLabel('Email').fill(newEmail());
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => path(page)).toBe('/drive/all');
    await consumed(page, '__source', '__medium', '__campaign');
    const cookie = (await context.cookies()).find((c) => c.name === 'haul_mkt')!;
    expect(decodeURIComponent(cookie.value)).toBe('source=news&medium=mail&campaign=spring');
    expect(cookie.expires * 1000 - Date.now()).toBeGreaterThan(11.9 * 3600_000);
    const { ctx } = e2e.haul;
    const rows = await recentCounts(ctx.db, ctx.clock.now(), ctx.config.timeZone, 2);
    expect(rows.find((r) => r.event === 'signup_source:news/mail/spring')?.count).toBe(1);
  });
});
