/**
 * Invitations: both sides rewarded with premium days, unknown codes ignored, the monthly cap (raced too), the address
 * rules, an address rewarded once not rewarded again after its account is deleted, rewards off, and the invited list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { eraseAccount } from '../src/accounts/account-erasure.js';
import { markAccountDeleted } from '../src/accounts/account-deletion.service.js';
import { ManualClock, startTestHaul, type TestHaul } from './helper.js';

const DAY = 86_400_000;
const PW = 'correct horse';
let n = 0;
/** A client address of its own for each call that does not name one: most tests want no address rule in the way. */
const freshAddress = () => `198.51.100.${++n}`;

/** Signs up from `address`, with `code` when given. */
async function signUp(h: TestHaul, email: string, opts: { code?: string; address?: string } = {}): Promise<TokenResponse> {
  const payload = { email, password: PW, ...(opts.code !== undefined ? { invitation_code: opts.code } : {}) };
  const res = await h.app.inject({ method: 'POST', url: '/v1/auth/signup', payload, remoteAddress: opts.address ?? freshAddress() });
  if (res.statusCode !== 200) throw new Error(`signup ${email}: ${res.body}`);
  return res.json() as TokenResponse;
}

const info = async (h: TestHaul, tok: TokenResponse) => {
  const res = await h.api('GET', '/vip/v1/activity/invite', tok.access_token);
  expect(res.status).toBe(200);
  return res.body;
};
const premiumDays = async (h: TestHaul, tok: TokenResponse) => (await h.api('GET', '/vip/v1/vip/info', tok.access_token)).body.surplus_day as number;

