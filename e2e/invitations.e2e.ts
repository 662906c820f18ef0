/**
 * Invitations in the browser: A copies their invite link from /activity/invitation, B opens it in another browser and
 * creates an account, both have premium, and A's invited list shows B. Each browser names its own client address
 * (X-Forwarded-For from loopback, which the server trusts), as two people on two networks would have.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../apps/server/src/accounts/accounts.service.js';
import { type E2E, fitsWidth, fromAccountMenu, newEmail, PASSWORD, signInBrowser, signUpInBrowser, startE2E } from './harness.js';

let e2e: E2E;
/** The first test's inviter and invited, for the operator's list. */
const joined = { inviter: '', invitee: '' };
beforeAll(async () => {
  e2e = await startE2E({ config: { inviteRewardDays: 7, inviteMaxRewards: 10 } });
}, 60_000);
afterAll(() => e2e?.close());

describe('invitations', () => {
  it('brings a friend in with a copied link, and both get premium', async () => {
    const a = await e2e.newPage({ extraHTTPHeaders: { 'X-Forwarded-For': '198.51.100.7' } });
    await a.context.grantPermissions(['clipboard-read', 'clipboard-write']);
    joined.inviter = await signUpInBrowser(a.page);

    await a.page.goto('/drive/activity/invitation');
    await a.page.getByRole('heading', { name: 'Invite friends' }).waitFor();
    await a.page.getByText('When someone creates an account with your link, you both get 7 days of premium.').waitFor();
    await a.page.getByText('10 rewards left this month', { exact: false }).waitFor();
    await a.page.getByRole('button', { name: 'Copy link' }).click();
    await a.page.getByText('Link copied.').waitFor();
    const link = await a.page.evaluate(() => navigator.clipboard.readText());
    expect(link).toMatch(new RegExp(`^${e2e.base}/drive/login\\?invitation-code=[2-9A-HJKMNP-Z]{8}$`));
    expect(await a.page.getByLabel('Your invite link').inputValue()).toBe(link);

    // B, on another network, opens the link: the page says B was invited and offers to create an account.
    const b = await e2e.newPage({ extraHTTPHeaders: { 'X-Forwarded-For': '203.0.113.9' } });
    await b.page.goto(link);
    await b.page.getByText('You were invited to Haul.', { exact: false }).waitFor();
    await b.page.getByRole('heading', { name: 'Create your Haul account' }).waitFor();
    const bEmail = newEmail();
    joined.invitee = bEmail;
    await b.page.getByLabel('Email').fill(bEmail);
    await b.page.getByLabel('Password').fill(PASSWORD);
    await b.page.getByRole('button', { name: 'Create account' }).click();
    await b.page.waitForURL('**/drive/all');

    for (const page of [b.page, a.page]) {
      await page.goto('/drive/payment/management');
      await expect.poll(() => page.locator('.plan-now').textContent()).toMatch(/Premium until .* \(7 days left\)/);
    }

    await a.page.goto('/drive/activity');
    await a.page.waitForURL('**/drive/activity/invited');
    const masked = `${bEmail.slice(0, 2)}***@example.com`;
    const row = a.page.getByRole('row').filter({ hasText: masked });
    await expect.poll(() => row.textContent()).toContain('You both got 7 days of premium');
    await a.page.getByText('Joined: 1 · Rewarded: 1 · Premium days earned: 7').waitFor();
  });

  it('opens the invitation dialog from the account menu and from ?action=show_invite_dialog', async () => {
    const { page } = await e2e.newPage({ extraHTTPHeaders: { 'X-Forwarded-For': '198.51.100.8' } });
    await signUpInBrowser(page);
    await fromAccountMenu(page, 'Invite friends');
    const dialog = page.getByRole('dialog', { name: 'Invite friends' });
    await expect.poll(() => dialog.getByLabel('Your invite link').inputValue()).toMatch(/invitation-code=/);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });

    await page.goto('/drive/all?action=show_invite_dialog');
    await dialog.waitFor();
    await expect.poll(() => page.url()).not.toContain('action=');
    await dialog.getByRole('link', { name: 'See who joined' }).click();
    await page.waitForURL('**/drive/activity/invited');
    await page.getByText('Nobody has joined with your link yet.').waitFor();
  });

  it("shows the operator who invited whom, and the reward, in the console's Plans and money", async () => {
    await createUser(e2e.haul.ctx, { email: 'keeper@example.com', password: PASSWORD, isAdmin: true });
    const { page } = await e2e.newPage({ viewport: { width: 390, height: 800 } });
    await signInBrowser(page, 'keeper@example.com');
    await page.goto('/drive/admin/plans');
    const panel = page.getByRole('region', { name: 'Invitations' });
    const card = panel.getByRole('listitem', { name: `${joined.inviter} invited ${joined.invitee}` });
    await card.waitFor();
    expect(await card.textContent()).toContain('7 premium days each');
    expect(await panel.textContent()).toContain('1 invitation, 1 rewarded: 7 premium days given to each side.');
    expect(await fitsWidth(page)).toBe(true);
  });
});

