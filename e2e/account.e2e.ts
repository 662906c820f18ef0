/** Sessions in the browser: sign out everywhere, and tabs that share a session never sign each other out. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { PASSWORD, signUpInBrowser, startE2E, type E2E } from './harness.js';

describe('sessions in the browser', () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E();
  }, 60_000);
  afterAll(() => e2e.close());

  const signIn = async (page: Page, email: string) => {
    await page.goto('/drive/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL('**/drive/all');
  };

  it('signs out every device from the account menu', async () => {
    const laptop = (await e2e.newPage()).page;
    const email = await signUpInBrowser(laptop);
    const phone = (await e2e.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })).page;
    await signIn(phone, email);
    const phoneToken = await phone.evaluate(() => JSON.parse(localStorage.getItem('haul.session')!).state.session.accessToken as string);

    await laptop.getByRole('button', { name: 'Account' }).click();
    await laptop.getByRole('menuitem', { name: 'Sign out everywhere' }).click();
    await laptop.waitForURL('**/drive/login**');

    // The phone's token died at once, and the phone's next look at the drive sends it to sign in.
    const status = await phone.evaluate(async (t) => (await fetch('/v1/user/me', { headers: { authorization: `Bearer ${t}` } })).status, phoneToken);
    expect(status).toBe(401);
    await phone.reload();
    await phone.waitForURL('**/drive/login**');
  });

  it('keeps two tabs signed in when their access token runs out at the same time', async () => {
    const { page: first, context } = await e2e.newPage();
    await signUpInBrowser(first);
    const second = await context.newPage();
    await second.goto('/drive/all');
    await second.getByRole('heading', { name: 'All files' }).waitFor();
    // Both tabs hold the same refresh token; make both think the access token is about to expire, then use them at once.
    const expire = () => {
      const stored = JSON.parse(localStorage.getItem('haul.session')!);
      stored.state.session.expiresAt = Date.now();
      localStorage.setItem('haul.session', JSON.stringify(stored));
    };
    await first.evaluate(expire);
    await Promise.all([first.reload(), second.reload()]);
    for (const tab of [first, second]) {
      await tab.getByRole('heading', { name: 'All files' }).waitFor();
      expect(tab.url()).toMatch(/\/drive\/all$/);
    }
    // The session survived: a replayed refresh token would have ended it for both.
    const token = await second.evaluate(() => JSON.parse(localStorage.getItem('haul.session')!).state.session.accessToken as string);
    expect(await second.evaluate(async (t) => (await fetch('/v1/user/me', { headers: { authorization: `Bearer ${t}` } })).status, token)).toBe(200);
    const rotations = await e2e.haul.ctx.db.selectFrom('refresh_tokens').select('used_at').where('used_at', 'is not', null).execute();
    expect(rotations.length).toBeGreaterThan(0);
  });
});
