/**
 * Plans and money in the console: the whole catalogue, taking a product off sale and back (the public goods follow at
 * once); every account's orders, paged and filtered, and a refund through the sandbox that takes the grant back;
 * redeem codes made (shown once, kept as hashes), listed, redeemed, revoked and then refused. Each route is refused
 * to a person and to no token, changing nothing, and each change is in the audit log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { sha256Hex } from '../src/lib/ids.js';
import { normalCode } from '../src/plans/redeem-codes.js';
import { startConsoleFixture, type ConsoleFixture, type TestHaul } from './helper.js';

const PW = 'correct horse';

describe('plans and money in the console', () => {
  let f: ConsoleFixture;
  let h: TestHaul;
  let admin: TokenResponse;
  let person: TokenResponse;
  const signIn = (email: string) => f.signIn(email);
  const asAdmin = (method: string, url: string, body?: unknown) => h.api(method, url, admin.access_token, body);
  const audit = (action: string) => h.ctx.db.selectFrom('audit_events').selectAll().where('action', '=', action).execute();
  const goods = async (kind = '') => (await h.api('GET', `/vip/v1/pay/products${kind ? `?reward_types=${kind}` : ''}`)).body.products.map((p: { id: string }) => p.id);
  const vip = async (tok: string) => (await h.api('GET', '/vip/v1/vip/info', tok)).body;
  const buy = async (tok: string, productId: string) => {
    const id = (await h.api('POST', '/vip/v1/pay/order/sandbox', tok, { product_id: productId })).body.order_id as string;
    expect((await h.api('POST', `/vip/v1/pay/sandbox/${id}`, tok, { outcome: 'pay' })).body).toEqual({ status: 'succeed' });
    return id;
  };
  const saveProduct = (body: object) => asAdmin('POST', '/admin/v1/products', { id: 'premium-month', title: 'Premium, 1 month', grant: 'premium:30d', price: '4.99', currency: 'EUR', interval: '', ...body });

  beforeAll(async () => {
    f = await startConsoleFixture({ paySandbox: true }, PW);
    ({ h, admin, person } = f);
    expect((await saveProduct({})).status).toBe(200);
  });
  afterAll(() => h.destroy());

  it('refuses each route to a person and to no token, changing nothing', async () => {
    const code = (await h.ctx.db.selectFrom('redeem_codes').select('id').executeTakeFirst())?.id ?? 'no-code';
    const snapshot = async () => ({
      products: await h.ctx.db.selectFrom('products').selectAll().orderBy('id').execute(),
      orders: await h.ctx.db.selectFrom('orders').selectAll().orderBy('id').execute(),
      codes: await h.ctx.db.selectFrom('redeem_codes').selectAll().orderBy('id').execute(),
      audit: await h.ctx.db.selectFrom('audit_events').selectAll().execute(),
    });
    await f.refusedToPeople(
      [
        ['GET', '/admin/v1/products', undefined],
        ['DELETE', '/admin/v1/products/premium-month', undefined],
        ['GET', '/admin/v1/orders?email=person', undefined],
        ['POST', '/admin/v1/orders/some-order/refund', undefined],
        ['GET', '/admin/v1/codes', undefined],
        ['POST', '/admin/v1/codes', { grant: 'premium:3650d', count: 5, max_uses: 100 }],
        ['POST', `/admin/v1/codes/${code}/revoke`, undefined],
      ],
      snapshot,
    );
  });

  it('lists every product, takes one off sale and puts it back, the public goods following at once', async () => {
    expect((await saveProduct({ id: 'storage-100', title: '100 GB more', grant: 'storage:100GB/30d', price: '1.99', interval: 'month', position: 1 })).status).toBe(200);
    expect(await goods()).toContain('premium-month');
    expect(await goods('space')).toEqual(['storage-100']);

    const off = await asAdmin('DELETE', '/admin/v1/products/storage-100');
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect(off.body).toMatchObject({ id: 'storage-100', on_sale: false, price: '1.99', currency: 'EUR', interval: 'month', grant: 'storage:100GB/30d' });
    expect(await goods('space')).toEqual([]);
    // Off sale: a new order of it is refused, the listing still shows it, retired last.
    expect((await h.api('POST', '/vip/v1/pay/subscription/sandbox', person.access_token, { product_id: 'storage-100' })).status).toBe(404);
    const listed = (await asAdmin('GET', '/admin/v1/products')).body.products;
    expect(listed.map((p: { id: string; on_sale: boolean }) => [p.id, p.on_sale])).toEqual([
      ['premium-month', true],
      ['storage-100', false],
    ]);
    expect(listed[1]).toMatchObject({ kind: 'storage', title: '100 GB more', position: 1, grants: [{ kind: 'storage', days: 30 }] });
    expect((await audit('admin.product.retired')).map((e) => JSON.parse(e.details))).toEqual([{ product: 'storage-100', product_title: '100 GB more' }]);
    // Taking it off again changes nothing and records nothing; an unknown product is a 404.
    expect((await asAdmin('DELETE', '/admin/v1/products/storage-100')).body.on_sale).toBe(false);
    expect(await audit('admin.product.retired')).toHaveLength(1);
    expect((await asAdmin('DELETE', '/admin/v1/products/nothing-here')).body.error).toBe('not_found');

    // Back on sale: the same save the web offers.
    expect((await saveProduct({ id: 'storage-100', title: '100 GB more', grant: 'storage:100GB/30d', price: '1.99', interval: 'month', position: 1 })).body.id).toBe('storage-100');
    expect(await goods('space')).toEqual(['storage-100']);
    expect((await asAdmin('GET', '/admin/v1/products')).body.products.every((p: { on_sale: boolean }) => p.on_sale)).toBe(true);
  });

  it('lists orders newest first, paged, by buyer address and status', async () => {
    const otherEmail = 'other.buyer@example.com';
    const other = await h.signUp(otherEmail);
    const paid = [await buy(person.access_token, 'premium-month'), await buy(person.access_token, 'premium-month')];
    const pending = (await h.api('POST', '/vip/v1/pay/order/sandbox', person.access_token, { product_id: 'premium-month' })).body.order_id as string;
    const theirs = await buy(other.access_token, 'premium-month');

    const all = (await asAdmin('GET', '/admin/v1/orders')).body;
    expect(all.orders.map((o: { id: string }) => o.id).slice(0, 4)).toEqual([theirs, pending, paid[1], paid[0]]);
    expect(all.orders[0]).toMatchObject({ email: otherEmail, user_id: other.sub, product_id: 'premium-month', title: 'Premium, 1 month', amount: '4.99', currency: 'EUR', provider: 'sandbox', status: 'succeed', grant: 'premium:30d', subscription: null });
    expect(all.orders[0].fulfilled_time).not.toBe('');

    // Two at a time, then the rest: no order twice, none left out.
    const first = (await asAdmin('GET', '/admin/v1/orders?email=person@&limit=2')).body;
    expect(first.orders.map((o: { id: string }) => o.id)).toEqual([pending, paid[1]]);
    const second = (await asAdmin('GET', `/admin/v1/orders?email=person@&limit=2&page_token=${first.next_page_token}`)).body;
    expect(second.orders.map((o: { id: string }) => o.id)).toEqual([paid[0]]);
    expect(second.next_page_token).toBe('');
    // By an address's start or whole, upper case or not, and by status.
    expect((await asAdmin('GET', '/admin/v1/orders?email=PERSON@EXAMPLE.COM')).body.orders).toHaveLength(3);
    expect((await asAdmin('GET', '/admin/v1/orders?email=person&status=pending')).body.orders.map((o: { id: string }) => o.id)).toEqual([pending]);
    expect((await asAdmin('GET', '/admin/v1/orders?email=nobody')).body.orders).toEqual([]);
    // A token of another listing, and a status that is none, are refused.
    const codesToken = Buffer.from(JSON.stringify({ k: 'admin-codes', v: [1, 'x'] })).toString('base64url');
    expect((await asAdmin('GET', `/admin/v1/orders?page_token=${codesToken}`)).status).toBe(400);
    expect((await asAdmin('GET', '/admin/v1/orders?status=lost')).status).toBe(400);
  });

  it('refunds a paid order through the sandbox, taking the grant back, and refuses a second refund', async () => {
    const buyer = await h.signUp();
    const id = await buy(buyer.access_token, 'premium-month');
    expect((await vip(buyer.access_token)).premium).toBe(true);

    const refunded = await asAdmin('POST', `/admin/v1/orders/${id}/refund`);
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
    expect(refunded.body).toMatchObject({ id, status: 'refunded', user_id: buyer.sub, amount: '4.99' });
    expect((await vip(buyer.access_token)).premium).toBe(false);
    expect((await h.api('GET', '/vip/v1/pay/orders', buyer.access_token)).body.orders[0].status).toBe('refunded');
    const events = (await audit('admin.order.refunded')).filter((e) => e.subject_id === buyer.sub);
    expect(events.map((e) => [e.actor_id, JSON.parse(e.details)])).toEqual([[admin.sub, { order_id: id, product: 'premium-month', amount: '4.99 EUR', grant: 'premium:30d' }]]);

    const again = await asAdmin('POST', `/admin/v1/orders/${id}/refund`);
    expect([again.status, again.body.error, again.body.error_description]).toEqual([409, 'failed_precondition', 'This order is refunded already.']);
    const pending = (await h.api('POST', '/vip/v1/pay/order/sandbox', buyer.access_token, { product_id: 'premium-month' })).body.order_id;
    const unpaid = await asAdmin('POST', `/admin/v1/orders/${pending}/refund`);
    expect([unpaid.status, unpaid.body.error]).toEqual([409, 'failed_precondition']);
    expect(unpaid.body.error_description).toContain('Only a paid order');
    expect((await asAdmin('POST', '/admin/v1/orders/no-such-order/refund')).body.error).toBe('not_found');
    expect((await audit('admin.order.refunded')).filter((e) => e.subject_id === buyer.sub)).toHaveLength(1);
  });

  it('makes codes shown once and kept as hashes, lists them, and a revoked code no longer redeems', async () => {
    const bad = await asAdmin('POST', '/admin/v1/codes', { grant: 'premium:lots', count: 2, max_uses: 1 });
    expect([bad.status, bad.body.error]).toEqual([400, 'invalid_argument']);
    expect(bad.body.error_description).toMatch(/premium/);
    expect((await asAdmin('POST', '/admin/v1/codes', { grant: 'premium:7d', count: 501, max_uses: 1 })).status).toBe(400);

    const made = await asAdmin('POST', '/admin/v1/codes', { grant: 'premium:7d, storage:10GB', count: 3, max_uses: 2, expires_days: 30, note: ' Spring giveaway ' });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body.codes).toHaveLength(3);
    expect(made.body.grant).toBe('premium:7d,storage:10GB');
    for (const c of made.body.codes) expect(c).toMatch(/^[2-9A-Z]{4}(-[2-9A-Z]{4}){3}$/);
    // Only hashes are kept: no column holds a code, and each hash is the code's.
    const rows = await h.ctx.db.selectFrom('redeem_codes').selectAll().where('id', 'in', made.body.ids).execute();
    expect(rows.map((r) => r.code_hash).sort()).toEqual(made.body.codes.map((c: string) => sha256Hex(normalCode(c))).sort());
    expect(JSON.stringify(rows)).not.toContain(made.body.codes[0].slice(0, 9));

    const listed = (await asAdmin('GET', '/admin/v1/codes?limit=2')).body;
    expect(listed.codes).toHaveLength(2);
    expect(listed.next_page_token).not.toBe('');
    expect(listed.codes[0]).toMatchObject({ grant: 'premium:7d,storage:10GB', note: 'Spring giveaway', max_uses: 2, used_count: 0, revoked_time: '' });
    expect(listed.codes[0].expires_time).not.toBe('');
    const rest = (await asAdmin('GET', `/admin/v1/codes?limit=2&page_token=${listed.next_page_token}`)).body;
    expect([...listed.codes, ...rest.codes].map((c: { id: string }) => c.id).sort()).toEqual([...made.body.ids].sort());
    expect(JSON.stringify([listed, rest])).not.toContain(made.body.codes[1]);

    // The person redeems one; the list counts the use.
    const [used, revoked] = [0, 1].map((i) => ({ code: made.body.codes[i] as string, id: made.body.ids[i] as string }));
    const redeemed = await h.api('POST', '/vip/v1/order/activation-code', person.access_token, { activation_code: used.code });
    expect(redeemed.status, JSON.stringify(redeemed.body)).toBe(200);
    const usedNow = (await asAdmin('GET', '/admin/v1/codes?limit=200')).body.codes.find((c: { id: string }) => c.id === used.id);
    expect(usedNow.used_count).toBe(1);

    // Revoked: refused as an expired code is, the list says so, and revoking again records nothing.
    const r = await asAdmin('POST', `/admin/v1/codes/${revoked.id}/revoke`);
    expect(r.status).toBe(200);
    expect(r.body.revoked_time).not.toBe('');
    const refused = await h.api('POST', '/vip/v1/order/activation-code', person.access_token, { activation_code: revoked.code });
    expect([refused.status, refused.body.error, refused.body.error_description]).toEqual([404, 'not_found', 'This code does not exist or has expired. Check it and try again.']);
    expect((await asAdmin('POST', `/admin/v1/codes/${revoked.id}/revoke`)).body.revoked_time).toBe(r.body.revoked_time);
    expect((await asAdmin('POST', '/admin/v1/codes/no-such-code/revoke')).body.error).toBe('not_found');

    // The audit log names the grant and counts, never a code.
    const created = await audit('admin.codes.created');
    expect(created.map((e) => JSON.parse(e.details))).toEqual([{ grant: 'premium:7d,storage:10GB', codes: 3, max_uses: 2, expires_days: 30, note: 'Spring giveaway' }]);
    const revokedEvents = await audit('admin.code.revoked');
    expect(revokedEvents.map((e) => JSON.parse(e.details).code_id)).toEqual([revoked.id]);
    const all = JSON.stringify(await h.ctx.db.selectFrom('audit_events').select('details').execute());
    for (const c of made.body.codes) expect(all).not.toContain(normalCode(c).slice(0, 8));
  });
});
