/** `haul-admin plans|codes|orders|refund`: the operator's goods, redeem codes, and orders. */
import type { AppContext } from '../context.js';
import { findUserByEmail } from '../accounts/users.repository.js';
import { refundOrder } from '../payments/orders.service.js';
import { INTERVALS, priceString, productsOnSale, retireProduct, saveProduct, type Interval } from './catalog.js';
import { createCodes } from './redeem-codes.js';

export const PLANS_USAGE = `  plans list                                                the goods on sale
  plans add <id> --title TITLE --grant SPEC --price 9.99 --currency EUR [--every month|year] [--position N]
                                                            add (or replace) a product; SPEC like premium:30d,
                                                            storage:100GB or transfer:50GB (see docs/decisions/plans.md)
  plans remove <id>                                         take a product off sale
  codes create --grant SPEC [--count N] [--uses N] [--expires DAYS] [--note TEXT]
                                                            print N (1) new redeem codes, each good for N (1) accounts
  codes list                                                the codes made (not the codes themselves) and their uses
  orders [--user EMAIL] [--limit N]                         the newest N (20) orders
  refund <order-id>                                         give the money back and take what it granted`;

/** The value after `--name`, or undefined. */
const opt = (args: string[], name: string): string | undefined => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};

function whole(v: string | undefined, fallback: number, what: string): number {
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`${what} must be a whole number of 1 or more`);
  return n;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export async function plansCommand(ctx: AppContext, command: string, args: string[]): Promise<number> {
  const now = ctx.clock.now();
  const [sub, id] = args;
  if (command === 'plans' && sub === 'list') {
    const rows = await productsOnSale(ctx.db);
    if (!rows.length) console.log('nothing on sale: add goods with "haul-admin plans add", or grant with redeem codes');
    for (const p of rows) console.log(`${p.id}  ${p.kind}  "${p.title}"  ${priceString(p.price_minor, p.currency)} ${p.currency}${p.interval ? ` every ${p.interval}` : ''}  grants ${p.grant_spec}`);
    return 0;
  }
  if (command === 'plans' && sub === 'add' && id) {
    const every = (opt(args, '--every') ?? '') as Interval;
    if (!INTERVALS.includes(every)) throw new Error('--every must be month or year');
    const p = await saveProduct(
      ctx.db,
      { id, title: opt(args, '--title') ?? '', grant: opt(args, '--grant') ?? '', price: opt(args, '--price') ?? '', currency: opt(args, '--currency') ?? '', interval: every, position: Number(opt(args, '--position') ?? 0) || 0 },
      now,
    );
    console.log(`on sale: ${p.id} "${p.title}" ${priceString(p.price_minor, p.currency)} ${p.currency}${p.interval ? ` every ${p.interval}` : ''}, grants ${p.grant_spec}`);
    return 0;
  }
  if (command === 'plans' && sub === 'remove' && id) {
    if (!(await retireProduct(ctx.db, id))) throw new Error(`no product ${id}`);
    console.log(`${id} is off sale; its orders and subscriptions are unchanged`);
    return 0;
  }
  if (command === 'codes' && sub === 'create') {
    const grant = opt(args, '--grant');
    if (!grant) throw new Error(`usage:\n${PLANS_USAGE}`);
    const expires = opt(args, '--expires');
    const codes = await createCodes(
      ctx.db,
      {
        spec: grant,
        count: Math.min(whole(opt(args, '--count'), 1, '--count'), 10_000),
        maxUses: whole(opt(args, '--uses'), 1, '--uses'),
        expiresAt: expires === undefined ? null : now + whole(expires.replace(/d$/, ''), 0, '--expires') * 86_400_000,
        note: opt(args, '--note') ?? '',
      },
      now,
    );
    console.log(codes.join('\n'));
    console.error(`${codes.length} codes granting ${grant} (shown once: only their hashes are kept)`);
    return 0;
  }
  if (command === 'codes' && sub === 'list') {
    const rows = await ctx.db.selectFrom('redeem_codes').selectAll().orderBy('created_at', 'desc').limit(200).execute();
    if (!rows.length) console.log('no codes made');
    for (const c of rows) console.log(`${day(c.created_at)}  ${c.grant_spec}  used ${c.used_count}/${c.max_uses}${c.expires_at ? `  expires ${day(c.expires_at)}` : ''}${c.note ? `  ${c.note}` : ''}`);
    return 0;
  }
  if (command === 'orders') {
    let q = ctx.db.selectFrom('orders').innerJoin('users', 'users.id', 'orders.user_id').selectAll('orders').select('users.email');
    const email = opt(args, '--user');
    if (email) {
      const u = await findUserByEmail(ctx.db, email);
      if (!u) throw new Error(`no account with email ${email}`);
      q = q.where('orders.user_id', '=', u.id);
    }
    const rows = await q.orderBy('orders.created_at', 'desc').limit(whole(opt(args, '--limit'), 20, '--limit')).execute();
    if (!rows.length) console.log('no orders');
    for (const o of rows) console.log(`${o.id}  ${new Date(o.created_at).toISOString()}  ${o.email}  ${o.product_id}  ${priceString(o.amount_minor, o.currency)} ${o.currency}  ${o.provider}  ${o.status}`);
    return 0;
  }
  if (command === 'refund' && sub) {
    const o = await refundOrder(ctx, sub);
    console.log(`order ${o.id} is refunded; what it granted is taken back`);
    return 0;
  }
  throw new Error(`usage:\n${PLANS_USAGE}`);
}
