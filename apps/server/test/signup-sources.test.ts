/**
 * Sign-ups counted by the marketing values the web app keeps in its cookie for half a day: counted once a sign-up
 * succeeds, under cleaned names, and never for a failed sign-up, another call, or a request without the cookie.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { marketingOf } from '../src/stats/signup-sources.js';
import { recentCounts } from '../src/stats/stat-counts.js';
import { startTestHaul, type TestHaul } from './helper.js';

describe('sign-ups by marketing source', () => {
  let h: TestHaul;
  beforeAll(async () => {
    h = await startTestHaul();
  });
  afterAll(() => h.destroy());

  let n = 0;
  const signUp = (cookie?: string, password = 'correct horse') =>
    h.app.inject({
      method: 'POST',
      url: '/v1/auth/signup',
      headers: cookie ? { cookie } : {},
      payload: { email: `mkt${++n}@example.com`, password },
    });
  const counts = async () =>
    Object.fromEntries(
      (await recentCounts(h.ctx.db, h.ctx.clock.now(), h.ctx.config.timeZone, 2))
        .filter((r) => r.event.startsWith('signup_'))
        .map((r) => [r.event, r.count]),
    );
  const cookie = (values: string) => `theme=dark; haul_mkt=${encodeURIComponent(values)}`;

  it('counts a sign-up under its source, medium and campaign, and its from', async () => {
    expect((await signUp(cookie('source=news&medium=mail&campaign=spring&from=extension'))).statusCode).toBe(200);
    expect((await signUp(cookie('source=news&medium=mail&campaign=spring'))).statusCode).toBe(200);
    expect(await counts()).toEqual({ 'signup_source:news/mail/spring': 2, 'signup_from:extension': 1 });
  });

  it('counts nothing for a failed sign-up, a sign-up without the cookie, or another call with it', async () => {
    const before = await counts();
    expect((await signUp(cookie('source=news&medium=mail&campaign=spring'), 'short')).statusCode).toBe(400);
    expect((await signUp()).statusCode).toBe(200);
    const t = await h.signUp();
    await h.app.inject({
      method: 'GET',
      url: '/v1/user/me',
      headers: { authorization: `Bearer ${t.access_token}`, cookie: cookie('source=news') },
    });
    expect(await counts()).toEqual(before);
  });

  it('keeps names short and plain whatever the cookie holds', () => {
    expect(marketingOf(cookie(`source=${'x'.repeat(80)}&medium=a b/c&campaign=<script>`))).toEqual({
      from: '',
      source: 'x'.repeat(40),
      medium: 'a_b_c',
      campaign: '_script_',
    });
    expect(marketingOf('haul_mkt=%E0%A4%A')).toBeNull();
    expect(marketingOf('other=1')).toBeNull();
    expect(marketingOf(undefined)).toBeNull();
  });
});
