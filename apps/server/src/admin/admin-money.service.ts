/**
 * Plans and money in the console: the whole catalogue and taking a product off sale; every account's orders and the
 * operator's refund; redeem codes listed (never the codes), made and revoked. What haul-admin plans, codes, orders
 * and refund do from a shell, each change an audit event written with it.
 */
import { GrantSpecError, formatGrantSpec, parseGrantSpec, type Static, type AdminCodeSchema, type AdminOrderSchema, type AdminProductSchema, type OrderStatus } from '@haul/shared';
import type { AppContext } from '../context.js';
import { newestFirstPage } from '../db/newest-first.js';
import type { OrdersTable, ProductsTable, RedeemCodesTable } from '../db/schema-plans.js';
import { HttpError, badInput } from '../http/errors.js';
import { toRfc3339 } from '../lib/time.js';
import { recordAudit } from '../audit/audit.repository.js';
import { findProduct, priceString } from '../plans/catalog.js';
import { createCodeRows } from '../plans/redeem-codes.js';
import { grantItems } from '../plans/vip-info.js';
import { ORDER_EXPIRES_AFTER_MS, refundOrder } from '../payments/orders.service.js';
import { paymentProviders } from '../payments/providers.js';

type AdminProduct = Static<typeof AdminProductSchema>;
type AdminOrder = Static<typeof AdminOrderSchema>;
type AdminCode = Static<typeof AdminCodeSchema>;
interface Actor {
  id: string;
  ip: string;
}

const DAY = 86_400_000;
const notFound = (what: string) => new HttpError(404, 'not_found', what);
const interval = (v: string) => (v === 'month' || v === 'year' ? v : '');

function presentProduct(row: ProductsTable): AdminProduct {
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    grant: row.grant_spec,
    grants: grantItems(row.grant_spec),
    price: priceString(row.price_minor, row.currency),
    currency: row.currency,
    interval: interval(row.interval),
    position: row.position,
    on_sale: row.active === 1,
    created_time: toRfc3339(row.created_at),
  };
}

export async function listProducts(ctx: AppContext): Promise<{ products: AdminProduct[] }> {
  const rows = await ctx.db.selectFrom('products').selectAll().orderBy('active', 'desc').orderBy('position').orderBy('created_at').execute();
  return { products: rows.map(presentProduct) };
}

/** Off sale: the goods pages and new orders stop at once; orders and subscriptions keep what they sold. */
export async function retireProductAsOperator(ctx: AppContext, actor: Actor, id: string): Promise<AdminProduct> {
  const now = ctx.clock.now();
  const row = await ctx.db.transaction().execute(async (trx) => {
    const product = await findProduct(trx, id);
    if (!product) throw notFound('No product has that id.');
    if (product.active) {
      await trx.updateTable('products').set({ active: 0 }).where('id', '=', id).execute();
      await recordAudit(trx, { action: 'admin.product.retired', subjectId: actor.id, actorId: actor.id, ip: actor.ip, details: { product: id, product_title: product.title } }, now);
    }
    return { ...product, active: 0 };
  });
  return presentProduct(row);
}

/** Pending checkouts whose time ran out close, of every account, as each buyer's own list closes theirs. */
async function expireStaleOrders(ctx: AppContext): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.updateTable('orders').set({ status: 'close', updated_at: now }).where('status', '=', 'pending').where('created_at', '<=', now - ORDER_EXPIRES_AFTER_MS).execute();
}

/** The rows of one page, with their buyers' addresses, product titles and subscriptions (a query each, not per row). */
async function presentOrders(ctx: AppContext, rows: OrdersTable[]): Promise<AdminOrder[]> {
  const ids = (list: string[]) => [...new Set(list.filter(Boolean))];
  const userIds = ids(rows.map((o) => o.user_id));
  const productIds = ids(rows.map((o) => o.product_id));
  const subIds = ids(rows.map((o) => o.subscription_id));
  const [users, products, subs] = await Promise.all([
    userIds.length ? ctx.db.selectFrom('users').select(['id', 'email']).where('id', 'in', userIds).execute() : [],
    productIds.length ? ctx.db.selectFrom('products').select(['id', 'title']).where('id', 'in', productIds).execute() : [],
    subIds.length ? ctx.db.selectFrom('subscriptions').select(['id', 'status', 'current_period_end']).where('id', 'in', subIds).execute() : [],
  ]);
  const email = new Map(users.map((u) => [u.id, u.email]));
  const title = new Map(products.map((p) => [p.id, p.title]));
  const sub = new Map(subs.map((s) => [s.id, s]));
  return rows.map((o) => {
    const s = sub.get(o.subscription_id);
    return {
      id: o.id,
      created_time: toRfc3339(o.created_at),
      user_id: o.user_id,
      email: email.get(o.user_id) ?? '',
      product_id: o.product_id,
      title: title.get(o.product_id) ?? o.product_id,
      grant: o.grant_spec,
      grants: grantItems(o.grant_spec),
      amount: priceString(o.amount_minor, o.currency),
      currency: o.currency,
      provider: o.provider,
      status: o.status as OrderStatus,
      fulfilled_time: toRfc3339(o.fulfilled_at),
      subscription: s ? { id: s.id, status: s.status as 'active' | 'canceled' | 'ended', current_period_end: toRfc3339(s.current_period_end) } : null,
    };
  });
}

