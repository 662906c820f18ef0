/** /vip/v1/pay: providers, orders and subscriptions, the sandbox checkout, and the providers' webhooks. */
import type { FastifyInstance } from 'fastify';
import { CONTRACT as C } from '@haul/shared';
import type { AppContext } from '../context.js';
import { requireAuth } from '../http/auth.js';
import { serve } from '../http/contract.js';
import { HttpError, badInput } from '../http/errors.js';
import { applyNotice, type NoticeResult } from './fulfilment.js';
import { cancelSubscription, expireStaleOrders, listOrders, orderStatus, presentOrder, startOrder } from './orders.service.js';
import { WebhookRejected } from './provider.js';
import { paymentProviders } from './providers.js';
import { SANDBOX, sandboxNotice } from './sandbox-provider.js';
import { listSubscriptions, subscriptionStatus } from '../plans/vip-info.js';
import { findProduct } from '../plans/catalog.js';

/** The sandbox order of this person, or 404 (also when the sandbox is off). */
async function sandboxOrder(ctx: AppContext, userId: string, orderId: string) {
  const order = ctx.config.paySandbox
    ? await ctx.db.selectFrom('orders').selectAll().where('id', '=', orderId).where('user_id', '=', userId).where('provider', '=', SANDBOX).executeTakeFirst()
    : undefined;
  if (!order) throw new HttpError(404, 'not_found', 'No such sandbox order of yours (or the sandbox is off).');
  return order;
}

export async function paymentsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  serve(app, C.paySettings, async () => ({
    providers: [...paymentProviders(ctx.config).values()].map((p) => ({ id: p.id, name: p.name, recurring: p.recurring, sandbox: p.sandbox })),
  }));

  await app.register(async (scope) => {
    requireAuth(scope, ctx);
    serve(scope, C.createOrder, async (req) => startOrder(ctx, req.userId, req.params.provider, req.body, false));
    serve(scope, C.createSubscription, async (req) => startOrder(ctx, req.userId, req.params.provider, req.body, true));
    serve(scope, C.payStatus, async (req) => orderStatus(ctx, req.userId, req.params.orderId, req.log));
    serve(scope, C.listOrders, async (req) => ({ orders: await listOrders(ctx, req.userId, req.query.limit ?? 50) }));
    serve(scope, C.subscriptions, async (req) => ({ subscriptions: await listSubscriptions(ctx, req.userId) }));
    serve(scope, C.subscriptionStatus, async (req) => {
      const { subscribed, subscription } = (await subscriptionStatus(ctx, req.userId)).find((s) => s.kind === 'premium')!;
      return { subscribed, subscription };
    });
    serve(scope, C.allSubscriptionStatus, async (req) => ({ items: await subscriptionStatus(ctx, req.userId) }));
    serve(scope, C.cancelSubscription, async (req) => cancelSubscription(ctx, req.userId, req.body.subscription_id));
    serve(scope, C.sandboxCheckout, async (req) => {
      const order = await sandboxOrder(ctx, req.userId, req.params.orderId);
      return { order: presentOrder(order, (await findProduct(ctx.db, order.product_id))?.title) };
    });
    serve(scope, C.sandboxPay, async (req) => {
      // A checkout left open past its time takes no payment, as a provider's expired one would not.
      await expireStaleOrders(ctx, req.userId, req.params.orderId);
      const order = await sandboxOrder(ctx, req.userId, req.params.orderId);
      if (order.status !== 'pending') throw new HttpError(409, 'failed_precondition', `This order is ${order.status} already.`);
      await applyNotice(ctx, SANDBOX, sandboxNotice(order, req.body.outcome, ctx.clock.now()), req.log);
      const now = await sandboxOrder(ctx, req.userId, req.params.orderId);
      return { status: now.status as 'pending' };
    });
  });

  // Providers' notifications: the raw bytes, since their signatures are over exactly those.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_req, body, done) => done(null, body));
    serve(scope, C.paymentWebhook, async (req) => {
      const provider = paymentProviders(ctx.config).get(req.params.provider);
      if (!provider?.readWebhook) throw new HttpError(404, 'not_found', `No payment provider "${req.params.provider}" takes notifications here.`);
      let notices;
      try {
        notices = await provider.readWebhook(Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0), req.headers);
      } catch (err) {
        if (!(err instanceof WebhookRejected)) throw err;
        req.log.warn({ provider: provider.id, reason: err.message }, 'payment notification refused');
        throw badInput(`The notification was refused: ${err.message}`);
      }
      const results: NoticeResult[] = [];
      for (const n of notices) results.push(await applyNotice(ctx, provider.id, n, req.log));
      return { received: true, results };
    });
  });
}
