/** /vip/v1: premium and grants, redeem codes, and the goods on sale. */
import type { FastifyInstance } from 'fastify';
import { CONTRACT as C, type GrantKind } from '@haul/shared';
import type { AppContext } from '../context.js';
import { requireAuth } from '../http/auth.js';
import { serve } from '../http/contract.js';
import { presentProduct, productsOnSale } from './catalog.js';
import { comparePlans } from './compare.js';
import { paymentProviders } from '../payments/providers.js';
import { redeemCode } from './redeem-codes.js';
import { vipInfo } from './vip-info.js';

const KIND_OF: Record<string, GrantKind> = { space: 'storage', transfer: 'transfer' };

async function goods(ctx: AppContext, rewardTypes: string | undefined) {
  const rows = await productsOnSale(ctx.db);
  const kind = KIND_OF[rewardTypes ?? ''] ?? 'premium';
  const products = rows.filter((r) => r.kind === kind).map(presentProduct);
  return {
    sku_group: [{ kind, product_ids: products.map((p) => p.id) }],
    products,
    product_region: '',
    user_region: '',
    activity_config: {},
  };
}

export async function plansRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  serve(app, C.listProducts, async (req) => goods(ctx, req.query.reward_types));
  serve(app, C.queryProducts, async (req) => goods(ctx, req.body.reward_types));
  await app.register(async (scope) => {
    requireAuth(scope, ctx);
    serve(scope, C.vipInfo, async (req) => vipInfo(ctx, req.userId));
    serve(scope, C.planLimits, async () => comparePlans(ctx.config));
    serve(scope, C.upgradeToPro, async (req) => {
      const [vip, premiumGoods] = await Promise.all([vipInfo(ctx, req.userId), productsOnSale(ctx.db, 'premium')]);
      const first = premiumGoods[0];
      return { premium: vip.premium, expire: vip.expire, surplus_day: vip.surplus_day, offer: first ? presentProduct(first) : null, can_pay: paymentProviders(ctx.config).size > 0, free_vip: vip.free_vip, free_days: vip.free_days };
    });
    serve(scope, C.redeemCode, async (req) => {
      const granted = await redeemCode(ctx, req.userId, req.body.activation_code, req.ip);
      return { granted, vip: await vipInfo(ctx, req.userId) };
    });
  });
}
