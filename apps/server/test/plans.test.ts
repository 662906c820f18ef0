/**
 * Plans: grant specs, redeem codes (once per account, no more uses than allowed, even raced; guessing throttled),
 * grants that lift storage and transfer, premium chained and taken back, the goods on sale, and the operator's CLI.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatGrantSpec, parseGrantSpec } from '@haul/shared';
import { applyGrant, revokeGrants } from '../src/plans/grants.js';
import { createCodes } from '../src/plans/redeem-codes.js';
import { saveProduct } from '../src/plans/catalog.js';
import { ManualClock, startTestHaul, type TestHaul } from './helper.js';

const DAY = 86_400_000;
const GB = 2 ** 30;

describe('grant specs', () => {
  it('parses what operators type and refuses the rest with a reason', () => {
    expect(parseGrantSpec('premium:30d, storage:100GB, transfer:1.5GB, storage:2TB/365d')).toEqual([
      { kind: 'premium', bytes: 0, days: 30 },
      { kind: 'storage', bytes: 100 * GB, days: null },
      { kind: 'transfer', bytes: 1.5 * GB, days: 30 },
      { kind: 'storage', bytes: 2 * 1024 * GB, days: 365 },
    ]);
    expect(formatGrantSpec(parseGrantSpec(' premium:30d ,transfer:50GB'))).toBe('premium:30d,transfer:50GB');
    for (const bad of ['', 'premium', 'premium:0d', 'premium:30', 'gold:1d', 'storage:lots', 'storage:-1GB', 'transfer:1GB/0d']) {
      expect(() => parseGrantSpec(bad), bad).toThrow(/./);
    }
  });
});

describe('redeem codes and grants', () => {
  let h: TestHaul;
  const clock = new ManualClock(Date.UTC(2026, 10, 10, 12));
  beforeAll(async () => {
    // Tokens outlive the days this clock moves through.
    h = await startTestHaul({ monthlyCloudDownloadBytes: 1 * GB, defaultQuotaBytes: 10 * GB, accessTokenTtlSeconds: 365 * 86400, refreshTokenTtlSeconds: 365 * 86400 }, clock);
  });
  afterAll(() => h.destroy());

  const redeem = (tok: string, code: string) => h.api('POST', '/vip/v1/order/activation-code', tok, { activation_code: code });

  it('grants premium once per account, chained after what is left, and shows it everywhere', async () => {
    const t = await h.signUp();
    const [code] = await createCodes(h.ctx.db, { spec: 'premium:30d', count: 1, maxUses: 5 }, clock.now());
    expect(code).toMatch(/^[2-9A-HJKMNP-Z]{4}(-[2-9A-HJKMNP-Z]{4}){3}$/);
    const first = await redeem(t.access_token, code!.toLowerCase().replace(/-/g, ' '));
    expect(first.status).toBe(200);
    expect(first.body.granted).toEqual([{ kind: 'premium', bytes: '0', days: 30 }]);
    expect(first.body.vip).toMatchObject({ status: 'ok', premium: true, surplus_day: 30 });
    expect(new Date(first.body.vip.expire).getTime()).toBe(clock.now() + 30 * DAY);
    const again = await redeem(t.access_token, code!);
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('already_exists');

    // A second code adds to what is left, it does not start over.
    const [more] = await createCodes(h.ctx.db, { spec: 'premium:10d', count: 1 }, clock.now());
    clock.advance(5 * DAY);
    expect((await redeem(t.access_token, more!)).body.vip.surplus_day).toBe(35);
    const me = await h.api('GET', '/v1/user/me', t.access_token);
    expect(me.body).toMatchObject({ premium: true, vip_status: 'ok' });
    expect(new Date(me.body.expire).getTime()).toBe(clock.now() + 35 * DAY);
  });

  it('refuses unknown, malformed, expired and used-up codes, changing nothing', async () => {
    const t = await h.signUp();
    expect((await redeem(t.access_token, 'AAAA-BBBB-CCCC-DDDD')).body.error).toBe('not_found');
    const bad = await redeem(t.access_token, 'not a code!');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('invalid_argument');
    const [old] = await createCodes(h.ctx.db, { spec: 'premium:1d', count: 1, expiresAt: clock.now() + 1000 }, clock.now());
    clock.advance(2000);
    expect((await redeem(t.access_token, old!)).body.error).toBe('not_found');
    const [once] = await createCodes(h.ctx.db, { spec: 'premium:1d', count: 1 }, clock.now());
    expect((await redeem((await h.signUp()).access_token, once!)).status).toBe(200);
    const used = await redeem(t.access_token, once!);
    expect(used.status).toBe(409);
    expect(used.body.error).toBe('failed_precondition');
    expect((await h.api('GET', '/vip/v1/vip/info', t.access_token)).body).toMatchObject({ premium: false, grants: [] });
  });

  it('lets a code good for 3 accounts be used by exactly 3 of 10 racing, and one account once when it races itself', async () => {
    const [code] = await createCodes(h.ctx.db, { spec: 'premium:7d', count: 1, maxUses: 3 }, clock.now());
    const users = await Promise.all(Array.from({ length: 10 }, () => h.signUp()));
    const answers = await Promise.all(users.map((u) => redeem(u.access_token, code!)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(3);
    expect(answers.filter((a) => a.status === 409 && a.body.error === 'failed_precondition')).toHaveLength(7);
    const row = await h.ctx.db.selectFrom('redeem_codes').select('used_count').executeTakeFirstOrThrow();
    expect(row.used_count).toBeLessThanOrEqual(3);

    const [twice] = await createCodes(h.ctx.db, { spec: 'premium:7d', count: 1, maxUses: 5 }, clock.now());
    const me = await h.signUp();
    const mine = await Promise.all(Array.from({ length: 5 }, () => redeem(me.access_token, twice!)));
    expect(mine.filter((a) => a.status === 200)).toHaveLength(1);
    const info = (await h.api('GET', '/vip/v1/vip/info', me.access_token)).body;
    expect(info.surplus_day).toBe(7);
    expect(info.grants).toHaveLength(1);
  });

  it('throttles guessing per account, and the owner of a real code still gets in after the wait', async () => {
    const t = await h.signUp();
    let limited;
    for (let i = 0; i < 15 && !limited; i++) {
      const r = await redeem(t.access_token, `ZZZZ-ZZZZ-ZZZZ-ZZ${String(i).padStart(2, '2').replace(/[01]/g, '2')}`);
      if (r.status === 429) limited = r;
    }
    expect(limited?.body.error).toBe('too_many_requests');
    const [code] = await createCodes(h.ctx.db, { spec: 'premium:1d', count: 1 }, clock.now());
    expect((await redeem(t.access_token, code!)).status).toBe(429);
    clock.advance(61_000);
    expect((await redeem(t.access_token, code!)).status).toBe(200);
  });

  it('adds storage and transfer grants to the limits while they last', async () => {
    const t = await h.signUp();
    const [code] = await createCodes(h.ctx.db, { spec: 'storage:5GB/10d,transfer:2GB', count: 1 }, clock.now());
    expect((await redeem(t.access_token, code!)).status).toBe(200);
    const about = (await h.api('GET', '/drive/v1/about?with_quotas=cloud_download_size_month', t.access_token)).body;
    expect(about.quota.limit).toBe(String(15 * GB));
    expect(about.quotas.cloud_download_size_month).toMatchObject({ limit: String(3 * GB), complimentary: String(2 * GB) });
    clock.advance(11 * DAY);
    const later = (await h.api('GET', '/drive/v1/about?with_quotas=cloud_download_size_month', t.access_token)).body;
    expect(later.quota.limit).toBe(String(10 * GB));
    expect(later.quotas.cloud_download_size_month).toMatchObject({ complimentary: String(2 * GB) });
    clock.advance(20 * DAY);
    const gone = (await h.api('GET', '/drive/v1/about?with_quotas=cloud_download_size_month', t.access_token)).body;
    expect(gone.quotas.cloud_download_size_month).toMatchObject({ limit: String(1 * GB), complimentary: '0' });
  });

  it('takes back the unused part of a premium grant and pulls later premium forward', async () => {
    const t = await h.signUp();
    const now = clock.now();
    await h.ctx.db.transaction().execute(async (trx) => {
      await applyGrant(trx, t.sub, 'premium:30d', { source: 'order', sourceId: 'o1' }, now);
      await applyGrant(trx, t.sub, 'premium:10d', { source: 'order', sourceId: 'o2' }, now);
    });
    clock.advance(5 * DAY);
    await h.ctx.db.transaction().execute((trx) => revokeGrants(trx, { source: 'order', sourceId: 'o1' }, clock.now()));
    const info = (await h.api('GET', '/vip/v1/vip/info', t.access_token)).body;
    // 5 days of the first were used; the second's 10 now start today.
    expect(new Date(info.expire).getTime()).toBe(clock.now() + 10 * DAY);
    expect(info.grants).toHaveLength(1);
  });
});

describe('goods on sale', () => {
  let h: TestHaul;
  beforeAll(async () => {
    h = await startTestHaul();
  });
  afterAll(() => h.destroy());

  it('lists the operator\'s goods by page, to anyone, with plain decimal prices', async () => {
    const now = Date.now();
    await saveProduct(h.ctx.db, { id: 'premium-month', title: 'Premium, 1 month', grant: 'premium:30d', price: '4.99', currency: 'eur', interval: '' }, now);
    await saveProduct(h.ctx.db, { id: 'premium-year', title: 'Premium, yearly', grant: 'premium:365d,storage:1TB/365d', price: '1299', currency: 'JPY', interval: 'year', position: 1 }, now);
    await saveProduct(h.ctx.db, { id: 'space-100', title: '100 GB', grant: 'storage:100GB', price: '12', currency: 'EUR', interval: '' }, now);
    const premium = (await h.api('GET', '/vip/v1/pay/products')).body;
    expect(premium.products.map((p: any) => [p.id, p.price, p.currency, p.subscriber_type, p.subscription_mode])).toEqual([
      ['premium-month', '4.99', 'EUR', 'none', 'one_time'],
      ['premium-year', '1299', 'JPY', 'year', 'recurring'],
    ]);
    expect(premium.products[1].grants).toEqual([
      { kind: 'premium', bytes: '0', days: 365 },
      { kind: 'storage', bytes: String(1024 * GB), days: 365 },
    ]);
    const space = (await h.api('POST', '/vip/v1/pay/products', undefined, { reward_types: 'space', scene: 'x' })).body;
    expect(space.products.map((p: any) => [p.id, p.price])).toEqual([['space-100', '12.00']]);
    // The upgrade entry offers the first premium product; no provider here, so it says a code is the way in.
    const t = await h.signUp();
    const offer = (await h.api('GET', '/vip/v1/activity/upgradeToPro', t.access_token)).body;
    expect(offer).toMatchObject({ premium: false, expire: '', surplus_day: 0, can_pay: false });
    expect(offer.offer.id).toBe('premium-month');
    await applyGrant(h.ctx.db, t.sub, 'premium:10d', { source: 'admin', sourceId: 'x' }, Date.now());
    expect((await h.api('GET', '/vip/v1/activity/upgradeToPro', t.access_token)).body).toMatchObject({ premium: true, surplus_day: 10 });
    await expect(saveProduct(h.ctx.db, { id: 'x', title: 'X', grant: 'premium:1d', price: '1.999', currency: 'EUR', interval: '' }, now)).rejects.toThrow(/decimals/);
    await expect(saveProduct(h.ctx.db, { id: 'x', title: 'X', grant: 'premium:1d', price: '1', currency: 'XYZ', interval: '' }, now)).rejects.toThrow(/ISO 4217/);
  });
});