describe('invitations', () => {
  let h: TestHaul;
  const clock = new ManualClock(Date.UTC(2026, 10, 10, 12));
  beforeAll(async () => {
    h = await startTestHaul({ inviteRewardDays: 7, inviteMaxRewards: 3, timeZone: 'UTC', accessTokenTtlSeconds: 365 * 86400, refreshTokenTtlSeconds: 365 * 86400 }, clock);
  });
  afterAll(() => h.destroy());
  /** A second apart, so the invited list has one order on both databases. */
  const join = (email: string, opts?: { code?: string; address?: string }) => {
    clock.advance(1000);
    return signUp(h, email, opts);
  };

  it('rewards both sides with premium days, shown in vip info, the list and the rewards', async () => {
    const ann = await join('ann@example.com');
    const first = await info(h, ann);
    expect(first.invitation_code).toMatch(/^[2-9A-HJKMNP-Z]{8}$/);
    expect(first.link).toBe(`http://haul.test/drive/login?invitation-code=${first.invitation_code}`);
    expect(first).toMatchObject({ reward_days: 7, monthly_limit: 3, rewards_left: 3, resets_at: '2026-12-01T00:00:00.000Z', invited: [], total_invited: 0 });
    // The seed's POST answers the same, and the code stays the same.
    const again = await h.api('POST', '/vip/v1/activity/invite', ann.access_token, { from: 'web', tf: '', rf: '' });
    expect(again.body.invitation_code).toBe(first.invitation_code);

    // Case and dashes do not matter, as with redeem codes.
    const bob = await join('bobby@example.org', { code: first.invitation_code.toLowerCase().replace(/^(.{4})/, '$1-') });
    expect(await premiumDays(h, ann)).toBe(7);
    expect(await premiumDays(h, bob)).toBe(7);
    const vip = (await h.api('GET', '/vip/v1/vip/info', bob.access_token)).body;
    expect(vip).toMatchObject({ premium: true, grants: [{ kind: 'premium', source: 'invite' }] });
    expect(new Date(vip.expire).getTime()).toBe(clock.now() + 7 * DAY);

    const after = await info(h, ann);
    expect(after.invited).toEqual([{ name: 'bo***@example.org', joined_at: expect.any(String), rewarded: true, reward_days: 7, reason: '', account_deleted: false }]);
    expect(after).toMatchObject({ rewards_left: 2, total_invited: 1, total_rewarded: 1, days_earned: 7 });
    const annRewards = await h.api('POST', '/vip/v1/activity/rewardVip', ann.access_token, { type: 'invite', data: '' });
    expect(annRewards.body).toEqual({ rewards: [{ role: 'inviter', days: 7, granted_at: expect.any(String), ends_at: expect.any(String) }], total_days: 7 });
    expect((await h.api('POST', '/vip/v1/activity/rewardVip', bob.access_token, {})).body.rewards[0].role).toBe('invitee');
    // Bob's own list is empty: he was invited, he invited nobody.
    expect((await info(h, bob)).invited).toEqual([]);
  });

  it('ignores an unknown or malformed code: the account is made without premium', async () => {
    for (const [i, code] of ['ZZZZZZZZ', 'not a code!', '', '2'.repeat(64)].entries()) {
      const t = await join(`stray${i}@example.com`, { code });
      expect(await premiumDays(h, t)).toBe(0);
    }
    const other = await h.app.inject({ method: 'POST', url: '/v1/auth/signup', payload: { email: 'long@example.com', password: PW, invitation_code: 'x'.repeat(65) } });
    expect(other.statusCode).toBe(400);
  });

  it('stops rewarding at the monthly cap, counts deleted accounts, and starts over next month', async () => {
    const cat = await join('cat@example.com');
    const { invitation_code: code } = await info(h, cat);
    const joined: TokenResponse[] = [];
    for (const name of ['ada', 'bea', 'cid', 'dot']) joined.push(await join(`${name}@example.com`, { code }));
    expect(await Promise.all(joined.map((t) => premiumDays(h, t)))).toEqual([7, 7, 7, 0]);
    expect(await premiumDays(h, cat)).toBe(21);
    const list = await info(h, cat);
    expect(list.invited.map((i: { name: string; reason: string }) => `${i.name} ${i.reason}`)).toEqual(['do***@example.com monthly_limit', 'ci***@example.com ', 'be***@example.com ', 'ad***@example.com ']);
    expect(list).toMatchObject({ rewards_left: 0, total_invited: 4, total_rewarded: 3, days_earned: 21 });

    // A rewarded account deleted and erased still counts, and its address earns nothing under a new account.
    await markAccountDeleted(h.ctx, joined[0]!.sub);
    expect(await eraseAccount(h.ctx, joined[0]!.sub)).toBe('done');
    const back = await join('ada@example.com', { code });
    expect(await premiumDays(h, back)).toBe(0);
    const later = await info(h, cat);
    expect(later.rewards_left).toBe(0);
    expect(later.invited.find((i: { name: string; account_deleted: boolean }) => i.account_deleted)).toMatchObject({ name: 'ad***@example.com', rewarded: true });
    expect(later.invited[0]).toMatchObject({ name: 'ad***@example.com', rewarded: false, reason: 'invited_before' });

    clock.t = Date.UTC(2026, 11, 1, 0, 0, 1);
    const dec = await join('december@example.com', { code });
    expect(await premiumDays(h, dec)).toBe(7);
    const back2 = await join('ada@example.net', { code });
    expect(await premiumDays(h, back2)).toBe(7);
    expect((await info(h, cat)).rewards_left).toBe(1);
    // An address rewarded before: never again, whatever the month.
    await markAccountDeleted(h.ctx, back.sub);
    const third = await join('ada@example.com', { code });
    expect(await premiumDays(h, third)).toBe(0);
    expect((await info(h, cat)).invited[0]).toMatchObject({ name: 'ad***@example.com', reason: 'invited_before' });
  });

  it("rewards nothing for a sign-up from the inviter's own address, nor past three a day from one address", async () => {
    const home = '192.0.2.10';
    const eve = await join('eve@example.com', { address: home });
    const { invitation_code: code } = await info(h, eve);
    const twin = await join('eve.two@example.com', { code, address: home });
    expect(await premiumDays(h, twin)).toBe(0);
    expect((await info(h, eve)).invited[0]).toMatchObject({ name: 'ev***@example.com', rewarded: false, reason: 'same_address' });

    // Four inviters, one sign-up address: three rewarded that day, then none until the next.
    const cafe = '203.0.113.77';
    const reasons: string[] = [];
    for (const i of [1, 2, 3, 4, 5]) {
      const inviter = await join(`host${i}@example.com`);
      const c = (await info(h, inviter)).invitation_code;
      if (i === 5) clock.advance(DAY);
      await join(`guest${i}@example.com`, { code: c, address: cafe });
      reasons.push((await info(h, inviter)).invited[0].reason);
    }
    expect(reasons).toEqual(['', '', '', 'address_limit', '']);
  });

  it('lets no more than the cap through when ten sign-ups race with one code', async () => {
    const fay = await join('fay@example.com');
    const { invitation_code: code } = await info(h, fay);
    const racers = await Promise.all(Array.from({ length: 10 }, (_, i) => join(`racer${i}@example.com`, { code })));
    const days = await Promise.all(racers.map((t) => premiumDays(h, t)));
    expect(days.filter((d) => d === 7)).toHaveLength(3);
    expect(days.filter((d) => d === 0)).toHaveLength(7);
    // The inviter's premium chains: three rewards, 21 days, none lost to the race.
    expect(await premiumDays(h, fay)).toBe(21);
    const list = await info(h, fay);
    expect(list).toMatchObject({ total_invited: 10, total_rewarded: 3, rewards_left: 0 });
    const rows = await h.ctx.db.selectFrom('plan_grants').select('source_id').where('user_id', '=', fay.sub).where('source', '=', 'invite').execute();
    expect(rows).toHaveLength(3);
  });
});

describe('invitations with rewards off', () => {
  let h: TestHaul;
  beforeAll(async () => {
    h = await startTestHaul({ inviteRewardDays: 0 });
  });
  afterAll(() => h.destroy());

  it('keeps the link working and lists who joined, granting nothing', async () => {
    const gus = await signUp(h, 'gus@example.com');
    const first = await info(h, gus);
    expect(first).toMatchObject({ reward_days: 0, rewards_left: 10 });
    const hal = await signUp(h, 'hal@example.com', { code: first.invitation_code });
    expect(await premiumDays(h, gus)).toBe(0);
    expect(await premiumDays(h, hal)).toBe(0);
    expect((await info(h, gus)).invited).toEqual([expect.objectContaining({ name: 'ha***@example.com', rewarded: false, reward_days: 0, reason: 'rewards_off' })]);
    expect((await h.api('POST', '/vip/v1/activity/rewardVip', gus.access_token, {})).body).toEqual({ rewards: [], total_days: 0 });
  });
});