export async function listOrders(ctx: AppContext, q: { email?: string; status?: OrderStatus; limit: number; pageToken?: string }) {
  await expireStaleOrders(ctx);
  let query = ctx.db.selectFrom('orders').selectAll();
  const prefix = q.email?.trim().toLowerCase();
  if (prefix) {
    // Buyers whose address is the text or starts with it: a range over the unique address index.
    query = query.where('user_id', 'in', ctx.db.selectFrom('users').select('id').where('email', '>=', prefix).where('email', '<', `${prefix}\u{10ffff}`));
  }
  if (q.status) query = query.where('status', '=', q.status);
  const page = await newestFirstPage(query, { listing: 'admin-orders', column: 'created_at', limit: q.limit, pageToken: q.pageToken });
  return { orders: await presentOrders(ctx, page.rows), next_page_token: page.nextPageToken };
}

/** refundOrder, with its refusals as the API's errors: checked here first, since it words them for a shell. */
export async function refundAsOperator(ctx: AppContext, actor: Actor, id: string): Promise<AdminOrder> {
  const order = await ctx.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirst();
  if (!order) throw notFound('No order has that id.');
  if (order.status === 'refunded') throw new HttpError(409, 'failed_precondition', 'This order is refunded already.');
  if (order.status !== 'succeed') throw new HttpError(409, 'failed_precondition', `Only a paid order can be refunded: this one is ${order.status === 'close' ? 'closed' : order.status}.`);
  if (!paymentProviders(ctx.config).get(order.provider)) {
    throw new HttpError(409, 'failed_precondition', `The provider ${order.provider} is not set up on this server any more: refund at the provider, then here with it set up again.`);
  }
  try {
    await refundOrder(ctx, id);
  } catch (err) {
    if (err instanceof HttpError) throw err;
    throw new HttpError(503, 'unavailable', `${order.provider} did not make the refund: ${(err as Error).message}`);
  }
  await recordAudit(
    ctx.db,
    { action: 'admin.order.refunded', subjectId: order.user_id, actorId: actor.id, ip: actor.ip, details: { order_id: id, product: order.product_id, amount: `${priceString(order.amount_minor, order.currency)} ${order.currency}`, grant: order.grant_spec } },
    ctx.clock.now(),
  );
  const after = await ctx.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  return (await presentOrders(ctx, [after]))[0]!;
}

function presentCode(row: RedeemCodesTable): AdminCode {
  return {
    id: row.id,
    grant: row.grant_spec,
    grants: grantItems(row.grant_spec),
    note: row.note,
    max_uses: row.max_uses,
    used_count: row.used_count,
    expires_time: toRfc3339(row.expires_at),
    created_time: toRfc3339(row.created_at),
    revoked_time: toRfc3339(row.revoked_at),
  };
}

export async function listCodes(ctx: AppContext, q: { limit: number; pageToken?: string }) {
  const page = await newestFirstPage(ctx.db.selectFrom('redeem_codes').selectAll(), { listing: 'admin-codes', column: 'created_at', limit: q.limit, pageToken: q.pageToken });
  return { codes: page.rows.map(presentCode), next_page_token: page.nextPageToken };
}

export interface CodesInput {
  grant: string;
  count: number;
  max_uses: number;
  expires_days?: number;
  note?: string;
}

/** The codes in clear, this once; the audit event counts them and names the grant, never a code. */
export async function createCodesAsOperator(ctx: AppContext, actor: Actor, input: CodesInput) {
  let spec: string;
  try {
    spec = formatGrantSpec(parseGrantSpec(input.grant));
  } catch (err) {
    if (err instanceof GrantSpecError) throw badInput(err.message);
    throw err;
  }
  const now = ctx.clock.now();
  const note = input.note?.trim() ?? '';
  return ctx.db.transaction().execute(async (trx) => {
    const made = await createCodeRows(trx, { spec, count: input.count, maxUses: input.max_uses, expiresAt: input.expires_days ? now + input.expires_days * DAY : null, note }, now);
    await recordAudit(
      trx,
      { action: 'admin.codes.created', subjectId: actor.id, actorId: actor.id, ip: actor.ip, details: { grant: made.spec, codes: input.count, max_uses: input.max_uses, expires_days: input.expires_days ?? null, note } },
      now,
    );
    return { codes: made.codes, grant: made.spec, ids: made.ids };
  });
}

/** Stops a code at once (the redeem refuses it as expired); revoking it again changes nothing. */
export async function revokeCode(ctx: AppContext, actor: Actor, id: string): Promise<AdminCode> {
  const now = ctx.clock.now();
  const row = await ctx.db.transaction().execute(async (trx) => {
    const code = await trx.selectFrom('redeem_codes').selectAll().where('id', '=', id).executeTakeFirst();
    if (!code) throw notFound('No code has that id.');
    if (code.revoked_at !== null) return code;
    await trx.updateTable('redeem_codes').set({ revoked_at: now }).where('id', '=', id).execute();
    await recordAudit(trx, { action: 'admin.code.revoked', subjectId: actor.id, actorId: actor.id, ip: actor.ip, details: { code_id: id, grant: code.grant_spec, used: `${code.used_count}/${code.max_uses}`, note: code.note } }, now);
    return { ...code, revoked_at: now };
  });
  return presentCode(row);
}
