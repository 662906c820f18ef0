/** Plans and payments through the contract: goods, providers, orders and their status, subscriptions, redeem codes. */
import type { GrantKind } from '@haul/shared';
import { haul } from '../../lib/api-client';

/** What a paid or redeemed plan changes: the caches every screen that shows the plan reads. */
export const PLAN_KEYS = [['me'], ['vip'], ['about'], ['orders'], ['subscriptions'], ['subscription-status'], ['upgrade-offer']] as const;

const REWARD: Partial<Record<GrantKind, 'space' | 'transfer'>> = { storage: 'space', transfer: 'transfer' };

export const listGoods = (kind: GrantKind) => haul.call('listProducts', { query: REWARD[kind] ? { reward_types: REWARD[kind] } : {} });
export const paySettings = () => haul.call('paySettings');
export const vipInfo = () => haul.call('vipInfo');
export const planLimits = () => haul.call('planLimits');

export interface StartPayment {
  provider: string;
  productId: string;
  recurring: boolean;
  taskId?: string;
  returnPath?: string;
}

export const startPayment = (p: StartPayment) =>
  haul.call(p.recurring ? 'createSubscription' : 'createOrder', {
    params: { provider: p.provider },
    body: { product_id: p.productId, ...(p.taskId ? { task_id: p.taskId } : {}), ...(p.returnPath ? { return_url: p.returnPath } : {}) },
  });

export const payStatus = (orderId: string) => haul.call('payStatus', { params: { orderId } });
export const listOrders = async () => (await haul.call('listOrders', { query: {} })).orders;
export const listSubscriptions = async () => (await haul.call('subscriptions')).subscriptions;
export const subscriptionStatus = async () => (await haul.call('allSubscriptionStatus')).items;
export const upgradeOffer = () => haul.call('upgradeToPro');
export const cancelSubscription = (id: string) => haul.call('cancelSubscription', { body: { subscription_id: id } });
export const sandboxOrder = async (orderId: string) => (await haul.call('sandboxCheckout', { params: { orderId } })).order;
export const sandboxPay = (orderId: string, outcome: 'pay' | 'decline' | 'cancel') => haul.call('sandboxPay', { params: { orderId }, body: { outcome } });
export const redeemCode = (code: string) => haul.call('redeemCode', { body: { activation_code: code } });
