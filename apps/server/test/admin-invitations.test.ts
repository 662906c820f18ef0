/**
 * The console's invitations: every sign-up made with a code, newest first and paged, or one inviter's; both accounts,
 * the reward or why there was none, totals; a deleted account shows as gone; only an operator may look.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { createUser } from '../src/accounts/accounts.service.js';
import { ManualClock, startTestHaul, type TestHaul } from './helper.js';

const PW = 'correct horse';

describe('invitations in the console', () => {
  const clock = new ManualClock(Date.UTC(2026, 10, 10));
  let h: TestHaul;
  let admin: TokenResponse;
  let ann: TokenResponse;
  let kim: TokenResponse;
  let address = 0;

  const codeOf = async (t: TokenResponse) => (await h.api('POST', '/vip/v1/activity/invite', t.access_token, { from: 'web', tf: '', rf: '' })).body.invitation_code as string;
  async function join(email: string, code: string): Promise<TokenResponse> {
    clock.advance(1000);
    const res = await h.app.inject({ method: 'POST', url: '/v1/auth/signup', payload: { email, password: PW, invitation_code: code }, remoteAddress: `198.51.100.${++address}` });
    if (res.statusCode !== 200) throw new Error(`signup ${email}: ${res.body}`);
    return res.json();
  }
  const list = (query = '', token = admin.access_token) => h.api('GET', `/admin/v1/invitations${query}`, token);

  beforeAll(async () => {
    h = await startTestHaul({ inviteRewardDays: 7, inviteMaxRewards: 2, timeZone: 'UTC', registration: 'open' }, clock);
    await createUser(h.ctx, { email: 'keeper@example.com', password: PW, isAdmin: true });
    admin = (await h.api('POST', '/v1/auth/signin', undefined, { username: 'keeper@example.com', password: PW })).body as TokenResponse;
    ann = await h.signUp('ann@example.com', PW);
    kim = await h.signUp('kim@example.com', PW);
    const annCode = await codeOf(ann);
    for (const who of ['bo', 'cy', 'di']) await join(`${who}@example.org`, annCode);
    await join('ed@example.org', await codeOf(kim));
  });
  afterAll(() => h.destroy());

  it('lists every invitation newest first, page by page, with both accounts, the reward or why not, and totals', async () => {
    const first = await list('?limit=3');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ total: 4, rewarded: 3, reward_days: 21 });
    expect(first.body.invitations.map((i: { invitee: { email: string } }) => i.invitee.email)).toEqual(['ed@example.org', 'di@example.org', 'cy@example.org']);
    // Ann's third was past the monthly cap of two.
    expect(first.body.invitations[1]).toMatchObject({ inviter: { email: 'ann@example.com' }, rewarded: false, reward_days: 0, reason: 'monthly_limit' });
    expect(first.body.invitations[0]).toMatchObject({ inviter: { email: 'kim@example.com' }, rewarded: true, reward_days: 7, reason: '' });
    const second = await list(`?limit=3&page_token=${encodeURIComponent(first.body.next_page_token)}`);
    expect(second.body.invitations.map((i: { invitee: { email: string } }) => i.invitee.email)).toEqual(['bo@example.org']);
    expect(second.body.next_page_token).toBe('');
    // A page token of one listing is refused by another.
    const mixed = await list(`?user_id=${ann.sub}&page_token=${encodeURIComponent(first.body.next_page_token)}`);
    expect([mixed.status, mixed.body.error]).toEqual([400, 'invalid_argument']);
  });

  it("lists one inviter's invitations, and a deleted account as gone while its invitation still counts", async () => {
    const deleted = await h.api('DELETE', `/admin/v1/users/${ann.sub}`, admin.access_token);
    expect(deleted.status).toBeLessThan(300);
    const annOnly = await list(`?user_id=${ann.sub}`);
    expect(annOnly.body).toMatchObject({ total: 3, rewarded: 2, reward_days: 14 });
    expect(annOnly.body.invitations.every((i: { inviter: unknown; invitee_label: string }) => i.inviter === null && i.invitee_label.includes('***'))).toBe(true);
  });

  it("is refused to a person's token and to no token", async () => {
    for (const token of [kim.access_token, undefined]) {
      const r = await h.api('GET', '/admin/v1/invitations', token);
      expect(r.status).toBe(token ? 403 : 401);
    }
  });
});
